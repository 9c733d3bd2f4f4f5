package io.eeoutbox.relay.ee;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The JMS destination settings as the relay's start reads them, and the README's snippet of them. */
class JmsDestinationSettingsTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();

    private static ResourceNames load(Map<String, String> settings) {
        return ResourceNames.load(key -> Optional.ofNullable(settings.get(key)));
    }

    @Test
    void withoutAPatternEveryEventGoesToTheOneDestination() {
        assertThat(load(Map.of()).jmsDestinations().isFixed()).isTrue();
        assertThat(load(Map.of()).jmsDestinations()).hasToString("java:app/jms/OutboxEvents");
        assertThat(load(Map.of("outbox.relay.jms.destination", "java:/queue/orders")).jmsDestinations())
                .hasToString("java:/queue/orders");
    }

    @Test
    void aPatternRoutesEachEvent() {
        ResourceNames names = load(Map.of("outbox.relay.jms.destination-pattern", " java:app/jms/{aggregate_type}-events "));
        assertThat(names.jmsDestinations().isFixed()).isFalse();
        assertThat(names.toString())
                .contains("jms.destinations=destination-pattern=java:app/jms/{aggregate_type}-events");
    }

    @Test
    void bothSettingsOrABadPatternFailTheStartNamingTheSetting() {
        assertThatThrownBy(() -> load(Map.of("outbox.relay.jms.destination", "java:/queue/orders",
                "outbox.relay.jms.destination-pattern", "java:app/jms/{aggregate_type}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("set one of outbox.relay.jms.destination")
                .hasMessageContaining("outbox.relay.jms.destination-pattern")
                .hasMessageContaining("both are set");
        assertThatThrownBy(() -> load(Map.of("outbox.relay.jms.destination-pattern", "java:app/jms/{type}")))
                .hasMessageContaining("invalid configuration: outbox.relay.jms.destination-pattern=java:app/jms/{type}")
                .hasMessageContaining("unknown placeholder {type}");
    }

    /** The README's JMS routing snippet is in the settings the in-server routing test deploys (JmsRoutingIT). */
    @Test
    void theReadmesRoutingSnippetIsWhatTheInServerTestDeploys() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        int section = readme.indexOf("## JMS");
        assertThat(section).as("README has a JMS section").isNotNegative();
        int from = readme.indexOf("```properties\n", section);
        int to = readme.indexOf("```", from + 14);
        List<String> snippet = readme.substring(from + 14, to).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).collect(Collectors.toList());
        assertThat(snippet).anyMatch(l -> l.startsWith("outbox.relay.jms.destination-pattern="));
        List<String> deployed = Files.readAllLines(ROOT.resolve(
                "sample-war/src/test/resources/jms-routing-it/microprofile-config.properties"), StandardCharsets.UTF_8);
        assertThat(deployed).containsAll(snippet);
        Map<String, String> settings = snippet.stream().map(l -> l.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
        assertThat(load(settings).jmsDestinations().isFixed()).isFalse();
    }
}
