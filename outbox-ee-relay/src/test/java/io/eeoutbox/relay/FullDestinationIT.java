package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.relay.ops.OpsConfig;
import io.eeoutbox.relay.ops.RelayHealth;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A full destination is an outage, not a refusal (issue 29): the sample's queue, bounded with Artemis' FAIL policy,
 * fills up while its consumers are down. Before, every refused send counted an attempt, and after max-attempts the
 * whole backlog was dead letters. Now the rows are deferred without counting, and the backlog drains by itself once
 * the consumers are back. The same with the BLOCK policy, where the broker blocks the sends instead.
 */
class FullDestinationIT {

    private static final int EVENTS = 600;
    private static final int MAX_ATTEMPTS = 3;
    private static final Duration LEASE = Duration.ofSeconds(6);

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private EmbeddedBroker broker;
    private JmsPublisher publisher;
    private OutboxRelay relay;
    private final AtomicInteger deferredBatches = new AtomicInteger();
    private final AtomicLong longestBatchMillis = new AtomicLong();

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

    @Test
    void aQueueFullWhileItsConsumersAreDownMakesNoDeadLettersAndDrainsWhenTheyAreBack() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_full_destination_it", true);
        broker = new EmbeddedBroker(100_000, AddressFullMessagePolicy.FAIL); // some 300 of these messages
        publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
        relay = OutboxRelay.builder()
                .config(RelayIt.config("full-destination").set(RelaySettings.MAX_ATTEMPTS, MAX_ATTEMPTS)
                        .set(RelaySettings.BATCH_SIZE, 50).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).listener(new RelayListener() {
                    @Override
                    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
                        if (claimed > 0 && published == 0 && failed == claimed) {
                            deferredBatches.incrementAndGet();
                        }
                    }
                }).build();
        relay.start();
        List<UUID> ids = RelayIt.writeCommitted(db, EVENTS, i -> new RelayIt.Event("order", "o" + i, "order.created"));

        // The queue takes what fits, then refuses: the relay defers the rest, again and again, without an attempt.
        // Twenty deferrals of full batches: before, each would have counted an attempt for each of its rows.
        RelayIt.await(Duration.ofSeconds(60), "twenty deferrals of a batch for a full destination",
                () -> deferredBatches.get() >= 20);
        assertThat(RelayIt.pending(db)).as("the queue is full and the relay holds the rest").isPositive();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL"))
                .as("dead letters while the destination is full").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND attempts > 0"))
                .as("attempts counted for a full destination").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL"
                + " AND last_error LIKE '%is full%'")).as("the held rows say why").isPositive();

        // The consumers come back: everything is delivered, once each at least, and nothing is left.
        Set<String> delivered = new HashSet<>();
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while ((delivered.size() < EVENTS || RelayIt.pending(db) > 0) && System.nanoTime() < end) {
            for (Message m : broker.receive(1_000, 200)) {
                delivered.add(eventId(m));
            }
        }
        assertThat(delivered).as("every event delivered")
                .containsExactlyInAnyOrderElementsOf(ids.stream().map(UUID::toString).toList());
        assertThat(RelayIt.pending(db)).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL")).isZero();
    }

    /**
     * Issue 29 (b): with Artemis' BLOCK policy the broker's flow control blocks the relay's sends instead of refusing
     * them. Before, a send blocked until the consumers came back, past the claim's lease. Now the send bound (well
     * under the lease) cuts it short: the unsent rows are deferred without counting attempts, the destination is
     * held, no batch outlives its lease, and once the consumers are back every event is delivered exactly once (no
     * lease was lost, so nothing was sent twice).
     */
    @Test
    void aQueueThatBlocksItsProducersHoldsTheDestinationWithinTheLeaseAndDeliversEachEventOnce() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_blocked_destination_it", true);
        broker = new EmbeddedBroker(100_000, AddressFullMessagePolicy.BLOCK); // some 300 of these messages
        Duration sendBound = LEASE.dividedBy(6);
        RelayHealth health = new RelayHealth(java.time.Clock.systemUTC(), OpsConfig.of(java.util.Map.of(
                OpsConfig.HEALTH_LIVENESS_MIN.key(), "PT3S", OpsConfig.HEALTH_LIVENESS_POLL_MULTIPLE.key(), "1")));
        publisher = new JmsPublisher(broker.connectionFactory(), broker.queue(), "outbox.events",
                JmsPublisher.BatchTransaction.sessionTransacted(broker.connectionFactory()), sendBound);
        relay = OutboxRelay.builder()
                .config(RelayIt.config("blocked-destination").set(RelaySettings.MAX_ATTEMPTS, 3)
                        .set(RelaySettings.BATCH_SIZE, 50).set(RelaySettings.LEASE, LEASE)
                        .set(RelaySettings.BACKOFF_INITIAL, Duration.ofMillis(200))
                        .set(RelaySettings.BACKOFF_MAX, Duration.ofSeconds(2)).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).listener(CompositeRelayListener.of(
                        health, new RelayListener() {
                            @Override
                            public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
                                longestBatchMillis.accumulateAndGet(elapsed.toMillis(), Math::max);
                            }
                        })).build();
        relay.start();
        // liveness as the server's probe would see it, every 100 ms: DOWN once the loop is silent for 3 s unless a
        // publish is within its lease (a send blocked past the lease is stuck)
        List<String> livenessDown = java.util.Collections.synchronizedList(new ArrayList<>());
        executor.scheduleAtFixedRate(() -> {
            RelayHealth.Report r = health.liveness(true, false, relay.currentPollInterval(), relay.publishingUntil());
            if (!r.up()) {
                livenessDown.add(r.data().toString());
            }
        }, 0, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
        List<UUID> ids = RelayIt.writeCommitted(db, EVENTS, i -> new RelayIt.Event("order", "o" + i, "order.created"));

        RelayIt.await(Duration.ofSeconds(60), "the destination held for its flow control, three times over",
                () -> relay.heldDestinations().stream().anyMatch(h -> h.refusals() >= 3));
        DestinationHolds.Held held = relay.heldDestinations().get(0);
        assertThat(held.destination()).isEqualTo("outbox.events");
        assertThat(held.error()).contains("flow control");
        assertThat(RelayIt.pending(db)).as("the queue is full and the relay holds the rest").isPositive();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE attempts > 0 OR dead_at IS NOT NULL"))
                .as("attempts counted or dead letters while the destination blocks").isZero();
        assertThat(longestBatchMillis.get()).as("no batch outlives its lease (%s)", LEASE).isLessThan(LEASE.toMillis());
        assertThat(livenessDown).as("liveness while the destination blocks").isEmpty();
        assertThat(relay.isRunning()).isTrue();

        // The consumers come back: every event is delivered, and once only.
        List<String> delivered = new ArrayList<>();
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while ((new HashSet<>(delivered).size() < EVENTS || RelayIt.pending(db) > 0) && System.nanoTime() < end) {
            for (Message m : broker.receive(1_000, 200)) {
                delivered.add(eventId(m));
            }
        }
        for (Message m : broker.receive(1_000, 500)) { // anything sent twice would be here by now
            delivered.add(eventId(m));
        }
        Set<String> distinct = new HashSet<>(delivered);
        assertThat(distinct).as("every event delivered")
                .containsExactlyInAnyOrderElementsOf(ids.stream().map(UUID::toString).toList());
        assertThat(delivered).as("no event delivered twice: no lease was lost").hasSize(EVENTS);
        assertThat(RelayIt.pending(db)).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE attempts > 0 OR dead_at IS NOT NULL")).isZero();
        assertThat(longestBatchMillis.get()).isLessThan(LEASE.toMillis());
        assertThat(relay.heldDestinations()).isEmpty();
    }

    private static String eventId(Message m) {
        try {
            return m.getStringProperty(MessageHeaders.EVENT_ID);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
