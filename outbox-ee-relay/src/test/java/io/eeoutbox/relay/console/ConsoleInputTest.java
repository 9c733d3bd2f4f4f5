package io.eeoutbox.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.relay.console.ConsoleInput.BadInput;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConsoleInputTest {

    @Test
    void aFilterOfBlankPartsMatchesAll() throws BadInput {
        assertThat(ConsoleInput.filter(k -> " ")).isEqualTo(DeadLetterFilter.ALL);
        DeadLetterFilter f = ConsoleInput.filter(Map.of("eventType", " order.created ", "createdFrom", "2026-03-01",
                "createdTo", "2026-03-01T12:00:00+02:00")::get);
        assertThat(f.eventType()).isEqualTo("order.created");
        assertThat(f.createdFrom()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
        assertThat(f.createdTo()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
    }

    @Test
    void badInputNamesTheField() {
        assertField(() -> ConsoleInput.filter(Map.of("createdFrom", "yesterday")::get), "createdFrom");
        assertField(() -> ConsoleInput.filter(Map.of("createdFrom", "2026-03-02", "createdTo", "2026-03-01")::get),
                "createdTo");
        assertField(() -> ConsoleInput.filter(Map.of("aggregateId", "x".repeat(101))::get), "aggregateId");
        assertField(() -> ConsoleInput.filter(Map.of("errorText", "a\nrelay=forged")::get), "errorText");
        assertField(() -> ConsoleInput.limit("201"), "limit");
        assertField(() -> ConsoleInput.limit("0"), "limit");
        assertField(() -> ConsoleInput.after("-1"), "after");
        assertField(() -> ConsoleInput.id("not-a-uuid"), "id");
        assertField(() -> ConsoleInput.id("1-1-1-1-1"), "id");
        assertField(() -> ConsoleInput.olderThan("-P1D"), "olderThan");
        assertField(() -> ConsoleInput.olderThan("P1X"), "olderThan");
        assertField(() -> ConsoleInput.onlyKnown(Set.of("evenType"), ConsoleInput.FILTER_FIELDS), "evenType");
        assertField(() -> ConsoleInput.params(Map.of("limit", new String[] {"1", "2"})), "limit");
    }

    @Test
    void goodValues() throws BadInput {
        assertThat(ConsoleInput.limit(null)).isEqualTo(ConsoleInput.DEFAULT_PAGE);
        assertThat(ConsoleInput.limit("200")).isEqualTo(200);
        assertThat(ConsoleInput.after("17")).isEqualTo(17);
        assertThat(ConsoleInput.olderThan("P7D")).isEqualTo(Duration.ofDays(7));
        assertThat(ConsoleInput.olderThan("PT0S")).isEqualTo(Duration.ZERO);
    }

    @Test
    void csrfTokensAreBoundToTheUserAndTheirCookie() {
        CsrfTokens tokens = new CsrfTokens();
        String t = tokens.issue("alice");
        assertThat(tokens.valid("alice", t, t)).isTrue();
        assertThat(tokens.valid("bob", t, t)).isFalse();
        assertThat(tokens.valid("alice", t, null)).isFalse();
        assertThat(tokens.valid("alice", null, t)).isFalse();
        assertThat(tokens.valid("alice", t, tokens.issue("alice"))).isFalse();
        assertThat(new CsrfTokens().valid("alice", t, t)).as("another start-up's key").isFalse();
    }

    private static void assertField(ThrowingRunnable r, String field) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(BadInput.class, e -> {
            assertThat(e.field).isEqualTo(field);
            assertThat(e.getMessage()).contains(field);
        });
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
