package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shipped JMS publisher routing each event by {@code outbox.relay.jms.destination-pattern} (docs/jms.md), in the
 * server: a WAR whose relay has the README's pattern {@code java:app/jms/{aggregate_type}-events} and declares two
 * queues, {@code order-events} and {@code payment-events}, and none for {@code invoice} events. Run in the server on
 * WildFly and on Open Liberty by the {@code wildfly} and {@code liberty} profiles.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class JmsRoutingIT {

    private static final Logger LOG = Logger.getLogger(JmsRoutingIT.class.getName());
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Deployment
    static WebArchive deployment() {
        return OpsDeployment.withShippedPublisher("jms-routing.war", "jms-routing-it");
    }

    /**
     * Written in one transaction, the undeclared destination's event first, so that the relay claims it with the
     * others: the order and payment events land each on their aggregate's queue, read by a JMS consumer; the invoice
     * event fails on its own, counts its two attempts and becomes a dead letter that names the missing destination.
     */
    @Test
    void eachEventLandsOnItsAggregatesQueueAndOneRoutedToNothingBecomesADeadLetter() throws Exception {
        InitialContext jndi = new InitialContext();
        DataSource db = (DataSource) jndi.lookup("java:app/jdbc/OutboxRelay");
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("java:comp/DefaultJMSConnectionFactory");
        Queue orders = (Queue) jndi.lookup("java:app/jms/order-events");
        Queue payments = (Queue) jndi.lookup("java:app/jms/payment-events");

        String run = UUID.randomUUID().toString();
        UUID invoice;
        Set<String> orderIds = new HashSet<>();
        Set<String> paymentIds = new HashSet<>();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            invoice = insert(c, "invoice", run, "invoice.sent");
            orderIds.add(insert(c, "order", run, "order.created").toString());
            paymentIds.add(insert(c, "payment", run, "payment.captured").toString());
            orderIds.add(insert(c, "order", run, "order.shipped").toString());
            paymentIds.add(insert(c, "payment", run, "payment.refunded").toString());
            c.commit();
        }

        Set<String> onOrders = receive(factory, orders, run, orderIds);
        Set<String> onPayments = receive(factory, payments, run, paymentIds);
        assertEquals(orderIds, onOrders, "this run's messages on the order-events queue");
        assertEquals(paymentIds, onPayments, "this run's messages on the payment-events queue");

        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String[] row = deadLetter(db, invoice);
        while (row == null && System.nanoTime() < deadline) {
            Thread.sleep(200);
            row = deadLetter(db, invoice);
        }
        assertTrue(row != null, "the invoice event becomes a dead letter within " + PATIENCE);
        assertEquals("2", row[0], "attempts counted for a destination bound to nothing (outbox.relay.max-attempts=2)");
        assertTrue(row[1].contains("java:app/jms/invoice-events"), "last_error names the missing destination: " + row[1]);
        LOG.info("routed: " + onOrders.size() + " to order-events, " + onPayments.size() + " to payment-events; the"
                + " invoice event a dead letter after " + row[0] + " attempts: " + row[1]);
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM outbox_events WHERE id = ?")) {
            ps.setObject(1, invoice); // the suite's other tests count dead letters
            ps.executeUpdate();
        }
    }

    private static UUID insert(Connection c, String aggregateType, String run, String eventType) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO outbox_events (aggregate_type, aggregate_id,"
                + " event_type, payload) VALUES (?, ?, ?, '{\"test\":true}'::jsonb) RETURNING id")) {
            ps.setString(1, aggregateType);
            ps.setString(2, run);
            ps.setString(3, eventType);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getObject(1, UUID.class);
            }
        }
    }

    /** The ids of this run's messages on {@code queue}, read until {@code expected} all came or the patience ran out. */
    private static Set<String> receive(ConnectionFactory factory, Queue queue, String run, Set<String> expected)
            throws Exception {
        Set<String> seen = new HashSet<>();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        try (JMSContext context = factory.createContext(); JMSConsumer consumer = context.createConsumer(queue)) {
            while (!seen.containsAll(expected) && System.nanoTime() < deadline) {
                Message m = consumer.receive(1_000);
                if (m != null && run.equals(m.getStringProperty(MessageHeaders.AGGREGATE_ID))) {
                    seen.add(m.getStringProperty(MessageHeaders.EVENT_ID));
                }
            }
            // anything else of this run that reached this queue would be routed wrongly: take what is left
            for (Message m = consumer.receive(500); m != null; m = consumer.receive(500)) {
                if (run.equals(m.getStringProperty(MessageHeaders.AGGREGATE_ID))) {
                    seen.add(m.getStringProperty(MessageHeaders.EVENT_ID));
                }
            }
        }
        return seen;
    }

    /** {attempts, last_error} once the event is a dead letter, else null. */
    private static String[] deadLetter(DataSource db, UUID id) throws Exception {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT attempts, last_error FROM outbox_events WHERE id = ? AND dead_at IS NOT NULL")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new String[] {String.valueOf(rs.getInt(1)), rs.getString(2)} : null;
            }
        }
    }
}
