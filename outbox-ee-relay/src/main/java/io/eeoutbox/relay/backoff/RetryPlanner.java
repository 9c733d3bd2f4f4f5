package io.eeoutbox.relay.backoff;

import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.spi.BackoffPolicy;
import java.time.Instant;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Every decision about when a row is tried again after a publish failed: a counted failure waits the
 * backoff of its attempt; a batch the broker could not take at all (an outage) waits a backoff that grows
 * with the length of the outage, and meanwhile the relay leaves the outbox alone (the broker hold), so an
 * outage costs one round of updates per deferral instead of one per drain.
 */
public final class RetryPlanner {

    /**
     * The longest outage deferral, in backoff steps: with the default backoff (PT1S, ×2) rows wait at most
     * about 16 s during an outage, so the backlog drains soon after the broker is back.
     */
    public static final int MAX_OUTAGE_STEPS = 5;

    private final BackoffPolicy policy;
    /** Consecutive batches in which the broker could not be reached; 0 once a publish succeeds. */
    private volatile int outageStreak;
    /** Until when the broker is taken to be down (the last deferral's retry time); null when it is not. */
    private volatile Instant brokerRetryAt;

    public RetryPlanner(BackoffPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
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
     * The broker could not be reached: when the rows of this batch are due again. Each further batch of the
     * same outage waits longer, up to {@link #MAX_OUTAGE_STEPS} steps.
     */
    public Instant nextDeferral(Instant now) {
        int steps = Math.min(outageStreak + 1, MAX_OUTAGE_STEPS);
        outageStreak = steps;
        return now.plus(policy.delay(steps));
    }

    /** The rows were deferred until {@code retryAt}: hold the relay off the outbox until then. */
    public void holdUntil(Instant retryAt) {
        brokerRetryAt = retryAt;
    }

    /** A publish reached the broker: the outage, if any, is over. */
    public void brokerReached() {
        outageStreak = 0;
        brokerRetryAt = null;
    }

    /**
     * Whether the relay should leave the outbox alone at {@code now} because the broker was unreachable and
     * the retry time of the rows it deferred has not come: claiming new rows would only defer them too.
     */
    public boolean holdsForBroker(Instant now) {
        Instant until = brokerRetryAt;
        return until != null && now.isBefore(until);
    }

    /** When the broker hold ends, or null when there is none. */
    public Instant brokerHoldUntil() {
        return brokerRetryAt;
    }
}
