package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A NOTIFY from the insert trigger wakes the relay long before its fallback poll would. */
class NotifyWakeupIT {

    private static final Duration POLL = Duration.ofSeconds(30);

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private OutboxRelay relay;

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
    }

    @Test
    void aNotificationWakesTheRelayWellBeforeTheFallbackPoll() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_notify_it", true);
        BlockingQueue<UUID> published = new LinkedBlockingQueue<>();
        RelayListener listener = new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                published.add(message.id());
            }
        };
        // No notify URL: the listener borrows one connection of the data source and keeps it.
        relay = OutboxRelay.builder()
                // Busy poll off: a drain that found events is not followed by another look, so nothing but
                // the notification (or the 30 s poll) can start the drain that publishes the next event.
                .config(RelayIt.config("notified").set(RelaySettings.NOTIFY_ENABLED, true).set(RelaySettings.POLL_INTERVAL, POLL).set(RelaySettings.BUSY_POLL_INTERVAL, Duration.ZERO)
                        .build())
                .dataSource(db.dataSource()).executor(executor).publisher(new RecordingPublisher()).listener(listener)
                .build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(10), "the relay listens", relay::isListening);

        for (int round = 0; round < 3; round++) {
            RelayIt.await(Duration.ofSeconds(10), "the relay waits for notifications", relay::waitingForNotifications);
            long started = System.nanoTime();
            UUID id = RelayIt.write(db, List.of(new RelayIt.Event("order", "o" + round, "order.created")), true).get(0);
            UUID got = published.poll(5, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(got).as("round %d: delivered within 5 s of the commit by the notification (the poll is every %s)", round, POLL)
                    .isEqualTo(id);
            System.out.println("[NotifyWakeupIT] round " + round + ": commit to publish " + millis + " ms");
        }
        assertThat(relay.currentPollInterval()).isEqualTo(POLL);
    }
}
