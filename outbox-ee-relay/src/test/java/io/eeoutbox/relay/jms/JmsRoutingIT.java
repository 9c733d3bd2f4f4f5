package io.eeoutbox.relay.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.EmbeddedBroker;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.testing.TestDatabase;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.naming.NameNotFoundException;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JMS publisher routing each event by {@code outbox.relay.jms.destination-pattern} on a real Artemis broker with
 * two queues, looked up by name as JNDI would (docs/jms.md): each event on its own queue, a name bound to nothing
 * failing its events alone, a full queue holding only its own events.
 */
class JmsRoutingIT {

    private static final String ORDERS = "java:app/jms/order-events";
    private static final String PAYMENTS = "java:app/jms/payment-events";
    private static final DestinationRule RULE = DestinationRule.pattern("java:app/jms/{aggregate_type}-events");

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();
    private EmbeddedBroker broker;
    private JmsPublisher publisher;
    private OutboxRelay relay;

    @AfterEach
    void tearDown() throws Exception {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
        if (publisher != null) {
            publisher.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** A JNDI stand-in: the two queues under their names, nothing else; counts the lookups of each name. */
    private JmsPublisher routed(Queue orders, Queue payments) {
        Map<String, Destination> bound = Map.of(ORDERS, orders, PAYMENTS, payments);
        return new JmsPublisher(broker.connectionFactory(), RULE, name -> {
            lookups.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            Destination d = bound.get(name);
            if (d == null) {
                throw new NameNotFoundException(name + " -- service jboss.naming.context.java.app." + name);
            }
            return d;
        }, JmsPublisher.BatchTransaction.sessionTransacted(broker.connectionFactory()), Duration.ofSeconds(10));
    }

    private static OutboxMessage event(String aggregateType, String eventType) {
        return new OutboxMessage(UUID.randomUUID(), 1, eventType, "{}", new OutboxMessage.Aggregate(aggregateType, "a1"),
                OutboxMessage.Delivery.of(Instant.parse("2026-01-01T00:00:00Z"), 1));
    }

    private static Set<String> ids(List<Message> messages) {
        return messages.stream().map(m -> {
            try {
                return m.getStringProperty(MessageHeaders.EVENT_ID);
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        }).collect(Collectors.toSet());
    }

    private static Set<String> ids(OutboxMessage... events) {
        return java.util.Arrays.stream(events).map(e -> e.id().toString()).collect(Collectors.toSet());
    }

    @Test
    void eachEventGoesToItsOwnQueueAndAnUnknownDestinationFailsOnlyItsEvents() throws Exception {
        broker = new EmbeddedBroker();
        Queue orders = broker.addQueue("orders", -1, null);
        Queue payments = broker.addQueue("payments", -1, null);
        publisher = routed(orders, payments);
        OutboxMessage created = event("order", "order.created");
        OutboxMessage invoiced = event("invoice", "invoice.sent");
        OutboxMessage captured = event("payment", "payment.captured");
        OutboxMessage shipped = event("order", "order.shipped");
        OutboxMessage escaping = event("../x", "order.created");

        PublishResult result = publisher.publishAll(List.of(created, invoiced, captured, shipped, escaping));

        assertThat(result.failures().keySet()).containsExactlyInAnyOrder(invoiced.id(), escaping.id());
        assertThat(result.failures().get(invoiced.id())).isInstanceOf(InvalidDestinationException.class)
                .hasMessageContaining("no JMS destination for java:app/jms/invoice-events")
                .hasMessageContaining("(outbox.relay.jms.destination-pattern=java:app/jms/{aggregate_type}-events)");
        assertThat(result.failures().get(invoiced.id())).isNotInstanceOf(DestinationUnavailableException.class);
        assertThat(result.failures().get(escaping.id())).isInstanceOf(IllegalArgumentException.class);
        assertThat(ids(broker.receive(orders, 10, 300))).isEqualTo(ids(created, shipped));
        assertThat(ids(broker.receive(payments, 10, 300))).isEqualTo(ids(captured));
        assertThat(publisher.destinationOf(captured)).isEqualTo(PAYMENTS);
        assertThat(publisher.destinationOf(invoiced)).isEqualTo("java:app/jms/invoice-events");
        assertThat(publisher.destinationOf(escaping)).isNull();
        assertThat(publisher.describe()).isEqualTo("jms:destination-pattern=java:app/jms/{aggregate_type}-events");

        // a second batch: the queues found are kept, the missing name is looked up again (it may be bound by now)
        OutboxMessage again = event("invoice", "invoice.sent");
        assertThat(publisher.publishAll(List.of(event("order", "order.paid"), event("payment", "payment.refunded"),
                again, event("invoice", "invoice.paid"))).failures()).hasSize(2).containsKey(again.id());
        assertThat(lookups.get(ORDERS)).hasValue(1);
        assertThat(lookups.get(PAYMENTS)).hasValue(1);
        assertThat(lookups.get("java:app/jms/invoice-events")).as("once per batch").hasValue(2);
    }

    /** A full queue (FAIL policy) defers its own events as its outage; the batch's other queue takes all of its. */
    @Test
    void aFullQueueDefersOnlyItsOwnEventsOfABatch() throws Exception {
        broker = new EmbeddedBroker();
        Queue orders = broker.addQueue("orders", 10_000, AddressFullMessagePolicy.FAIL);
        Queue payments = broker.addQueue("payments", -1, null);
        publisher = routed(orders, payments);
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            batch.add(i % 2 == 0 ? event("order", "order.created") : event("payment", "payment.captured"));
        }

        PublishResult result = publisher.publishAll(batch);

        assertThat(result.failures()).as("orders beyond the queue's room").isNotEmpty();
        assertThat(result.failures().values()).allSatisfy(f -> assertThat(f)
                .isInstanceOfSatisfying(DestinationUnavailableException.class,
                        d -> assertThat(d.destination()).isEqualTo(ORDERS)));
        Set<String> paymentIds = batch.stream().filter(m -> m.aggregateType().equals("payment"))
                .map(m -> m.id().toString()).collect(Collectors.toSet());
        assertThat(ids(broker.receive(payments, 1_000, 300))).isEqualTo(paymentIds);
        assertThat(ids(broker.receive(orders, 1_000, 300))).hasSize(60 - result.failures().size());
    }

    /**
     * A queue whose flow control blocks the sends (BLOCK policy) is cut short by the send bound and deferred as its
     * outage; the batch's other queue still takes all of its events (docs/decisions/0015, "A send blocked by flow
     * control").
     */
    @Test
    void aQueueThatBlocksItsSendsDefersOnlyItsOwnEventsOfABatch() throws Exception {
        broker = new EmbeddedBroker();
        Queue orders = broker.addQueue("orders", 10_000, AddressFullMessagePolicy.BLOCK);
        Queue payments = broker.addQueue("payments", -1, null);
        Map<String, Destination> bound = Map.of(ORDERS, orders, PAYMENTS, payments);
        publisher = new JmsPublisher(broker.connectionFactory(), RULE, bound::get,
                JmsPublisher.BatchTransaction.sessionTransacted(broker.connectionFactory()), Duration.ofSeconds(1));
        PublishResult filling;
        int batches = 0;
        do { // fill the orders queue until its flow control blocks a batch
            List<OutboxMessage> fill = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                fill.add(event("order", "order.created"));
            }
            filling = publisher.publishAll(fill);
        } while (filling.failures().isEmpty() && ++batches < 100);
        assertThat(filling.failures()).as("the orders queue blocks within 100 batches").isNotEmpty();

        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            batch.add(i % 2 == 0 ? event("order", "order.created") : event("payment", "payment.captured"));
        }
        PublishResult result = publisher.publishAll(batch);

        Set<UUID> orderIds = batch.stream().filter(m -> m.aggregateType().equals("order")).map(OutboxMessage::id)
                .collect(Collectors.toSet());
        assertThat(result.failures().keySet()).isEqualTo(orderIds);
        assertThat(result.failures().values()).allSatisfy(f -> assertThat(f)
                .isInstanceOfSatisfying(DestinationUnavailableException.class,
                        d -> assertThat(d.destination()).isEqualTo(ORDERS)));
        assertThat(ids(broker.receive(payments, 1_000, 300))).hasSize(20);
        assertThat(Thread.currentThread().isInterrupted()).as("the watchdog's interrupt is cleared").isFalse();
    }

    /**
     * Decision 0015 per destination: the orders queue is full (FAIL policy, its consumers away), the payments queue is
     * not. The relay holds the orders queue alone, the payments flow, the event routed to nothing becomes a dead letter
     * after its attempts, and the orders drain once their consumer is back. No order event counts an attempt.
     */
    @Test
    void aFullQueueHoldsOnlyItsOwnEventsInTheRelay() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_jms_routing_it", true);
        broker = new EmbeddedBroker();
        Queue orders = broker.addQueue("orders", 10_000, AddressFullMessagePolicy.FAIL); // some 30 of these messages
        Queue payments = broker.addQueue("payments", -1, null);
        publisher = routed(orders, payments);
        relay = OutboxRelay.builder()
                .config(RelayIt.config("jms-routing").set(RelaySettings.MAX_ATTEMPTS, 2)
                        .set(RelaySettings.BATCH_SIZE, 50).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).build();
        relay.start();
        List<RelayIt.Event> events = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            events.add(i % 3 == 2 ? new RelayIt.Event("payment", "p" + i, "payment.captured")
                    : new RelayIt.Event("order", "o" + i, "order.created"));
        }
        events.add(100, new RelayIt.Event("invoice", "i1", "invoice.sent"));
        List<UUID> ids = RelayIt.write(db, events, true);
        UUID invoice = ids.get(100);

        RelayIt.await(Duration.ofSeconds(60), "every payment published and the invoice a dead letter", () ->
                db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_type = 'payment' AND processed_at IS NULL") == 0
                        && db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL") == 1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE id = '" + invoice + "' AND dead_at IS NOT NULL"
                + " AND attempts = 2 AND last_error LIKE '%java:app/jms/invoice-events%'")).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_type = 'order' AND processed_at IS NULL"))
                .as("orders held while their queue is full").isPositive();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_type = 'order' AND attempts > 0"))
                .as("attempts counted for the full queue").isZero();
        assertThat(relay.heldDestinations()).extracting(DestinationHolds.Held::destination).containsExactly(ORDERS);
        assertThat(ids(broker.receive(payments, 1_000, 300))).hasSize(100);

        // the orders' consumer is back: every order is delivered, and nothing is left but the dead letter
        Set<String> delivered = new HashSet<>();
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while ((delivered.size() < 200 || RelayIt.pending(db) > 0) && System.nanoTime() < end) {
            delivered.addAll(ids(broker.receive(orders, 1_000, 200)));
        }
        assertThat(delivered).hasSize(200);
        assertThat(RelayIt.pending(db)).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL")).isEqualTo(1);
    }
}
