package io.eeoutbox;

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

    /** Records {@code event}; see {@link #record(String, String, String, Object)}. */
    default UUID record(ExportedEvent event) {
        if (event == null) {
            throw new InvalidEventException("event", "must not be null");
        }
        return record(event.aggregateType(), event.aggregateId(), event.eventType(), event.payload());
    }
}
