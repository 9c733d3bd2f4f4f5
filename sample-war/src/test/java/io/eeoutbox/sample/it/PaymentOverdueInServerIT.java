package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.application.order.OrderService;
import io.eeoutbox.sample.application.projection.OrderProjectionService;
import io.eeoutbox.sample.application.projection.OrderProjectionView;
import io.eeoutbox.sample.domain.order.Order;
import io.eeoutbox.sample.domain.order.OrderEvents;
import io.eeoutbox.sample.domain.order.OrderStatus;
import io.eeoutbox.sample.domain.projection.OrderProjection;
import io.eeoutbox.sample.infrastructure.persistence.RelayDataSource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample's delayed event (ee-outbox's {@code notBefore}, schema V14): an order placed with a payment grace also
 * records {@value OrderEvents#PAYMENT_OVERDUE}, published once the grace has run out; the consumer marks the order
 * overdue if it still sees it NEW, and ignores the notice for an order paid in time (ordered mode publishes the
 * payment first: docs/decisions/0022-a-delayed-event-joins-its-aggregate-when-due.md). The grace is given per order
 * here (5 s): the sample setting {@value OrderService#PAYMENT_GRACE_KEY} would give every order of the other in-server
 * tests a notice. Run on WildFly and on Open Liberty.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class PaymentOverdueInServerIT {

    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Deployment
    static WebArchive deployment() {
        return Deployments.ordersWithTests();
    }

    @EJB
    private OrderService orders;

    @EJB
    private OrderProjectionService projections;

    @Inject
    private RelayDataSource database;

    @Test
    void aNewOrderIsMarkedOverdueOnceItsGraceHasRunOut() throws Exception {
        Order order = orders.create("overdue-" + UUID.randomUUID(), new BigDecimal("9.90"), GRACE);
        String id = order.getId().toString();
        assertEquals(1, count("SELECT count(*) FROM outbox_scheduled WHERE aggregate_id = ? AND event_type = ?", id,
                OrderEvents.PAYMENT_OVERDUE), "the notice waits, scheduled and not pending");

        OrderProjectionView view = Await.until(PATIENCE, () -> projections.find(order.getId()),
                v -> v.isPresent() && OrderProjection.PAYMENT_OVERDUE.equals(v.get().projection().status()),
                "order " + id + " overdue in the projection").orElseThrow();
        assertEquals(2, view.projection().eventsApplied());
        assertEquals(OrderEvents.PAYMENT_OVERDUE, view.events().get(1).eventType());
        assertEquals(1, count("SELECT count(*) FROM outbox_events WHERE aggregate_id = ? AND event_type = ?"
                + " AND processed_at >= (payload->>'dueAt')::timestamptz", id, OrderEvents.PAYMENT_OVERDUE),
                "published not before the grace ran out (the database's clock)");
    }

    @Test
    void anOrderPaidWithinItsGraceIgnoresTheNotice() throws Exception {
        Order order = orders.create("paid-in-time-" + UUID.randomUUID(), new BigDecimal("19.90"), GRACE);
        String id = order.getId().toString();
        orders.changeStatus(order.getId(), OrderStatus.PAID);

        Await.until(PATIENCE, () -> count("SELECT count(*) FROM processed_events p JOIN outbox_events e ON e.id = p.event_id"
                        + " WHERE p.consumer = ? AND e.aggregate_id = ? AND e.event_type = ?",
                OrderProjectionService.CONSUMER, id, OrderEvents.PAYMENT_OVERDUE), n -> n == 1,
                "the notice of order " + id + " received by the consumer");
        OrderProjectionView view = projections.find(order.getId()).orElseThrow();
        assertEquals("PAID", view.projection().status(), "paid in time: the notice changes nothing");
        assertEquals(2, view.projection().eventsApplied(), view.events().toString());
        assertTrue(view.events().stream().noneMatch(e -> OrderEvents.PAYMENT_OVERDUE.equals(e.eventType())));
    }

    private long count(String sql, Object... parameters) throws SQLException {
        return Sql.count(database::getConnection, sql, parameters);
    }
}
