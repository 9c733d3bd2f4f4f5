package io.eeoutbox;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A committed outbox event as the relay hands it to a {@link io.eeoutbox.spi.Publisher}.
 *
 * <p>Readers use the flat accessors ({@link #aggregateType()}, {@link #aggregateId()}, {@link #createdAt()},
 * {@link #attempt()}, {@link #trace()}); the components group them in two small records.
 *
 * @param id        the event id: the consumers' deduplication key
 * @param seq       the write order (increasing; ties impossible)
 * @param eventType the event's name
 * @param payload   the payload as JSON text
 * @param aggregate the aggregate the event belongs to ({@link Aggregate#NONE} when null)
 * @param delivery  when it was written, this attempt, and the writer's trace context
 */
public record OutboxMessage(UUID id, long seq, String eventType, String payload, Aggregate aggregate,
                            Delivery delivery) {

    public OutboxMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(delivery, "delivery");
        if (aggregate == null) {
            aggregate = Aggregate.NONE;
        }
    }

    /**
     * The aggregate an event belongs to.
     *
     * @param type the aggregate's kind, or null
     * @param id   the aggregate's id, or null
     */
    public record Aggregate(String type, String id) {
        /** No aggregate. */
        public static final Aggregate NONE = new Aggregate(null, null);
    }

    /**
     * This publish of the event.
     *
     * @param createdAt when the event was written (its transaction's start), or null when unknown
     * @param attempt   this publish attempt, 1 for the first
     * @param trace     the W3C trace context of the writer, or null when none was active
     */
    public record Delivery(Instant createdAt, int attempt, TraceContext trace) {
        /** A delivery without a trace context. */
        public static Delivery of(Instant createdAt, int attempt) {
            return new Delivery(createdAt, attempt, null);
        }
    }

    /** The aggregate's kind, or null. */
    public String aggregateType() {
        return aggregate.type();
    }

    /** The aggregate's id, or null. */
    public String aggregateId() {
        return aggregate.id();
    }

    /** When the event was written (its transaction's start), or null when unknown. */
    public Instant createdAt() {
        return delivery.createdAt();
    }

    /** This publish attempt, 1 for the first. */
    public int attempt() {
        return delivery.attempt();
    }

    /** The writer's W3C trace context, or null when no OpenTelemetry span was active when it was recorded. */
    public TraceContext trace() {
        return delivery.trace();
    }

    /** Structured log fields for this message: {@code event_id=.. event_type=.. aggregate_id=.. attempt=..}. */
    public String logFields() {
        return "event_id=" + id + " event_type=" + eventType + " aggregate_type=" + aggregateType()
                + " aggregate_id=" + aggregateId() + " attempt=" + attempt();
    }
}
