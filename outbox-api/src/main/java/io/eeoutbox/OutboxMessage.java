package io.eeoutbox;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A committed outbox event as the relay hands it to a {@link io.eeoutbox.spi.Publisher}.
 *
 * @param id            the event id: the consumers' deduplication key
 * @param seq           the write order (increasing; ties impossible)
 * @param aggregateType the aggregate's kind
 * @param aggregateId   the aggregate's id
 * @param eventType     the event's name
 * @param payload       the payload as JSON text
 * @param createdAt     when the event was written (its transaction's start)
 * @param attempt       this publish attempt, 1 for the first
 */
public record OutboxMessage(UUID id, long seq, String aggregateType, String aggregateId, String eventType,
                            String payload, Instant createdAt, int attempt) {

    public OutboxMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(payload, "payload");
    }

    /** Structured log fields for this message: {@code event_id=.. event_type=.. aggregate_id=.. attempt=..}. */
    public String logFields() {
        return "event_id=" + id + " event_type=" + eventType + " aggregate_type=" + aggregateType
                + " aggregate_id=" + aggregateId + " attempt=" + attempt;
    }
}
