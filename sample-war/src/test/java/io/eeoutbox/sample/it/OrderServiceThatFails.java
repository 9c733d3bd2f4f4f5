package io.eeoutbox.sample.it;

import io.eeoutbox.sample.application.order.OrderService;
import io.eeoutbox.sample.domain.order.Order;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;

/** A test EJB: places an order through the real service (same transaction), flushes, then throws. */
@Stateless
public class OrderServiceThatFails {

    @EJB
    private OrderService orders;

    @Inject
    private EntityManager em;

    public void createThenFail(String customerId) {
        Order order = orders.create(customerId, new BigDecimal("3.00"));
        em.flush(); // both rows are in the database now, uncommitted
        throw new DeliberateFailure(order.getId());
    }
}
