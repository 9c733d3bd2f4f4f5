package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real outage of a real broker: while the embedded Artemis broker is stopped, the relay keeps
 * failing to publish, and yet, with a retry budget of only two attempts, no event becomes a dead
 * letter; when the broker is back the backlog drains by itself.
 */
class BrokerOutageIT {

    private TestDatabase.Db db;
    private EmbeddedBroker broker;
    private JmsPublisher publisher;
    private ScheduledExecutorService executor;
    private OutboxRelay relay;

    @BeforeEach
    void setUp() throws Exception {
        db = TestDatabase.get().createDatabase("broker_outage_it", false);
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

    @Test
    void anOutageCreatesNoDeadLettersAndTheBacklogDrainsWhenTheBrokerIsBack() throws Exception {
        AtomicInteger unavailable = new AtomicInteger();
        RelayListener listener = new RelayListener() {
            @Override
            public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
                if (cause instanceof BrokerUnavailableException) {
                    unavailable.incrementAndGet();
                }
            }
        };
        relay = OutboxRelay.builder()
                .config(RelayIt.config("outage").set(RelaySettings.BATCH_SIZE, 50).set(RelaySettings.MAX_ATTEMPTS, 2)
                        .set(RelaySettings.BACKOFF_INITIAL, Duration.ofMillis(50)).set(RelaySettings.BACKOFF_MAX, Duration.ofMillis(400))
                        .set(RelaySettings.POLL_INTERVAL, Duration.ofMillis(100)).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).listener(listener).build();

        broker.stop();
        List<UUID> written = RelayIt.writeCommitted(db, 120, i -> new RelayIt.Event("order", "o" + (i % 7), "order.created"));
        relay.start();

        // The first batch is tried again and again, far past max-attempts (2) had the outage counted.
        RelayIt.await(Duration.ofSeconds(60), "the first batch failed at least 3 times", () -> unavailable.get() >= 3 * 50);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE attempts > 0")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL")).isEqualTo(120);
        // Only that batch: while the broker is down the relay does not claim (and defer) the rest of the backlog.
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE last_error LIKE '%cannot be reached%'"))
                .isEqualTo(50);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE last_error IS NULL")).isEqualTo(70);

        broker.restart();
        RelayIt.await(Duration.ofSeconds(60), "the backlog drained", () -> RelayIt.pending(db) == 0);
        List<String> ids = broker.receive(1000, 500).stream().map(BrokerOutageIT::eventId).toList();
        assertThat(ids).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(written.stream().map(UUID::toString).toList());
    }

    private static String eventId(Message m) {
        try {
            return m.getStringProperty(MessageHeaders.EVENT_ID);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
