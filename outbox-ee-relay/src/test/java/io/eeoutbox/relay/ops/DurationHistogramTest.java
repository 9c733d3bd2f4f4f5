package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationHistogramTest {

    @Test
    void countsEachValueInTheFirstBucketWhoseBoundIsAtLeastTheValue() {
        DurationHistogram h = new DurationHistogram(new double[] {0.1, 1, 10});
        h.record(Duration.ofMillis(100));   // exactly on a bound: le="0.1"
        h.record(Duration.ofMillis(101));
        h.record(Duration.ofSeconds(5));
        h.record(Duration.ofSeconds(11));   // +Inf

        DurationHistogram.Snapshot s = h.snapshot();
        assertThat(s.cumulativeCounts()).containsExactly(1, 2, 3, 4);
        assertThat(s.count()).isEqualTo(4);
        assertThat(s.sumSeconds()).isCloseTo(16.201, within(1e-9));
        assertThat(s.maxSeconds()).isEqualTo(11.0);
    }

    @Test
    void quantileInterpolatesInsideTheBucketAsPrometheusDoes() {
        DurationHistogram h = new DurationHistogram(new double[] {1, 2, 4});
        for (int i = 0; i < 10; i++) {
            h.record(Duration.ofMillis(1500));  // all in (1, 2]
        }
        DurationHistogram.Snapshot s = h.snapshot();
        assertThat(s.quantile(0.5)).isCloseTo(1.5, within(1e-9));
        assertThat(s.quantile(0.95)).isCloseTo(1.95, within(1e-9));
        assertThat(new DurationHistogram().snapshot().quantile(0.95)).isZero();
    }

    @Test
    void aQuantileInTheOpenBucketIsTheLargestBound() {
        DurationHistogram h = new DurationHistogram(new double[] {1, 5});
        h.record(Duration.ofSeconds(30));
        assertThat(h.snapshot().quantile(0.95)).isEqualTo(5.0);
    }

    @Test
    void boundsMustIncrease() {
        assertThatThrownBy(() -> new DurationHistogram(new double[] {1, 1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("increasing");
    }
}
