package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.FakeOutboxStore;
import io.eeoutbox.spi.RelayListener;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's promotion of delayed events (wake.ScheduledPromotion) against the in-memory store, with an hour's poll
 * and no NOTIFY: only the relay's own timer at the next due time can publish them. A paused relay promotes nothing.
 */
class ScheduledPromotionTest {

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final FakeOutboxStore store = new FakeOutboxStore();
    private final Map<UUID, Instant> published = new ConcurrentHashMap<>();
    private OutboxRelay relay;

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(5));
        }
        executor.shutdownNow();
    }

    private OutboxRelay start() {
        RelayConfig config = RelayConfig.builder().set(RelaySettings.NAME, "unit").set(RelaySettings.NOTIFY_ENABLED, false)
                .set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1)).build();
        relay = OutboxRelay.builder().config(config).store(store).executor(executor).publisher(new RecordingPublisher())
                .listener(new RelayListener() {
                    @Override
                    public void published(OutboxMessage message) {
                        published.put(message.id(), Instant.now());
                    }
                }).build();
        relay.start();
        return relay;
    }

    @Test
    void theTimerPublishesEachDelayedEventAtItsTimeAndNotBefore() throws Exception {
        Instant first = Instant.now().plusMillis(300);
        UUID a = store.insertAt("order", "a", "order.reminder", "{}", first);
        UUID b = store.insertAt("order", "b", "order.reminder", "{}", first.plusMillis(400));
        start();
        RelayIt.await(Duration.ofSeconds(5), "both published", () -> published.size() == 2);
        assertThat(published.get(a)).isAfterOrEqualTo(first);
        assertThat(published.get(b)).isAfterOrEqualTo(first.plusMillis(400));
        assertThat(store.stats().scheduled()).isZero();
    }

    @Test
    void aPausedRelayPromotesNothingAndResumingPromotesWhatFellDue() throws Exception {
        start().pause();
        Instant due = Instant.now().plusMillis(200);
        UUID id = store.insertAt("order", "a", "order.reminder", "{}", due);
        relay.wakeUp(); // a commit's wake-up: nothing runs while paused
        RelayIt.await(Duration.ofSeconds(5), "its time has passed", () -> Instant.now().isAfter(due.plusMillis(300)));
        assertThat(store.scheduled).as("still scheduled").hasSize(1);
        relay.resume();
        RelayIt.await(Duration.ofSeconds(5), "published after the resume", () -> published.containsKey(id));
        assertThat(store.scheduled).isEmpty();
    }
}
