package io.eeoutbox.sample.domain.projection;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What the downstream consumer knows about one order, built only from the events it received.
 * The state follows the event with the highest revision seen; {@link #eventsApplied()} counts every
 * event applied, and each applied event is kept as a {@link ProjectedEvent} at the next position.
 */
@Entity
@Table(name = "order_projection")
public class OrderProjection {

    /** The status of an order whose payment grace ran out while it was NEW (this projection's own status). */
    public static final String PAYMENT_OVERDUE = "PAYMENT_OVERDUE";

    @Id
    @Column(name = "order_id")
    private UUID orderId;

    @Column(name = "customer_id", length = 100)
    private String customerId;

    @Column(name = "total", precision = 12, scale = 2)
    private BigDecimal total;

    @Column(name = "status", nullable = false, length = 20)
    private String status;

    @Column(name = "revision", nullable = false)
    private int revision;

    @Column(name = "events_applied", nullable = false)
    private int eventsApplied;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected OrderProjection() {
        // for JPA
    }

    /** A projection that has seen nothing yet (revision 0). */
    public OrderProjection(UUID orderId, String status, Instant now) {
        this.orderId = Objects.requireNonNull(orderId, "orderId");
        this.status = Objects.requireNonNull(status, "status");
        this.updatedAt = now;
    }

    /**
     * Applies {@code order.created}.
     *
     * @return the applied event, to be persisted
     */
    public ProjectedEvent applyCreated(UUID eventId, String eventType, String customerId, BigDecimal total,
                                       String status, int revision, Instant now) {
        this.customerId = customerId;
        this.total = total;
        return apply(eventId, eventType, status, revision, now);
    }

    /**
     * Applies {@code order.status-changed}.
     *
     * @return the applied event, to be persisted
     */
    public ProjectedEvent applyStatusChanged(UUID eventId, String eventType, String to, int revision, Instant now) {
        return apply(eventId, eventType, to, revision, now);
    }

    /**
     * Applies {@code order.payment-overdue}: an order still NEW becomes {@value #PAYMENT_OVERDUE}; any other status
     * means it was paid or cancelled in time, and the event is ignored.
     *
     * @return the applied event, to be persisted, or null when it was ignored
     */
    public ProjectedEvent applyPaymentOverdue(UUID eventId, String eventType, Instant now) {
        if (!"NEW".equals(status)) {
            return null;
        }
        status = PAYMENT_OVERDUE;
        eventsApplied++;
        updatedAt = now;
        return new ProjectedEvent(eventId, orderId, eventsApplied, eventType, revision, status, now);
    }

    private ProjectedEvent apply(UUID eventId, String eventType, String newStatus, int newRevision, Instant now) {
        if (newRevision > revision) {
            status = newStatus;
            revision = newRevision;
        }
        eventsApplied++;
        updatedAt = now;
        return new ProjectedEvent(eventId, orderId, eventsApplied, eventType, newRevision, newStatus, now);
    }

    public UUID orderId() {
        return orderId;
    }

    public String customerId() {
        return customerId;
    }

    public BigDecimal total() {
        return total;
    }

    public String status() {
        return status;
    }

    /** The highest revision applied; 0 before any. */
    public int revision() {
        return revision;
    }

    public int eventsApplied() {
        return eventsApplied;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
