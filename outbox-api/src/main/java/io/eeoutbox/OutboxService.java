package io.eeoutbox;

import java.time.Instant;
import java.util.UUID;

/**
 * Records events in the outbox inside the caller's transaction.
 *
 * <p>The event row is written through the application's persistence unit in the JTA transaction
 * that is active on the calling thread, so it commits or rolls back with the caller's business
 * data. There is no publishing here: a relay publishes committed events afterwards, at least
 * once, with the returned id as the deduplication key.
 *
 * <p>Invalid input (a blank or too long field, a payload that is not JSON or is too large) throws
 * {@link InvalidEventException} <em>and marks the caller's transaction rollback-only</em>, so
 * nothing of it commits, even when the caller catches the exception. Calling without an active
 * transaction throws {@link NoActiveTransactionException} and writes nothing.
 */
public interface OutboxService {

    /**
     * Records one event in the caller's transaction.
     *
     * @return the event id, which every published message carries for deduplication
     * @throws InvalidEventException        if a field is missing, too long, or the payload is not JSON
     * @throws NoActiveTransactionException if no JTA transaction is active on this thread
     */
    UUID record(String aggregateType, String aggregateId, String eventType, Object payload);

    /**
     * Records one delayed event in the caller's transaction: committed with it, and not published before
     * {@code notBefore} by the database's clock (schema V14). Null, or a time in the past, is now. A time more than
     * {@link #MAX_DELAY_DAYS} days ahead is refused ({@link InvalidEventException} naming {@code notBefore}); nothing
     * is written. In ordered mode the event joins its aggregate's order when it falls due
     * (docs/decisions/0022-a-delayed-event-joins-its-aggregate-when-due.md).
     *
     * @throws UnsupportedOperationException from an implementation without delayed events, for a non-null notBefore
     */
    default UUID record(String aggregateType, String aggregateId, String eventType, Object payload, Instant notBefore) {
        if (notBefore == null) {
            return record(aggregateType, aggregateId, eventType, payload);
        }
        throw new UnsupportedOperationException(getClass().getName() + " does not record delayed events");
    }

    /** The furthest a delayed event may lie ahead: 366 days (a year's business deadlines, leap years included). */
    int MAX_DELAY_DAYS = 366;

    /** Records {@code event}, delayed when it has a {@code notBefore}; see {@link #record(String, String, String, Object, Instant)}. */
    default UUID record(ExportedEvent event) {
        if (event == null) {
            throw new InvalidEventException("event", "must not be null");
        }
        return record(event.aggregateType(), event.aggregateId(), event.eventType(), event.payload(), event.notBefore());
    }
}
