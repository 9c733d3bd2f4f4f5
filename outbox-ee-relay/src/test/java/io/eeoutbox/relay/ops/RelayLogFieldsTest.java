package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the relay writes to java.util.logging about a failing event: each failed attempt once, with
 * the cause, the dead letter once at WARNING, each line with {@code event_id=.. event_type=..
 * aggregate_id=.. attempt=..}, and never the payload.
 */
class RelayLogFieldsTest {

    private static final String SECRET = "4111-1111-1111-1111";
    private static final String PAYLOAD = "{\"card\":\"" + SECRET + "\",\"password\":\"hunter2\"}";

    private final Logger relayLogger = Logger.getLogger("io.eeoutbox.relay");
    private final List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level previousLevel;
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private OutboxRelay relay;

    @BeforeEach
    void capture() {
        previousLevel = relayLogger.getLevel();
        relayLogger.setLevel(Level.ALL); // FINE lines too: none of them may carry the payload either
        relayLogger.addHandler(capture);
    }

    @AfterEach
    void release() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(5));
        }
        executor.shutdownNow();
        relayLogger.removeHandler(capture);
        relayLogger.setLevel(previousLevel);
    }

    @Test
    void failedAttemptsAndTheDeadLetterAreLoggedWithTheEventsFieldsAndWithoutItsPayload() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
        TinyStore store = new TinyStore();
        UUID id = store.insert("order", "order-42", "order.paid", PAYLOAD, clock.instant());
        runUntilAllDead("logs", store, clock, 1, 3, "AMQ219016: Connection failure detected");

        List<String> warnings = messages(Level.WARNING);
        String fields = "event_id=" + id + " event_type=order.paid aggregate_type=order aggregate_id=order-42";
        assertThat(warnings).filteredOn(m -> m.startsWith("publish failed"))
                .as("one line per failed attempt before the last, with the cause")
                .hasSize(2)
                .allSatisfy(m -> assertThat(m).contains(fields).contains("AMQ219016: Connection failure detected"))
                .anySatisfy(m -> assertThat(m).contains("attempt=1"))
                .anySatisfy(m -> assertThat(m).contains("attempt=2"));
        assertThat(warnings).filteredOn(m -> m.startsWith("dead letter"))
                .as("the dead letter, once, at WARNING")
                .singleElement()
                .satisfies(m -> assertThat(m).contains(fields + " attempt=3").contains("AMQ219016"));

        List<String> all = new ArrayList<>(messages(Level.ALL));
        synchronized (records) {
            for (LogRecord r : records) {
                if (r.getThrown() != null) {
                    all.add(String.valueOf(r.getThrown()));
                }
            }
        }
        assertThat(all).isNotEmpty().noneMatch(m -> m.contains(SECRET) || m.contains("hunter2") || m.contains(PAYLOAD));
    }

    @Test
    void eventsOfOneBatchThatFailTheSameWayShareOneWarningLineAndKeepTheirOwnAtFine() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
        TinyStore store = new TinyStore();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(store.insert("order", "order-" + i, "order.paid", PAYLOAD, clock.instant()));
        }
        runUntilAllDead("shared", store, clock, ids.size(), 2, "not authorised to send to topic orders");

        List<String> warnings = messages(Level.WARNING);
        assertThat(warnings).filteredOn(m -> m.startsWith("publish failed"))
                .as("the first attempt of the 20 events, claimed as one batch: one line")
                .singleElement()
                .satisfies(m -> assertThat(m).contains("publish failed for 20 events of one batch")
                        .contains("relay=shared").contains("not authorised to send to topic orders")
                        .contains("event_id=" + ids.get(0)).contains("attempt=1"));
        assertThat(warnings).filteredOn(m -> m.startsWith("dead letter"))
                .as("their dead letters: one line")
                .singleElement()
                .satisfies(m -> assertThat(m).contains("dead letter: 20 events of one batch").contains("(2)")
                        .contains("not authorised to send to topic orders"));
        List<String> fine = messages(Level.ALL).stream().filter(m -> m.startsWith("publish failure of")).toList();
        for (UUID id : ids) {
            assertThat(fine).as("each event's own lines at FINE, one per attempt: " + id)
                    .filteredOn(m -> m.contains("event_id=" + id)).hasSize(2);
        }
        assertThat(messages(Level.ALL)).noneMatch(m -> m.contains(SECRET));
    }

    /**
     * Runs a relay (batches of 100, no backoff) against a broker that refuses every message with {@code error},
     * until the {@code events} events are dead letters after {@code maxAttempts} attempts each.
     */
    private void runUntilAllDead(String name, TinyStore store, MutableClock clock, int events, int maxAttempts,
                                 String error) throws InterruptedException {
        Publisher broker = message -> {
            throw new IllegalStateException(error);
        };
        CountDownLatch dead = new CountDownLatch(events);
        relay = OutboxRelay.builder()
                .config(RelayConfig.builder().set(RelaySettings.NAME, name).set(RelaySettings.NOTIFY_ENABLED, false)
                        .set(RelaySettings.POLL_INTERVAL, Duration.ofMillis(20)).set(RelaySettings.BATCH_SIZE, 100)
                        .set(RelaySettings.MAX_ATTEMPTS, maxAttempts).build())
                .store(store).executor(executor).clock(clock).publisher(broker)
                .backoff(failedAttempts -> Duration.ZERO)
                .listener(new RelayListener() {
                    @Override
                    public void deadLettered(OutboxMessage message, Throwable cause) {
                        dead.countDown();
                    }
                })
                .build();
        relay.start();
        assertThat(dead.await(10, TimeUnit.SECONDS)).as("dead letters within 10 s").isTrue();
        relay.stop(Duration.ofSeconds(5));
    }

    private List<String> messages(Level atLeast) {
        List<String> out = new ArrayList<>();
        synchronized (records) {
            for (LogRecord r : records) {
                if (r.getLevel().intValue() >= atLeast.intValue() && r.getMessage() != null) {
                    out.add(r.getMessage());
                }
            }
        }
        return out;
    }
}
