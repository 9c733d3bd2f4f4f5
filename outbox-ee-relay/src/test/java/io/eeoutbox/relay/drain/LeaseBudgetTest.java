package io.eeoutbox.relay.drain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LeaseBudgetTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void theDeadlineIsAFifthOfTheLeaseBeforeItEnds() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        assertThat(budget.deadline(T0.plusSeconds(60))).isEqualTo(T0.plusSeconds(48));
    }

    @Test
    void withoutAMeasurementTheWholeBatchGoesInOneCall() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        assertThat(budget.nextChunk(T0, T0.plusSeconds(48), 1000)).isEqualTo(1000);
    }

    @Test
    void aSlowPublisherGetsOnlyWhatFitsBeforeTheDeadline() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        budget.record(10, Duration.ofSeconds(1).toNanos()); // 100 ms per message
        assertThat(budget.nextChunk(T0, T0.plusSeconds(48), 1000)).isEqualTo(480);
        assertThat(budget.nextChunk(T0.plusSeconds(40), T0.plusSeconds(48), 1000)).isEqualTo(80);
        assertThat(budget.nextChunk(T0.plusMillis(47_950), T0.plusSeconds(48), 1000)).isEqualTo(1);
    }

    @Test
    void nothingIsPublishedOnceTheDeadlineHasPassed() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        assertThat(budget.nextChunk(T0.plusSeconds(48), T0.plusSeconds(48), 10)).isZero();
        assertThat(budget.nextChunk(T0.plusSeconds(50), T0.plusSeconds(48), 10)).isZero();
    }

    @Test
    void theEstimateFollowsRecentCalls() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        budget.record(100, 100_000_000L); // 1 ms each
        budget.record(100, 1_100_000_000L); // 11 ms each
        assertThat(budget.nanosPerMessage()).isEqualTo(4_000_000.0, org.assertj.core.data.Offset.offset(1.0));
    }
}
