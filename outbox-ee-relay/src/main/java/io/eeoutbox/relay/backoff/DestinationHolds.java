package io.eeoutbox.relay.backoff;

import io.eeoutbox.spi.BackoffPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The destinations that cannot take messages now (a full queue, a topic without enough in-sync replicas:
 * docs/decisions/0015-a-full-destination-is-an-outage.md), each held on its own so that the others keep flowing.
 *
 * <p>A destination is held from the refusal on for a backoff that grows with each further refusal (the outage
 * deferral of {@link RetryPlanner}, up to {@link RetryPlanner#MAX_OUTAGE_STEPS} steps). While the hold lasts the
 * relay hands none of its messages to the publisher; once it has ended, one message per batch goes as a probe,
 * and the first message the destination takes ends the hold.
 *
 * <p>Written by the relay's thread, read by the health checks, the console and the MBean: a concurrent map. Hold
 * ends run on the monotonic clock ({@code nanoTime}); {@code clock} only says when, for people.
 */
public final class DestinationHolds {

    /**
     * One held destination, as operators see it.
     *
     * @param destination the publisher's name for it
     * @param since       when it first refused in this outage
     * @param until       when the next probe may go (in the past: the probe is due)
     * @param refusals    how many times it refused in this outage
     * @param error       its last refusal
     */
    public record Held(String destination, Instant since, Instant until, int refusals, String error) {

        /** One line for health data, the MBean and the console. */
        public String describe() {
            return destination + ": cannot take messages since " + since + " (" + refusals
                    + (refusals == 1 ? " refusal" : " refusals") + ", next try at " + until + "): " + error;
        }
    }

    private record Hold(Instant since, long untilNanos, int refusals, String error) {
    }

    private final BackoffPolicy policy;
    private final LongSupplier nanoTime;
    private final Clock clock;
    private final Map<String, Hold> holds = new ConcurrentHashMap<>();

    public DestinationHolds(BackoffPolicy policy, LongSupplier nanoTime, Clock clock) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** {@code destination} refused a message because it cannot take any now: hold it (longer each time). */
    public Duration refused(String destination, String error) {
        Hold before = holds.get(destination);
        int refusals = before == null ? 1 : before.refusals() + 1;
        Duration delay = policy.delay(Math.min(refusals, RetryPlanner.MAX_OUTAGE_STEPS));
        holds.put(destination, new Hold(before == null ? clock.instant() : before.since(),
                nanoTime.getAsLong() + delay.toNanos(), refusals, error));
        return delay;
    }

    /** {@code destination} took a message: it is no longer held. */
    public void tookMessage(String destination) {
        if (destination != null && !holds.isEmpty()) {
            holds.remove(destination);
        }
    }

    /** Whether {@code destination} is held and its hold has not ended (no message may go, not even a probe). */
    public boolean closed(String destination) {
        return left(destination) != null;
    }

    /** Whether {@code destination} is held (the hold may have ended: then one message may go, as a probe). */
    public boolean held(String destination) {
        return destination != null && holds.containsKey(destination);
    }

    /** How long {@code destination}'s hold still lasts, or null when it is not held or the hold has ended. */
    public Duration left(String destination) {
        Hold h = destination == null ? null : holds.get(destination);
        if (h == null) {
            return null;
        }
        long left = h.untilNanos() - nanoTime.getAsLong();
        return left > 0 ? Duration.ofNanos(left) : null;
    }

    /** The last refusal of a held destination, or null. */
    public String error(String destination) {
        Hold h = destination == null ? null : holds.get(destination);
        return h == null ? null : h.error();
    }

    /** The shortest hold still running, or null when none runs. */
    public Duration shortestLeft() {
        Duration shortest = null;
        for (String d : holds.keySet()) {
            Duration left = left(d);
            if (left != null && (shortest == null || left.compareTo(shortest) < 0)) {
                shortest = left;
            }
        }
        return shortest;
    }

    public boolean isEmpty() {
        return holds.isEmpty();
    }

    /** Every held destination, by name. */
    public List<Held> snapshot() {
        long nanos = nanoTime.getAsLong();
        Instant now = clock.instant();
        List<Held> all = new ArrayList<>(holds.size());
        holds.forEach((d, h) -> all.add(new Held(d, h.since(), now.plusNanos(h.untilNanos() - nanos), h.refusals(),
                h.error())));
        all.sort(Comparator.comparing(Held::destination));
        return all;
    }
}
