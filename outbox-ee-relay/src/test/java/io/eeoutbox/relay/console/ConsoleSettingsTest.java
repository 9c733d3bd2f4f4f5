package io.eeoutbox.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class ConsoleSettingsTest {

    private static ConsoleSettings load(Map<String, String> values) {
        return ConsoleSettings.load(k -> Optional.ofNullable(values.get(k)));
    }

    @Test
    void offAtTheDefaultPathUnlessConfigured() {
        assertThat(load(Map.of())).isEqualTo(new ConsoleSettings(false, "/outbox-admin/"));
        assertThat(load(Map.of("outbox.console.enabled", "TRUE", "outbox.console.path", "/ops/outbox")))
                .isEqualTo(new ConsoleSettings(true, "/ops/outbox/"));
    }

    @Test
    void invalidValuesNameTheKey() {
        assertThatThrownBy(() -> load(Map.of("outbox.console.enabled", "yes")))
                .hasMessageContaining("outbox.console.enabled=yes").hasMessageContaining("true or false");
        for (String bad : new String[] {"/", "outbox", "/a//b/", "/a/../b/", "/./", "/a b/", "/<script>/", "/a?x/"}) {
            assertThatThrownBy(() -> load(Map.of("outbox.console.path", bad)))
                    .as(bad).hasMessageContaining("outbox.console.path=" + bad);
        }
    }
}
