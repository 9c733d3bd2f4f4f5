package io.eeoutbox.relay.backoff;

import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.spi.BackoffPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Every decision about when a row is tried again after a publish failed: a counted failure waits the
 * backoff of its attempt; a batch the broker could not take at all (an outage) waits a backoff that grows
 * with the length of the outage, and meanwhile the relay leaves the outbox alone (the broker hold), so an
 * outage costs one round of updates per deferral instead of one per drain.
 *
 * <p>The hold runs on the monotonic clock ({@code nanoTime}): a wall clock stepped back by an NTP correction does
 * not stretch it. The rows' own retry times are the database's (durations added to its {@code now()}).
 */
public final class RetryPlanner {

    /**
     * The longest outage deferral, in backoff steps: with the default backoff (PT1S, ×2) rows wait at most
     * about 16 s during an outage, so the backlog drains soon after the broker is back.
     */
    public static final int MAX_OUTAGE_STEPS = 5;

    private final BackoffPolicy policy;
    private final LongSupplier nanoTime;
    /** Consecutive batches in which the broker could not be reached; 0 once a publish succeeds. */
    private volatile int outageStreak;
    /** Whether the broker is taken to be down, until {@link #brokerRetryAt} (a nanoTime value). */
    private volatile boolean held;
    private volatile long brokerRetryAt;

    public RetryPlanner(BackoffPolicy policy, LongSupplier nanoTime) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** The exponential backoff with jitter that the {@code outbox.relay.backoff.*} settings describe. */
    public static BackoffPolicy policyFor(RelayConfig config, DoubleSupplier random) {
        return BackoffPolicy.exponential(config.backoffInitial(), config.backoffFactor(), config.backoffMax(),
                config.backoffJitter(), random);
    }

    /** When a row whose attempt {@code attempt} failed (and counted) is due again. */
    public Instant retryAfter(Instant now, int attempt) {
        return now.plus(policy.delay(attempt));
    }

    /**
     * The broker could not be reached: how long the rows of this batch wait before they are due again. Each
     * further batch of the same outage waits longer, up to {@link #MAX_OUTAGE_STEPS} steps.
     */
    public Duration nextDeferral() {
        int steps = Math.min(outageStreak + 1, MAX_OUTAGE_STEPS);
        outageStreak = steps;
        return policy.delay(steps);
    }

    /** The rows were deferred for {@code delay} from now: hold the relay off the outbox that long. */
    public void holdFor(Duration delay) {
        brokerRetryAt = nanoTime.getAsLong() + delay.toNanos();
        held = true;
    }

    /** A publish reached the broker: the outage, if any, is over. */
    public void brokerReached() {
        outageStreak = 0;
        held = false;
    }

    /**
     * Whether the relay should leave the outbox alone now because the broker was unreachable and the retry
     * time of the rows it deferred has not come: claiming new rows would only defer them too.
     */
    public boolean holdsForBroker() {
        return brokerHoldLeft() != null;
    }

    /** How long the broker hold still lasts, or null when there is none (or it has ended). */
    public Duration brokerHoldLeft() {
        long left = brokerRetryAt - nanoTime.getAsLong();
        return held && left > 0 ? Duration.ofNanos(left) : null;
    }
}
