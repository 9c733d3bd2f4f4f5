package io.eeoutbox.sample.application.order;

import io.eeoutbox.OutboxService;
import io.eeoutbox.sample.domain.order.Order;
import io.eeoutbox.sample.domain.order.OrderEvents;
import io.eeoutbox.sample.domain.order.OrderStatus;
import io.eeoutbox.sample.domain.order.OrderStatusChanged;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;

/**
 * The order use cases. Each public method runs in one container-managed transaction (REQUIRED):
 * the order row and its outbox event commit together or not at all. Publishing is the relay's job,
 * after the commit.
 */
@Stateless
public class OrderService {

    @PersistenceContext(unitName = "sample")
    private EntityManager em;

    @Inject
    private OutboxService outbox;

    /**
     * Places an order and records {@value OrderEvents#CREATED}.
     *
     * @throws io.eeoutbox.sample.domain.order.InvalidOrderException when the input breaks a rule (nothing is written)
     */
    public Order create(String customerId, BigDecimal total) {
        Order order = Order.place(UUID.randomUUID(), customerId, total, now());
        em.persist(order);
        outbox.record(OrderEvents.AGGREGATE_TYPE, order.getId().toString(), OrderEvents.CREATED, order.created());
        return order;
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
