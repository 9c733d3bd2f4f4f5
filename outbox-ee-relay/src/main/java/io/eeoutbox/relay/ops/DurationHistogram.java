package io.eeoutbox.relay.ops;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A cumulative histogram of durations with fixed bucket bounds (the Prometheus shape: count, sum,
 * a count per upper bound, and the largest value seen). Thread-safe and allocation-free per record.
 */
public final class DurationHistogram {

    /** Upper bounds in seconds, from 5 ms to 60 s; values above the last fall into +Inf. */
    public static final double[] DEFAULT_BOUNDS_SECONDS = {
        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
    };

    private final long[] boundsNanos;
    private final double[] boundsSeconds;
    private final AtomicLongArray buckets; // not cumulative; the last one is +Inf
    private final LongAdder count = new LongAdder();
    private final LongAdder sumNanos = new LongAdder();
    private final AtomicLong maxNanos = new AtomicLong();

    public DurationHistogram() {
        this(DEFAULT_BOUNDS_SECONDS);
    }

    public DurationHistogram(double[] boundsSeconds) {
        double[] copy = boundsSeconds.clone();
        for (int i = 0; i < copy.length; i++) {
            if (!(copy[i] > 0) || (i > 0 && copy[i] <= copy[i - 1])) {
                throw new IllegalArgumentException("bucket bounds must be positive and increasing: "
                        + Arrays.toString(boundsSeconds));
            }
        }
        this.boundsSeconds = copy;
        this.boundsNanos = new long[copy.length];
        for (int i = 0; i < copy.length; i++) {
            boundsNanos[i] = Math.round(copy[i] * 1e9);
        }
        this.buckets = new AtomicLongArray(copy.length + 1);
    }

    public void record(Duration d) {
        long nanos = Math.max(0, d.toNanos());
        int i = Arrays.binarySearch(boundsNanos, nanos);
        int bucket = i >= 0 ? i : -i - 1; // the first bound >= value (le semantics)
        buckets.incrementAndGet(bucket);
        count.increment();
        sumNanos.add(nanos);
        maxNanos.accumulateAndGet(nanos, Math::max);
    }

    public Snapshot snapshot() {
        long[] cumulative = new long[buckets.length()];
        long running = 0;
        for (int i = 0; i < cumulative.length; i++) {
            running += buckets.get(i);
            cumulative[i] = running;
        }
        return new Snapshot(boundsSeconds.clone(), cumulative, count.sum(), sumNanos.sum() / 1e9, maxNanos.get() / 1e9);
    }

    /**
     * @param boundsSeconds       the upper bounds
     * @param cumulativeCounts    observations at or below each bound; one more entry for +Inf
     * @param count               observations
     * @param sumSeconds          their sum
     * @param maxSeconds          the largest
     */
    public record Snapshot(double[] boundsSeconds, long[] cumulativeCounts, long count, double sumSeconds,
                           double maxSeconds) {

        /**
         * The {@code q}-quantile (0..1) estimated as Prometheus' {@code histogram_quantile} does: linear
         * interpolation inside the bucket that holds it; the largest bound when it falls into +Inf;
         * 0 without observations.
         */
        public double quantile(double q) {
            if (q < 0 || q > 1) {
                throw new IllegalArgumentException("q must be from 0 to 1, was " + q);
            }
            if (count == 0) {
                return 0;
            }
            double rank = q * count;
            for (int i = 0; i < cumulativeCounts.length; i++) {
                if (cumulativeCounts[i] >= rank) {
                    if (i == boundsSeconds.length) {
                        return boundsSeconds[boundsSeconds.length - 1];
                    }
                    double lower = i == 0 ? 0 : boundsSeconds[i - 1];
                    long below = i == 0 ? 0 : cumulativeCounts[i - 1];
                    long inBucket = cumulativeCounts[i] - below;
                    if (inBucket == 0) {
                        return boundsSeconds[i];
                    }
                    return lower + (boundsSeconds[i] - lower) * ((rank - below) / inBucket);
                }
            }
            return boundsSeconds[boundsSeconds.length - 1];
        }
    }
}
