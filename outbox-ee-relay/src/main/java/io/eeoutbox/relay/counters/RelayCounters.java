package io.eeoutbox.relay.counters;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** What the relay has done since it started: for the MBean, health checks and logs. Thread-safe. */
public final class RelayCounters {

    private final AtomicLong published = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong lastBatchNanos = new AtomicLong(-1);
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private final AtomicReference<Instant> lastErrorAt = new AtomicReference<>();
    private final AtomicReference<Instant> lastLoopAt = new AtomicReference<>();
    /** The lease end (a nanoTime value) of the batch being published; {@link Long#MIN_VALUE}: none. */
    private final AtomicLong publishingUntil = new AtomicLong(Long.MIN_VALUE);

    public void batch(int publishedCount, int failedCount, long elapsedNanos) {
        batches.incrementAndGet();
        published.addAndGet(publishedCount);
        failed.addAndGet(failedCount);
        lastBatchNanos.set(elapsedNanos);
    }

    public void deadLettered(int count) {
        deadLettered.addAndGet(count);
    }

    public void error(String text, Instant at) {
        lastError.set(text);
        lastErrorAt.set(at);
    }

    public void loopRan(Instant at) {
        lastLoopAt.set(at);
    }

    /**
     * A batch is being handed to the publisher, which must be done by {@code leaseEnd} (a {@code nanoTime} value: a
     * wall clock stepped back would otherwise make a stuck publish look alive for longer).
     */
    public void publishing(long leaseEnd) {
        publishingUntil.set(leaseEnd);
    }

    public void publishDone() {
        publishingUntil.set(Long.MIN_VALUE);
    }

    /**
     * How long the lease of the batch being published still lasts at {@code nowNanos} (negative once it ran out), or
     * null when no publish is under way.
     */
    public Duration publishingLeft(long nowNanos) {
        long until = publishingUntil.get();
        return until == Long.MIN_VALUE ? null : Duration.ofNanos(until - nowNanos);
    }

    /** A consistent-enough copy of the counters. */
    public Snapshot snapshot() {
        long nanos = lastBatchNanos.get();
        return new Snapshot(new Totals(published.get(), failed.get(), deadLettered.get(), batches.get()),
                nanos < 0 ? null : Duration.ofNanos(nanos), lastError.get(), lastErrorAt.get(), lastLoopAt.get());
    }

    /**
     * @param published    messages accepted by the broker since start
     * @param failed       failed publish attempts since start
     * @param deadLettered rows that became dead letters since start
     * @param batches      batches claimed since start
     */
    public record Totals(long published, long failed, long deadLettered, long batches) {
    }

    /**
     * @param totals            the counts since start
     * @param lastBatchDuration claim to complete of the last batch, or null before the first
     * @param lastError         the last database or relay error, or null
     * @param lastErrorAt       when it happened, or null
     * @param lastLoopAt        when the relay last looked for work, or null
     */
    public record Snapshot(Totals totals, Duration lastBatchDuration, String lastError, Instant lastErrorAt,
                           Instant lastLoopAt) {

        public long published() {
            return totals.published();
        }

        public long failed() {
            return totals.failed();
        }

        public long deadLettered() {
            return totals.deadLettered();
        }

        public long batches() {
            return totals.batches();
        }
    }
}
