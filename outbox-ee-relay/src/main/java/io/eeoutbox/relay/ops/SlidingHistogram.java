package io.eeoutbox.relay.ops;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * A histogram of the last {@code window} of durations: {@code slots} {@link DurationHistogram}s, each
 * covering {@code window / slots}, the oldest one dropped as time moves on. It gives a recent p95
 * ({@code outbox_batch_duration_p95_seconds}) without a metrics library, the same on every server.
 */
public final class SlidingHistogram {

    private final Clock clock;
    private final long slotMillis;
    private final DurationHistogram[] slots;
    private final long[] slotStart;
    private final double[] bounds;

    public SlidingHistogram(Clock clock, Duration window, int slots, double[] boundsSeconds) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (slots < 1 || window.toMillis() < slots) {
            throw new IllegalArgumentException("need at least one slot of at least 1 ms: " + window + " / " + slots);
        }
        this.slotMillis = window.toMillis() / slots;
        this.slots = new DurationHistogram[slots];
        this.slotStart = new long[slots];
        this.bounds = boundsSeconds.clone();
        Arrays.fill(slotStart, Long.MIN_VALUE);
    }

    public synchronized void record(Duration d) {
        current().record(d);
    }

    /** The observations of the last window, merged. */
    public synchronized DurationHistogram.Snapshot snapshot() {
        long now = clock.millis();
        long[] cumulative = new long[bounds.length + 1];
        long count = 0;
        double sum = 0;
        double max = 0;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == null || now - slotStart[i] >= slotMillis * slots.length) {
                continue;
            }
            DurationHistogram.Snapshot s = slots[i].snapshot();
            for (int b = 0; b < cumulative.length; b++) {
                cumulative[b] += s.cumulativeCounts()[b];
            }
            count += s.count();
            sum += s.sumSeconds();
            max = Math.max(max, s.maxSeconds());
        }
        return new DurationHistogram.Snapshot(bounds.clone(), cumulative, count, sum, max);
    }

    private DurationHistogram current() {
        long now = clock.millis();
        long start = Math.floorDiv(now, slotMillis) * slotMillis;
        int i = (int) Math.floorMod(Math.floorDiv(now, slotMillis), (long) slots.length);
        if (slotStart[i] != start || slots[i] == null) {
            slots[i] = new DurationHistogram(bounds);
            slotStart[i] = start;
        }
        return slots[i];
    }
}
