package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The relay against a real PostgreSQL and a real Artemis broker; assertions on what the broker delivered. */
class RelayJmsIT {

    private TestDatabase.Db db;
    private EmbeddedBroker broker;
    private JmsPublisher publisher;
    private ScheduledExecutorService executor;
    private OutboxRelay relay;

    @BeforeEach
    void setUp() throws Exception {
        db = TestDatabase.get().createDatabase("relay_jms_it", false);
        broker = new EmbeddedBroker();
        publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
        executor = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
        publisher.close();
        broker.close();
    }

    private static String property(Message m, String name) {
        try {
            return m.getStringProperty(name);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyCommittedEventIsDeliveredAndARolledBackOneNeverIs() throws Exception {
        List<UUID> committed = new ArrayList<>(RelayIt.writeCommitted(db, 450,
                i -> new RelayIt.Event("order", "o" + (i % 37), "order.created")));
        List<UUID> rolledBack = RelayIt.write(db, List.of(new RelayIt.Event("order", "x", "order.created"),
                new RelayIt.Event("order", "y", "order.cancelled")), false);
        committed.addAll(RelayIt.write(db, List.of(new RelayIt.Event("order", "o1", "order.paid")), true));

        relay = OutboxRelay.builder().config(RelayIt.config("jms").set(RelaySettings.BATCH_SIZE, 100).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(30), "every committed event marked", () -> RelayIt.pending(db) == 0);

        List<Message> delivered = broker.receive(1000, 500);
        List<String> ids = delivered.stream().map(m -> property(m, MessageHeaders.EVENT_ID)).toList();
        assertThat(ids).hasSize(committed.size()).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(committed.stream().map(UUID::toString).toList());
        assertThat(ids).doesNotContainAnyElementsOf(rolledBack.stream().map(UUID::toString).toList());

        Message paid = delivered.stream().filter(m -> "order.paid".equals(property(m, MessageHeaders.EVENT_TYPE)))
                .findFirst().orElseThrow();
        assertThat(((TextMessage) paid).getText()).isEqualTo("{\"n\": 0}");
        assertThat(paid.getJMSType()).isEqualTo("order.paid");
        assertThat(paid.getJMSDeliveryMode()).isEqualTo(jakarta.jms.DeliveryMode.PERSISTENT);
        assertThat(paid.getStringProperty(MessageHeaders.AGGREGATE_TYPE)).isEqualTo("order");
        assertThat(paid.getStringProperty(MessageHeaders.AGGREGATE_ID)).isEqualTo("o1");
        assertThat(paid.getStringProperty("JMSXGroupID")).isEqualTo("o1");
        assertThat(paid.getStringProperty(MessageHeaders.ARTEMIS_DUPLICATE_ID))
                .as("sent in a batch: no duplicate id, Artemis would refuse the whole batch for one repeat").isNull();
        assertThat(java.time.Instant.parse(paid.getStringProperty(MessageHeaders.CREATED_AT))).isNotNull();
        assertThat(paid.getIntProperty(MessageHeaders.ATTEMPT)).isEqualTo(1);
        // per aggregate, the broker holds the events in write order (one relay, unordered mode, no failures)
        List<String> o1 = delivered.stream().filter(m -> "o1".equals(property(m, MessageHeaders.AGGREGATE_ID)))
                .map(m -> property(m, MessageHeaders.EVENT_ID)).toList();
        assertThat(o1).last().isEqualTo(committed.get(committed.size() - 1).toString());
    }

    /**
     * The real JMS publisher behind a gate that rejects one event type (as a publisher rejects an
     * event it cannot map). Artemis itself cannot be used to refuse inside a transaction: a message a
     * broker plugin refuses in a transacted session is dropped and the commit still succeeds.
     */
    private static final class RejectingPublisher implements io.eeoutbox.spi.Publisher {
        private final JmsPublisher delegate;
        private volatile String rejected;

        RejectingPublisher(JmsPublisher delegate, String rejected) {
            this.delegate = delegate;
            this.rejected = rejected;
        }

        @Override
        public void publish(OutboxMessage message) throws Exception {
            if (message.eventType().equals(rejected)) {
                throw new IllegalArgumentException("no mapping for " + message.eventType());
            }
            delegate.publish(message);
        }

        @Override
        public io.eeoutbox.spi.PublishResult publishAll(List<OutboxMessage> batch) {
            java.util.Map<UUID, Throwable> failures = new java.util.LinkedHashMap<>();
            List<OutboxMessage> sendable = new ArrayList<>();
            for (OutboxMessage m : batch) {
                if (m.eventType().equals(rejected)) {
                    failures.put(m.id(), new IllegalArgumentException("no mapping for " + m.eventType()));
                } else {
                    sendable.add(m);
                }
            }
            failures.putAll(delegate.publishAll(sendable).failures());
            return io.eeoutbox.spi.PublishResult.of(failures);
        }
    }

    @Test
    void aPoisonEventBecomesADeadLetterWhileHealthyEventsFlowAndIsRepublishedOnRequest() throws Exception {
        RejectingPublisher gate = new RejectingPublisher(publisher, "order.poison");
        CountDownLatch dead = new CountDownLatch(1);
        Set<UUID> failedAttempts = java.util.concurrent.ConcurrentHashMap.newKeySet();
        RelayListener listener = new RelayListener() {
            @Override
            public void failed(OutboxMessage message, Throwable cause, java.time.Instant retryAfter) {
                failedAttempts.add(message.id());
            }

            @Override
            public void deadLettered(OutboxMessage message, Throwable cause) {
                dead.countDown();
            }
        };
        relay = OutboxRelay.builder().config(RelayIt.config("poison").set(RelaySettings.MAX_ATTEMPTS, 3).build())
                .dataSource(db.dataSource()).executor(executor).publisher(gate).listener(listener).build();
        relay.start();

        List<RelayIt.Event> mixed = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            mixed.add(new RelayIt.Event("order", "o" + i, i == 7 ? "order.poison" : "order.created"));
        }
        List<UUID> ids = RelayIt.write(db, mixed, true);
        UUID poison = ids.get(7);
        relay.wakeUp();

        assertThat(dead.await(30, TimeUnit.SECONDS)).as("the poison event became a dead letter").isTrue();
        RelayIt.await(Duration.ofSeconds(30), "healthy events marked", () -> RelayIt.pending(db) == 0);
        Set<String> delivered = new HashSet<>();
        broker.receive(100, 500).forEach(m -> delivered.add(property(m, MessageHeaders.EVENT_ID)));
        Set<String> healthy = new HashSet<>();
        ids.stream().filter(id -> !id.equals(poison)).forEach(id -> healthy.add(id.toString()));
        assertThat(delivered).isEqualTo(healthy);
        assertThat(failedAttempts).containsExactly(poison);
        assertThat(db.queryLong("SELECT attempts FROM outbox_dead_letters WHERE id = '" + poison + "'")).isEqualTo(3);
        assertThat(new RelayOperations(relay).stats().dead()).isEqualTo(1);

        // The operator fixes the cause and retries the dead letter.
        gate.rejected = null;
        assertThat(new RelayOperations(relay).retryDeadLetter(poison)).isTrue();
        RelayIt.await(Duration.ofSeconds(30), "the retried dead letter marked", () -> RelayIt.pending(db) == 0
                && db.queryLong("SELECT count(*) FROM outbox_dead_letters") == 0);
        List<Message> again = broker.receive(10, 500);
        assertThat(again).extracting(m -> property(m, MessageHeaders.EVENT_ID)).containsExactly(poison.toString());
        assertThat(again.get(0).getIntProperty(MessageHeaders.ATTEMPT)).isEqualTo(1);
    }

    @Test
    void retryingDeadLettersByEventTypeRepublishesOnlyThose() throws Exception {
        RejectingPublisher gate = new RejectingPublisher(publisher, "order.poison");
        relay = OutboxRelay.builder().config(RelayIt.config("retry-filter").set(RelaySettings.MAX_ATTEMPTS, 1).build())
                .dataSource(db.dataSource()).executor(executor).publisher(gate).build();
        relay.start();
        RelayIt.write(db, List.of(new RelayIt.Event("order", "a", "order.poison"),
                new RelayIt.Event("order", "b", "order.poison")), true);
        relay.wakeUp();
        RelayIt.await(Duration.ofSeconds(30), "two dead letters", () -> db.queryLong("SELECT count(*) FROM outbox_dead_letters") == 2);
        gate.rejected = null;
        assertThat(new RelayOperations(relay).retryDeadLetters(new DeadLetterFilter("order.other", null, null, null, null, null))).isZero();
        assertThat(new RelayOperations(relay).retryDeadLetters(new DeadLetterFilter("order.poison", "order", null, null, null, null))).isEqualTo(2);
        RelayIt.await(Duration.ofSeconds(30), "both republished", () -> RelayIt.pending(db) == 0
                && db.queryLong("SELECT count(*) FROM outbox_dead_letters") == 0);
        assertThat(broker.receive(10, 500)).hasSize(2);
    }
}
