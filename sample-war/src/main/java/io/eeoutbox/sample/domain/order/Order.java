package io.eeoutbox.sample.domain.order;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * An order: who placed it, its total, its status. Every change returns the event that tells the
 * world about it; the application service records that event in the outbox in the same transaction.
 * {@code revision} counts the changes (1 when placed), and each event carries it.
 */
@Entity(name = "SalesOrder") // "Order" is a reserved word in JPQL
@Table(name = "orders")
public class Order {

    /** Longest customer id (the column's size). */
    public static final int MAX_CUSTOMER_ID_LENGTH = 100;
    /** Largest total: NUMERIC(12,2). */
    public static final BigDecimal MAX_TOTAL = new BigDecimal("9999999999.99");

    @Id
    private UUID id;

    @Column(name = "customer_id", nullable = false, length = MAX_CUSTOMER_ID_LENGTH)
    private String customerId;

    @Column(name = "total", nullable = false, precision = 12, scale = 2)
    private BigDecimal total;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", nullable = false, length = 20)
    private OrderStatus status;

    @Column(name = "revision", nullable = false)
    private int revision;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected Order() {
        // for JPA
    }

    private Order(UUID id, String customerId, BigDecimal total, Instant now) {
        this.id = id;
        this.customerId = customerId;
        this.total = total;
        this.status = OrderStatus.NEW;
        this.revision = 1;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * A new order, status NEW, revision 1.
     *
     * @throws InvalidOrderException naming {@code customerId} or {@code total} when one breaks a rule
     */
    public static Order place(UUID id, String customerId, BigDecimal total, Instant now) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(now, "now");
        return new Order(id, checkCustomerId(customerId), checkTotal(total), now);
    }

    /** The event that announces this order, as placed. */
    public OrderCreated created() {
        return new OrderCreated(id, customerId, total, status.name(), revision, createdAt);
    }

    /**
     * Moves the order to {@code next}.
     *
     * @return the event that announces the change
     * @throws OrderStatusConflictException when the current status does not allow {@code next}
     */
    public OrderStatusChanged changeStatus(OrderStatus next, Instant now) {
        Objects.requireNonNull(next, "next");
        if (!status.next().contains(next)) {
            throw new OrderStatusConflictException("order " + id + " is " + status + " and cannot become " + next
                    + (status.next().isEmpty() ? " (" + status + " is final)" : "; allowed: " + status.next()));
        }
        OrderStatus previous = status;
        status = next;
        revision++;
        updatedAt = now;
        return new OrderStatusChanged(id, previous.name(), next.name(), revision, now);
    }

    static String checkCustomerId(String customerId) {
        if (customerId == null || customerId.isBlank()) {
            throw new InvalidOrderException("customerId", "is required");
        }
        String value = customerId.strip();
        if (value.length() > MAX_CUSTOMER_ID_LENGTH) {
            throw new InvalidOrderException("customerId", "is " + value.length() + " characters long; the limit is "
                    + MAX_CUSTOMER_ID_LENGTH);
        }
        if (value.indexOf('\u0000') >= 0) {
            throw new InvalidOrderException("customerId", "must not contain NUL characters");
        }
        return value;
    }

    static BigDecimal checkTotal(BigDecimal total) {
        if (total == null) {
            throw new InvalidOrderException("total", "is required");
        }
        if (total.signum() < 0) {
            throw new InvalidOrderException("total", "must not be negative, was " + total.toPlainString());
        }
        BigDecimal stripped = total.stripTrailingZeros();
        if (stripped.scale() > 2) {
            throw new InvalidOrderException("total", "has more than 2 decimal places: " + total.toPlainString());
        }
        if (total.compareTo(MAX_TOTAL) > 0) {
            throw new InvalidOrderException("total", "must be at most " + MAX_TOTAL.toPlainString() + ", was "
                    + total.toPlainString());
        }
        return total.setScale(2);
    }

    public UUID getId() {
        return id;
    }

    public String getCustomerId() {
        return customerId;
    }

    public BigDecimal getTotal() {
        return total;
    }

    public OrderStatus getStatus() {
        return status;
    }

    public int getRevision() {
        return revision;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
