package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A full destination is an outage, not a refusal (issue 29): the sample's queue, bounded with Artemis' FAIL policy,
 * fills up while its consumers are down. Before, every refused send counted an attempt, and after max-attempts the
 * whole backlog was dead letters. Now the rows are deferred without counting, and the backlog drains by itself once
 * the consumers are back.
 */
class FullDestinationIT {

    private static final int EVENTS = 600;
    private static final int MAX_ATTEMPTS = 3;

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private EmbeddedBroker broker;
    private JmsPublisher publisher;
    private OutboxRelay relay;
    private final AtomicInteger deferredBatches = new AtomicInteger();

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

    private static String eventId(Message m) {
        try {
            return m.getStringProperty(MessageHeaders.EVENT_ID);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
