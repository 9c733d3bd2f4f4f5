package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.relay.ops.OperatorInput.BadInput;
import io.eeoutbox.relay.store.DeadLetterFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The one parser of what an operator types, whichever surface it came through. */
class OperatorInputTest {

    @Test
    void aFilterOfBlankPartsMatchesAll() throws BadInput {
        assertThat(OperatorInput.filter(k -> " ")).isEqualTo(DeadLetterFilter.ALL);
        assertThat(OperatorInput.filter(k -> null)).isEqualTo(DeadLetterFilter.ALL);
        DeadLetterFilter f = OperatorInput.filter(Map.of("eventType", " order.created ", "createdFrom", "2026-03-01",
                "createdTo", "2026-03-01T12:00:00+02:00")::get);
        assertThat(f.eventType()).isEqualTo("order.created");
        assertThat(f.createdFrom()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
        assertThat(f.createdTo()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
    }

    @Test
    void instantsAreInstantsOffsetDateTimesOrDatesAtMidnightUtc() throws BadInput {
        assertThat(OperatorInput.instant("createdFrom", "2026-03-01T12:00:00Z")).isEqualTo("2026-03-01T12:00:00Z");
        assertThat(OperatorInput.instant("createdFrom", " 2026-03-01T12:00:00-01:00 "))
                .isEqualTo("2026-03-01T13:00:00Z");
        assertThat(OperatorInput.instant("createdFrom", "2026-03-01")).isEqualTo("2026-03-01T00:00:00Z");
        assertThat(OperatorInput.instant("createdFrom", "")).isNull();
        assertThat(OperatorInput.instant("createdFrom", null)).isNull();
    }

    @Test
    void badInputNamesTheField() {
        assertField(() -> OperatorInput.filter(Map.of("createdFrom", "yesterday")::get), "createdFrom");
        assertField(() -> OperatorInput.filter(Map.of("createdFrom", "2026-03-02", "createdTo", "2026-03-01")::get),
                "createdTo");
        assertField(() -> OperatorInput.filter(Map.of("createdFrom", "2026-03-01", "createdTo", "2026-03-01")::get),
                "createdTo");
        assertField(() -> OperatorInput.filter(Map.of("eventType", "x".repeat(101))::get), "eventType");
        assertField(() -> OperatorInput.filter(Map.of("aggregateId", "x".repeat(101))::get), "aggregateId");
        assertField(() -> OperatorInput.filter(Map.of("errorText", "a\nrelay=forged")::get), "errorText");
        assertField(() -> OperatorInput.instant("createdTo", "2026-13-01"), "createdTo");
        assertField(() -> OperatorInput.limit("201"), "limit");
        assertField(() -> OperatorInput.limit("0"), "limit");
        assertField(() -> OperatorInput.limit("ten"), "limit");
        assertField(() -> OperatorInput.after("-1"), "after");
        assertField(() -> OperatorInput.id("id", "not-a-uuid"), "id");
        assertField(() -> OperatorInput.id("id", "1-1-1-1-1"), "id");
        assertField(() -> OperatorInput.id("eventId", ""), "eventId");
        assertField(() -> OperatorInput.olderThan("-P1D"), "olderThan");
        assertField(() -> OperatorInput.olderThan("P1X"), "olderThan");
        assertField(() -> OperatorInput.olderThan(null), "olderThan");
        assertField(() -> OperatorInput.days("days", -1), "days");
        assertField(() -> OperatorInput.onlyKnown(Set.of("evenType"), OperatorInput.FILTER_FIELDS), "evenType");
    }

    @Test
    void messagesSayTheLimitAndWhatWasGiven() {
        assertThatThrownBy(() -> OperatorInput.limit("201")).hasMessage("limit must be 1..200, was 201");
        assertThatThrownBy(() -> OperatorInput.filter(Map.of("eventType", "x".repeat(101))::get))
                .hasMessage("eventType must be at most 100 characters without control characters");
        assertThatThrownBy(() -> OperatorInput.filter(Map.of("errorText", "x".repeat(201))::get))
                .hasMessage("errorText must be at most 200 characters without control characters");
        assertThatThrownBy(() -> OperatorInput.filter(Map.of("createdFrom", "2026-03-02", "createdTo", "2026-03-01")::get))
                .hasMessage("createdFrom (2026-03-02T00:00:00Z) must be before createdTo (2026-03-01T00:00:00Z)");
        assertThatThrownBy(() -> OperatorInput.instant("createdFrom", "yesterday " + "x".repeat(100)))
                .hasMessageContaining("ISO-8601").hasMessageContaining("2026-03-01").hasMessageContaining("…'");
    }

    @Test
    void goodValues() throws BadInput {
        assertThat(OperatorInput.limit(null)).isEqualTo(OperatorInput.DEFAULT_PAGE);
        assertThat(OperatorInput.limit("200")).isEqualTo(200);
        assertThat(OperatorInput.after("17")).isEqualTo(17);
        assertThat(OperatorInput.after(" ")).isZero();
        assertThat(OperatorInput.olderThan("P7D")).isEqualTo(Duration.ofDays(7));
        assertThat(OperatorInput.olderThan("PT0S")).isEqualTo(Duration.ZERO);
        assertThat(OperatorInput.days("days", 7)).isEqualTo(Duration.ofDays(7));
        UUID id = UUID.randomUUID();
        assertThat(OperatorInput.id("id", id.toString())).isEqualTo(id);
        assertThat(OperatorInput.id("id", id.toString().toUpperCase())).isEqualTo(id);
    }

    private static void assertField(ThrowingRunnable r, String field) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(BadInput.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).contains(field);
        });
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
