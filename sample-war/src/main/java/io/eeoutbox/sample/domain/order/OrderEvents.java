package io.eeoutbox.sample.domain.order;

/** The names under which order events travel: the outbox's aggregate type and event types. */
public final class OrderEvents {

    /** The aggregate type of every order event; the aggregate id is the order's id. */
    public static final String AGGREGATE_TYPE = "order";
    /** An order was placed; payload {@link OrderCreated}. */
    public static final String CREATED = "order.created";
    /** An order's status changed; payload {@link OrderStatusChanged}. */
    public static final String STATUS_CHANGED = "order.status-changed";
    /**
     * A delayed event (ee-outbox's {@code notBefore}): an order's payment grace ran out; payload {@link PaymentOverdue}.
     * The consumer applies it only to an order it still sees NEW.
     */
    public static final String PAYMENT_OVERDUE = "order.payment-overdue";

    private OrderEvents() {
    }
}
