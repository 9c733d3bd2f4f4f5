package io.eeoutbox.sample.domain.projection;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** One event the consumer applied to an order's projection, at {@code position} 1, 2, ... in arrival order. */
@Entity
@Table(name = "order_projection_events")
public class ProjectedEvent {

    @Id
    @Column(name = "event_id")
    private UUID eventId;

    @Column(name = "order_id", nullable = false)
    private UUID orderId;

    @Column(name = "position", nullable = false)
    private int position;

    @Column(name = "event_type", nullable = false, length = 100)
    private String eventType;

    @Column(name = "revision", nullable = false)
    private int revision;

    @Column(name = "status", nullable = false, length = 20)
    private String status;

    @Column(name = "applied_at", nullable = false)
    private Instant appliedAt;

    @Column(name = "received_traceparent", length = 256)
    private String receivedTraceparent;

    @Column(name = "consumer_trace_id", length = 32)
    private String consumerTraceId;

    protected ProjectedEvent() {
        // for JPA
    }

    ProjectedEvent(UUID eventId, UUID orderId, int position, String eventType, int revision, String status,
                   Instant appliedAt) {
        this.eventId = eventId;
        this.orderId = orderId;
        this.position = position;
        this.eventType = eventType;
        this.revision = revision;
        this.status = status;
        this.appliedAt = appliedAt;
    }

    /**
     * Records the trace the event came with: the message's {@code traceparent} (null when it was written outside a
     * trace) and the trace id of the consumer's span that applied it (null without OpenTelemetry).
     */
    public void traced(String receivedTraceparent, String consumerTraceId) {
        this.receivedTraceparent = receivedTraceparent;
        this.consumerTraceId = consumerTraceId;
    }

    public String receivedTraceparent() {
        return receivedTraceparent;
    }

    public String consumerTraceId() {
        return consumerTraceId;
    }

    public UUID eventId() {
        return eventId;
    }

    public UUID orderId() {
        return orderId;
    }

    public int position() {
        return position;
    }

    public String eventType() {
        return eventType;
    }

    public int revision() {
        return revision;
    }

    public String status() {
        return status;
    }

    public Instant appliedAt() {
        return appliedAt;
    }
}
