package io.eeoutbox.jpa;

import io.eeoutbox.InvalidEventException;
import io.eeoutbox.jpa.generated.DeleteExpiredProcessedEventsParams;
import io.eeoutbox.jpa.generated.ProcessedEventQueries;
import io.eeoutbox.jpa.generated.RecordProcessedEventParams;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;

/**
 * The consumer side: makes a message handler idempotent under at-least-once delivery.
 *
 * <pre>{@code
 * @Inject Inbox inbox;
 *
 * public void onMessage(Message m) {            // in the consumer's JTA transaction
 *     UUID id = UUID.fromString(m.getStringProperty("outbox_event_id"));
 *     if (!inbox.firstDelivery("projection", id)) {
 *         return;                               // seen before: changes nothing
 *     }
 *     ... apply the event ...
 * }
 * }</pre>
 *
 * The record goes into {@code processed_events} in the consumer's transaction, so "applied" and
 * "recorded" commit or roll back together. Concurrent deliveries of the same id are serialised by
 * the primary key: the second waits for the first and then sees it.
 *
 * <p>Records are kept for a retention and then forgotten: by the relay's cleaner in the relay's own
 * database, and by {@link #forgetOlderThan} where no relay runs on the consumer's database.
 */
@ApplicationScoped
public class Inbox {

    @Inject
    JtaResources resources;

    /**
     * Records that {@code consumer} is applying {@code eventId}.
     *
     * @return true the first time for this consumer and id, false for a redelivery
     */
    public boolean firstDelivery(String consumer, UUID eventId) {
        resources.requireActiveTransaction("Inbox.firstDelivery");
        EventValidator.checkName("consumer", consumer);
        if (eventId == null) {
            throw new InvalidEventException("eventId", "must not be null");
        }
        int inserted = new ProcessedEventQueries(resources.entityManager())
                .recordProcessedEvent(new RecordProcessedEventParams(consumer, eventId));
        return inserted == 1;
    }

    /**
     * The shortest retention {@link #forgetOlderThan} accepts. The relay's {@code outbox.relay.inbox.retention} has
     * the same bounds, and {@code outbox.relay.cleanup.batch-size} the same largest batch (RelayConfigTest keeps them
     * equal; the relay's settings import nothing of a CDI bean).
     */
    public static final Duration MIN_RETENTION = Duration.ofHours(1);
    /** The longest retention {@link #forgetOlderThan} accepts. */
    public static final Duration MAX_RETENTION = Duration.ofDays(36_500);
    /** The most records one {@link #forgetOlderThan} call deletes. */
    public static final int MAX_FORGET_BATCH = 100_000;

    /**
     * Deletes up to {@code batchSize} records older than {@code retention} by the database's clock, oldest first,
     * in the caller's transaction, and returns how many it deleted. For a consumer whose database no relay
     * cleans: call it from a timer, one transaction per call; a call that deletes {@code batchSize} records
     * says more are due. The retention must be longer than any window in which the broker may deliver an event
     * again, or that delivery is applied twice (docs/operations.md, "The inbox is cleaned").
     *
     * @throws IllegalArgumentException naming the parameter, when {@code retention} is outside {@link #MIN_RETENTION}
     *         to {@link #MAX_RETENTION} or {@code batchSize} outside 1 to {@link #MAX_FORGET_BATCH}
     */
    public int forgetOlderThan(Duration retention, int batchSize) {
        if (retention == null || retention.compareTo(MIN_RETENTION) < 0 || retention.compareTo(MAX_RETENTION) > 0) {
            throw new IllegalArgumentException("retention: must be from 1 hour (" + MIN_RETENTION + ") to " + MAX_RETENTION.toDays()
                    + " days (P" + MAX_RETENTION.toDays() + "D), was " + retention);
        }
        if (batchSize < 1 || batchSize > MAX_FORGET_BATCH) {
            throw new IllegalArgumentException("batchSize: must be from 1 to " + MAX_FORGET_BATCH + ", was " + batchSize);
        }
        resources.requireActiveTransaction("Inbox.forgetOlderThan");
        return new ProcessedEventQueries(resources.entityManager())
                .deleteExpiredProcessedEvents(new DeleteExpiredProcessedEventsParams(null, retention.toMillis(), batchSize))
                .orElse(0);
    }
}
