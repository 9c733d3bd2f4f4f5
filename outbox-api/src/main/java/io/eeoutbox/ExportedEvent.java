package io.eeoutbox;

import java.time.Instant;

/**
 * An event to record in the outbox: which aggregate it belongs to, what happened, and the payload.
 *
 * <p>The payload is turned into JSON when the event is recorded: a {@code String} must already be
 * JSON text, a {@code jakarta.json.JsonValue} is written as it is, and any other object is
 * serialized with JSON-B. Applications that prefer CDI events fire an {@code ExportedEvent}
 * with {@code jakarta.enterprise.event.Event#fire}; a synchronous observer records it in the
 * caller's transaction.
 *
 * @param aggregateType the kind of entity the event belongs to, for example {@code "order"}
 * @param aggregateId   the entity's id; events of one aggregate keep their order in ordered mode
 * @param eventType     the event's name, for example {@code "order.created"}
 * @param payload       the event body (see above)
 * @param notBefore     not published before this instant of the database's clock; null (or past) is now
 *                      ({@link OutboxService#record(String, String, String, Object, Instant)})
 */
public record ExportedEvent(String aggregateType, String aggregateId, String eventType, Object payload,
                            Instant notBefore) {

    /** An event published as soon as it is committed. */
    public ExportedEvent(String aggregateType, String aggregateId, String eventType, Object payload) {
        this(aggregateType, aggregateId, eventType, payload, null);
    }

    /** This event, not published before {@code time} (see {@code notBefore}). */
    public ExportedEvent withNotBefore(Instant time) {
        return new ExportedEvent(aggregateType, aggregateId, eventType, payload, time);
    }

    /** Shorthand for {@code new ExportedEvent(aggregateType, aggregateId, eventType, payload)}. */
    public static ExportedEvent of(String aggregateType, String aggregateId, String eventType, Object payload) {
        return new ExportedEvent(aggregateType, aggregateId, eventType, payload);
    }
}
