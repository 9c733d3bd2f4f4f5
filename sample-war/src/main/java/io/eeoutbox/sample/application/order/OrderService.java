package io.eeoutbox.sample.application.order;

import io.eeoutbox.OutboxService;
import io.eeoutbox.sample.domain.order.Order;
import io.eeoutbox.sample.domain.order.OrderEvents;
import io.eeoutbox.sample.domain.order.OrderStatus;
import io.eeoutbox.sample.domain.order.OrderStatusChanged;
import io.eeoutbox.sample.domain.order.PaymentOverdue;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The order use cases. Each public method runs in one container-managed transaction (REQUIRED):
 * the order row and its outbox event commit together or not at all. Publishing is the relay's job,
 * after the commit.
 *
 * <p>Payment grace ({@value #PAYMENT_GRACE_KEY}, an ISO-8601 duration, none by default): when set, placing an order
 * also records {@value OrderEvents#PAYMENT_OVERDUE}, delayed by the outbox until the grace has run out (ee-outbox's
 * {@code notBefore}); the consumer marks the order overdue if it is still NEW then.
 */
@Stateless
public class OrderService {

    @PersistenceContext(unitName = "sample")
    private EntityManager em;

    /** The sample setting (MicroProfile Config) of the payment grace; unset or {@code PT0S}: no overdue event. */
    public static final String PAYMENT_GRACE_KEY = "sample.order.payment-grace";

    @Inject
    private OutboxService outbox;

    /**
     * Places an order and records {@value OrderEvents#CREATED}.
     *
     * @throws io.eeoutbox.sample.domain.order.InvalidOrderException when the input breaks a rule (nothing is written)
     */
    public Order create(String customerId, BigDecimal total) {
        return create(customerId, total, paymentGrace());
    }

    /**
     * Places an order with this payment grace (null or zero: none) and records {@value OrderEvents#CREATED} and, with a
     * grace, {@value OrderEvents#PAYMENT_OVERDUE} not published before the order's creation plus the grace.
     */
    public Order create(String customerId, BigDecimal total, Duration paymentGrace) {
        Order order = Order.place(UUID.randomUUID(), customerId, total, now());
        em.persist(order);
        String id = order.getId().toString();
        outbox.record(OrderEvents.AGGREGATE_TYPE, id, OrderEvents.CREATED, order.created());
        if (paymentGrace != null && !paymentGrace.isZero() && !paymentGrace.isNegative()) {
            Instant dueAt = order.created().createdAt().plus(paymentGrace);
            outbox.record(OrderEvents.AGGREGATE_TYPE, id, OrderEvents.PAYMENT_OVERDUE,
                    new PaymentOverdue(order.getId(), order.created().revision(), dueAt), dueAt);
        }
        return order;
    }

    /** {@value #PAYMENT_GRACE_KEY}, or null when unset. */
    private static Duration paymentGrace() {
        return ConfigProvider.getConfig().getOptionalValue(PAYMENT_GRACE_KEY, String.class).filter(s -> !s.isBlank())
                .map(Duration::parse).orElse(null);
    }

    /**
     * Changes an order's status and records {@value OrderEvents#STATUS_CHANGED}. The order row is
     * locked first, so concurrent changes of one order commit one after the other and their events
     * are written in revision order.
     *
     * @throws OrderNotFoundException when there is no such order
     * @throws io.eeoutbox.sample.domain.order.OrderStatusConflictException when the status does not allow it
     */
    public Order changeStatus(UUID id, OrderStatus next) {
        Order order = em.find(Order.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (order == null) {
            throw new OrderNotFoundException(id.toString());
        }
        OrderStatusChanged changed = order.changeStatus(next, now());
        outbox.record(OrderEvents.AGGREGATE_TYPE, id.toString(), OrderEvents.STATUS_CHANGED, changed);
        return order;
    }

    public Optional<Order> find(UUID id) {
        return Optional.ofNullable(em.find(Order.class, id));
    }

    /** Now, at the database's precision (microseconds), so that an answer shows what a later read shows. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
