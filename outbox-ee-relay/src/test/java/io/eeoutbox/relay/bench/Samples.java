package io.eeoutbox.relay.bench;

import java.util.Arrays;

/** A growable array of latencies in nanoseconds, with exact percentiles. One writer thread. */
final class Samples {

    private long[] values = new long[4096];
    private int size;

    void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    int size() {
        return size;
    }

    void addAll(Samples other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    /** The values in the order they were added (a copy). */
    long[] values() {
        return Arrays.copyOf(values, size);
    }

    /** The sorted values (a copy). */
    long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    /** Nearest-rank percentile of sorted values, in milliseconds; NaN when empty. */
    static double percentileMillis(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        int index = Math.min(sorted.length - 1, Math.max(0, rank - 1));
        return sorted[index] / 1_000_000.0;
    }

    static double maxMillis(long[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1_000_000.0;
    }
}
