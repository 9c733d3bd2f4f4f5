package io.eeoutbox.sample.application.projection;

import java.util.Objects;
import java.util.UUID;

/**
 * An order event as the consumer received it: the ids and type from the message, the JSON payload, and the trace:
 * the {@code traceparent} the message carried (null when the event was written outside a trace) and the trace id of
 * the consumer's own span (null without OpenTelemetry).
 */
public record ReceivedEvent(UUID eventId, String eventType, String aggregateId, String payload, String traceparent,
                            String consumerTraceId) {

    public ReceivedEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(eventType, "eventType");
    }

    /** This event, as applied inside the consumer span with trace id {@code traceId}. */
    public ReceivedEvent inTrace(String traceId) {
        return new ReceivedEvent(eventId, eventType, aggregateId, payload, traceparent, traceId);
    }
}
