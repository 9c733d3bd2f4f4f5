package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Every operation an operator can ask of a relay, in one place: the MBean ({@link RelayAdmin}) and any web
 * console call this, never the engine directly, so an operation has one implementation and one log line.
 */
public final class RelayAdministration {

    private static final Logger LOG = Logger.getLogger(RelayAdministration.class.getName());

    private final OutboxRelay relay;
    private final Clock clock;

    public RelayAdministration(OutboxRelay relay, Clock clock) {
        this.relay = Objects.requireNonNull(relay, "relay");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public RelayAdministration(OutboxRelay relay) {
        this(relay, Clock.systemUTC());
    }

    public OutboxRelay relay() {
        return relay;
    }

    public void pause() {
        relay.pause();
    }

    public void resume() {
        relay.resume();
    }

    public void runNow() {
        relay.runNow();
    }

    /** Makes one dead letter due again with a fresh retry budget; false when {@code id} is no dead letter. */
    public boolean retryDeadLetter(UUID id) throws SQLException {
        boolean retried = relay.store().retryDeadLetter(Objects.requireNonNull(id, "id"));
        if (retried) {
            LOG.info(() -> "relay " + relay.config().name() + ": dead letter event_id=" + id + " retried on request");
            relay.wakeUp();
        }
        return retried;
    }

    /**
     * Makes every dead letter matching all given filters due again (a null filter matches all;
     * {@code createdFrom} inclusive, {@code createdTo} exclusive).
     */
    public int retryDeadLetters(String eventType, String aggregateType, Instant createdFrom, Instant createdTo)
            throws SQLException {
        int retried = relay.store().retryDeadLetters(eventType, aggregateType, createdFrom, createdTo);
        LOG.info(() -> "relay " + relay.config().name() + ": " + retried + " dead letters retried on request (event_type="
                + eventType + " aggregate_type=" + aggregateType + " from=" + createdFrom + " to=" + createdTo + ")");
        if (retried > 0) {
            relay.wakeUp();
        }
        return retried;
    }

    /**
     * Deletes published rows processed more than {@code age} ago, now, in bounded batches.
     *
     * @return how many rows were deleted
     * @throws IllegalStateException when another relay holds the maintenance lock (it is cleaning now)
     */
    public long purgeProcessedOlderThan(Duration age) throws SQLException {
        if (Objects.requireNonNull(age, "age").isNegative()) {
            throw new IllegalArgumentException("age must not be negative, was " + age);
        }
        OutboxCleaner.Result r = relay.cleaner().clean(age);
        if (r.lockedElsewhere() && r.deleted() == 0) {
            throw new IllegalStateException("another relay holds the outbox maintenance lock; try again later");
        }
        LOG.info(() -> "relay " + relay.config().name() + ": purged " + r.deleted() + " published rows older than " + age);
        return r.deleted();
    }

    /** Runs the scheduled cleanup now (with the configured retention); logs instead of throwing. */
    public void cleanUpNow() {
        relay.cleaner().runScheduled(relay.config().retention(), relay.config().inboxRetention());
    }

    /** Pending rows, dead letters and how long the oldest pending row has waited. */
    public RelayStats stats() throws SQLException {
        OutboxStore.Stats s = relay.store().stats();
        Duration age = s.oldestPendingCreatedAt() == null ? Duration.ZERO
                : Duration.between(s.oldestPendingCreatedAt(), clock.instant());
        return new RelayStats(s.pending(), s.dead(), age.isNegative() ? Duration.ZERO : age);
    }

    /** Counters since start: published, failed, dead-lettered, last batch duration, last error. */
    public RelayCounters.Snapshot counters() {
        return relay.counters();
    }
}
