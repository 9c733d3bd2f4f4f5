package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.ee.OutboxRelayBootstrap;
import io.eeoutbox.sample.application.order.OrderService;
import io.eeoutbox.sample.application.projection.OrderProjectionService;
import io.eeoutbox.sample.application.projection.OrderProjectionView;
import io.eeoutbox.sample.application.projection.RedeliveryCounter;
import io.eeoutbox.sample.domain.order.Order;
import io.eeoutbox.sample.domain.order.OrderEvents;
import io.eeoutbox.sample.domain.order.OrderStatus;
import io.eeoutbox.sample.domain.projection.ProjectedEvent;
import io.eeoutbox.sample.infrastructure.messaging.OrderEventsQueue;
import io.eeoutbox.sample.infrastructure.persistence.RelayDataSource;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample in the server, as a user would check it: rows in the database (read outside any
 * transaction, so only committed rows count), messages on the queue, the consumer's projection. Run
 * on WildFly by profile {@code wildfly} and on Open Liberty by profile {@code liberty}.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class OrdersInServerIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Deployment
    static WebArchive deployment() {
        return Deployments.ordersWithTests();
    }

    @EJB
    private OrderService orders;

    @EJB
    private OrderServiceThatFails failingOrders;

    @EJB
    private OrderProjectionService projections;

    @Inject
    private RedeliveryCounter redeliveries;

    @Inject
    private RelayDataSource database;

    @Inject
    private OutboxRelayBootstrap relays;

    @Resource(lookup = "java:comp/DefaultJMSConnectionFactory")
    private ConnectionFactory connectionFactory;

    @Resource(lookup = OrderEventsQueue.JNDI_NAME)
    private Queue orderEvents;

    /**
     * The relay this application starts: the shipped JMS publisher on the consumer's queue, ordered
     * mode (read from META-INF/microprofile-config.properties), LISTEN connected to the insert
     * trigger's channel.
     */
    @Test
    void theRelayRunsOrderedWithNotifyAndTheShippedJmsPublisher() throws Exception {
        OutboxRelay relay = relays.relay().orElseThrow(() -> new AssertionError("no relay is running"));
        assertTrue(relay.isRunning());
        assertEquals("jms:" + OrderEventsQueue.JNDI_NAME, relay.publisher().describe());
        assertTrue(relay.config().ordered(), relay.config().toString());
        assertTrue(relay.config().notifyEnabled(), relay.config().toString());
        Await.until(PATIENCE, relay::isListening, listening -> listening, "the relay's LISTEN connection");
        assertEquals(1, count("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'outbox_events'::regclass"
                + " AND tgname = 'outbox_insert_notify' AND tgenabled = 'O'"),
                "the NOTIFY trigger is installed and enabled");
    }

    @Test
    void anOrderAndItsEventAreCommittedTogether() throws Exception {
        String customer = "together-" + UUID.randomUUID();
        Order order = orders.create(customer, new BigDecimal("12.50"));

        assertEquals(1, count("SELECT count(*) FROM orders WHERE id = ? AND customer_id = ? AND total = 12.50 AND status = 'NEW'",
                order.getId(), customer));
        List<OutboxRow> events = outboxRows(order.getId());
        assertEquals(1, events.size(), events.toString());
        OutboxRow created = events.get(0);
        assertEquals(OrderEvents.AGGREGATE_TYPE, created.aggregateType());
        assertEquals(OrderEvents.CREATED, created.eventType());
        JsonObject payload = Json.createReader(new StringReader(created.payload())).readObject();
        assertEquals(order.getId().toString(), payload.getString("orderId"), created.payload());
        assertEquals(customer, payload.getString("customerId"), created.payload());
        assertEquals(0, new BigDecimal("12.50").compareTo(payload.getJsonNumber("total").bigDecimalValue()), created.payload());
        assertEquals("NEW", payload.getString("status"), created.payload());
        assertEquals(1, payload.getInt("revision"), created.payload());
    }

    @Test
    void anEjbCallThatThrowsAfterOutboxServiceLeavesNeither() throws Exception {
        String customer = "rollback-" + UUID.randomUUID();
        DeliberateFailure failure = assertThrows(DeliberateFailure.class, () -> failingOrders.createThenFail(customer));

        assertNotNull(failure.orderId());
        assertEquals(0, count("SELECT count(*) FROM orders WHERE customer_id = ?", customer), "the order row was rolled back");
        assertEquals(0, outboxRows(failure.orderId()).size(), "the outbox row was rolled back");
    }

    @Test
    void theRelayDeliversOrderCreatedToTheConsumer() throws Exception {
        Order order = orders.create("relayed-" + UUID.randomUUID(), new BigDecimal("7.00"));

        OrderProjectionView view = awaitProjection(order.getId(), 1);
        assertEquals(order.getCustomerId(), view.projection().customerId());
        assertEquals(0, new BigDecimal("7.00").compareTo(view.projection().total()));
        assertEquals("NEW", view.projection().status());
        ProjectedEvent applied = view.events().get(0);
        assertEquals(OrderEvents.CREATED, applied.eventType());
        assertEquals(outboxRows(order.getId()).get(0).id(), applied.eventId(), "the consumer applied the outbox event's id");
        assertEquals(1, count("SELECT count(*) FROM processed_events WHERE consumer = ? AND event_id = ?",
                OrderProjectionService.CONSUMER, applied.eventId()), "the inbox recorded the event");
        assertEquals(1, count("SELECT count(*) FROM outbox_events WHERE id = ? AND processed_at IS NOT NULL",
                applied.eventId()), "the relay marked the event published");
    }

    /**
     * The same event, sent to the queue a second time: the consumer receives it (the copy has no
     * {@code _AMQ_DUPL_ID}, so WildFly's Artemis does not drop it) and the inbox absorbs it.
     */
    @Test
    void anEventDeliveredTwiceIsAppliedOnce() throws Exception {
        Order order = orders.create("twice-" + UUID.randomUUID(), new BigDecimal("1.25"));
        awaitProjection(order.getId(), 1);
        OutboxRow event = outboxRows(order.getId()).get(0);
        long ignoredBefore = redeliveries.ignored(order.getId().toString());

        try (JMSContext jms = connectionFactory.createContext()) {
            TextMessage copy = jms.createTextMessage(event.payload());
            copy.setJMSType(event.eventType());
            copy.setStringProperty(MessageHeaders.EVENT_ID, event.id().toString());
            copy.setStringProperty(MessageHeaders.EVENT_TYPE, event.eventType());
            copy.setStringProperty(MessageHeaders.AGGREGATE_TYPE, event.aggregateType());
            copy.setStringProperty(MessageHeaders.AGGREGATE_ID, event.aggregateId());
            copy.setStringProperty(MessageHeaders.GROUP_ID, event.aggregateId());
            jms.createProducer().send(orderEvents, copy);
        }

        Await.until(PATIENCE, () -> redeliveries.ignored(order.getId().toString()), n -> n == ignoredBefore + 1,
                "the consumer to receive the copy of " + event.id());
        OrderProjectionView view = projections.find(order.getId()).orElseThrow();
        assertEquals(1, view.projection().eventsApplied(), "the copy changed nothing");
        assertEquals(List.of(event.id()), view.events().stream().map(ProjectedEvent::eventId).toList());
        assertEquals(1, count("SELECT count(*) FROM processed_events WHERE event_id = ?", event.id()));
    }

    /**
     * Several orders, each changed three times in quick succession, interleaved: the consumer applies
     * every order's events in the order they were written (revision 1, 2, 3, 4).
     */
    @Test
    void statusChangesOfOneOrderArriveInOrder() throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(orders.create("ordered-" + i + "-" + UUID.randomUUID(), new BigDecimal(i + ".99")).getId());
        }
        List<OrderStatus> steps = List.of(OrderStatus.PAID, OrderStatus.SHIPPED, OrderStatus.DELIVERED);
        for (OrderStatus step : steps) {
            for (UUID id : ids) {
                orders.changeStatus(id, step);
            }
        }

        for (UUID id : ids) {
            OrderProjectionView view = awaitProjection(id, 4);
            assertEquals(List.of(1, 2, 3, 4), view.events().stream().map(ProjectedEvent::revision).toList(),
                    "order " + id + ": revisions in the order applied");
            assertEquals(List.of("NEW", "PAID", "SHIPPED", "DELIVERED"),
                    view.events().stream().map(ProjectedEvent::status).toList(), "order " + id);
            assertEquals(List.of(OrderEvents.CREATED, OrderEvents.STATUS_CHANGED, OrderEvents.STATUS_CHANGED,
                    OrderEvents.STATUS_CHANGED), view.events().stream().map(ProjectedEvent::eventType).toList());
            assertEquals("DELIVERED", view.projection().status());
            assertEquals(4, view.projection().revision());
        }
    }

    // ------------------------------------------------------------------ helpers

    private OrderProjectionView awaitProjection(UUID orderId, int events) throws Exception {
        Optional<OrderProjectionView> view = Await.until(PATIENCE, () -> projections.find(orderId),
                v -> v.isPresent() && v.get().projection().eventsApplied() >= events,
                events + " event(s) of order " + orderId + " in the projection");
        assertEquals(events, view.get().projection().eventsApplied(), "no more than " + events + " applied");
        return view.get();
    }

    /** An outbox row as stored, committed. */
    private record OutboxRow(UUID id, String aggregateType, String aggregateId, String eventType, String payload) {
    }

    private List<OutboxRow> outboxRows(UUID orderId) throws SQLException {
        List<OutboxRow> rows = new ArrayList<>();
        try (Connection c = database.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id, aggregate_type, aggregate_id, event_type, payload::text"
                     + " FROM outbox_events WHERE aggregate_id = ? ORDER BY seq")) {
            ps.setString(1, orderId.toString());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new OutboxRow(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5)));
                }
            }
        }
        return rows;
    }

    private long count(String sql, Object... parameters) throws SQLException {
        return Sql.count(database::getConnection, sql, parameters);
    }
}
