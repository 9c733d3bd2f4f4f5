package io.eeoutbox.relay.drain;

import java.time.Duration;

/**
 * Decides how much of a claimed batch may still be handed to the publisher before the claim's lease
 * runs out. Publishing must end a safety margin before {@code locked_until}, or another relay could
 * claim the same rows while they are being sent. The budget learns how long a message takes to
 * publish (a moving average) and splits the batch when the rest would not fit; rows that do not fit
 * are released for the next claim.
 *
 * <p>Times are {@link System#nanoTime()} values: a wall clock stepped back (an NTP correction) mid-publish would
 * otherwise let the publish run past the database's lease.
 */
final class LeaseBudget {

    private static final double WEIGHT = 0.3;

    private final long marginNanos;
    private double nanosPerMessage; // 0 until the first measurement

    LeaseBudget(Duration lease) {
        this.marginNanos = safetyMargin(lease).toNanos();
    }

    /** A fifth of the lease: publishing stops that long before the lease ends. */
    static Duration safetyMargin(Duration lease) {
        return lease.dividedBy(5);
    }

    /** The last moment (nanoTime) at which publishing may still start for a claim whose lease ends at {@code leaseEnd}. */
    long deadline(long leaseEnd) {
        return leaseEnd - marginNanos;
    }

    /**
     * How many of the {@code remaining} messages to publish now: all of them while the estimate says
     * they fit before {@code deadline}, fewer when not, at least one while the deadline is ahead, and
     * none once it has passed.
     */
    int nextChunk(long now, long deadline, int remaining) {
        if (remaining <= 0 || deadline - now <= 0) {
            return 0;
        }
        if (nanosPerMessage <= 0) {
            return remaining;
        }
        double left = deadline - now;
        long fit = (long) Math.floor(left / nanosPerMessage);
        return (int) Math.max(1, Math.min(remaining, fit));
    }

    /** Learns from a publish call that took {@code elapsedNanos} for {@code messages} messages. */
    void record(int messages, long elapsedNanos) {
        if (messages <= 0 || elapsedNanos < 0) {
            return;
        }
        double sample = (double) elapsedNanos / messages;
        nanosPerMessage = nanosPerMessage <= 0 ? sample : WEIGHT * sample + (1 - WEIGHT) * nanosPerMessage;
    }

    double nanosPerMessage() {
        return nanosPerMessage;
    }
}
