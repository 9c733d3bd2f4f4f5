package io.eeoutbox.relay.drain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Times are nanoTime values, in seconds here. */
class LeaseBudgetTest {

    private static final long S = 1_000_000_000L;
    private static final long T0 = -7 * S; // nanoTime may be negative

    @Test
    void theDeadlineIsAFifthOfTheLeaseBeforeItEnds() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        assertThat(budget.deadline(T0 + 60 * S)).isEqualTo(T0 + 48 * S);
    }

    @Test
    void withoutAMeasurementTheWholeBatchGoesInOneCall() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        assertThat(budget.nextChunk(T0, T0 + 48 * S, 1000)).isEqualTo(1000);
    }

    @Test
    void aSlowPublisherGetsOnlyWhatFitsBeforeTheDeadline() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        budget.record(10, Duration.ofSeconds(1).toNanos()); // 100 ms per message
        assertThat(budget.nextChunk(T0, T0 + 48 * S, 1000)).isEqualTo(480);
        assertThat(budget.nextChunk(T0 + 40 * S, T0 + 48 * S, 1000)).isEqualTo(80);
        assertThat(budget.nextChunk(T0 + 47_950_000_000L, T0 + 48 * S, 1000)).isEqualTo(1);
    }

    @Test
    void nothingIsPublishedOnceTheDeadlineHasPassed() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        assertThat(budget.nextChunk(T0 + 48 * S, T0 + 48 * S, 10)).isZero();
        assertThat(budget.nextChunk(T0 + 50 * S, T0 + 48 * S, 10)).isZero();
    }

    @Test
    void theEstimateFollowsRecentCalls() {
        LeaseBudget budget = new LeaseBudget(Duration.ofSeconds(60));
        budget.record(100, 100_000_000L); // 1 ms each
        budget.record(100, 1_100_000_000L); // 11 ms each
        assertThat(budget.nanosPerMessage()).isEqualTo(4_000_000.0, org.assertj.core.data.Offset.offset(1.0));
    }
}
