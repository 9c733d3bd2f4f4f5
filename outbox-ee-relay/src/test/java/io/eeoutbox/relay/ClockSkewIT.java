package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import io.eeoutbox.relay.config.RelayConfig;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two relays whose servers' clocks are 30 s ahead and 30 s behind, on one outbox under load (issue 17,
 * item 2): leases and retry times come from PostgreSQL's clock, so neither relay takes rows the other
 * holds, ordered mode keeps write order, and a backoff lasts as long as configured. With the JVM's clock
 * in the statements (as up to schema V8), the relay ahead sees every lease of the relay behind as expired
 * (60 s of skew against a 60 s lease) and publishes its rows again.
 */
class ClockSkewIT {

    private static final Duration SKEW = Duration.ofSeconds(30);

    private TestDatabase.Db db;
    private final List<ScheduledExecutorService> executors = new ArrayList<>();
    private final List<OutboxRelay> relays = new ArrayList<>();
    private final ExecutorService producers = Executors.newSingleThreadExecutor();

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("clock_skew_it", false);
    }

    @AfterEach
    void tearDown() {
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executors.forEach(ScheduledExecutorService::shutdownNow);
        producers.shutdownNow();
    }

    private OutboxRelay relay(RelayConfig config, RecordingPublisher publisher, Duration skew) {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        executors.add(executor);
        OutboxRelay r = OutboxRelay.builder().config(config).dataSource(db.dataSource()).executor(executor)
                .clock(Clock.offset(Clock.systemUTC(), skew)).publisher(publisher).build();
        relays.add(r);
        return r;
    }

    /** A broker that takes about 5 ms per batch, so that a batch stays leased while the other relay claims. */
    private static RecordingPublisher slowBroker() {
        return new RecordingPublisher().beforeBatch(b -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Writes {@code n} events in transactions of 50 on the producer thread, while the relays run. */
    private Future<List<UUID>> produce(int n, int aggregates) {
        return producers.submit(() -> {
            List<UUID> ids = new ArrayList<>();
            for (int from = 0; from < n; from += 50) {
                int start = from;
                List<RelayIt.Event> chunk = new ArrayList<>();
                for (int i = start; i < Math.min(n, start + 50); i++) {
                    chunk.add(new RelayIt.Event("order", "o" + (i % aggregates), "order.e" + i));
                }
                ids.addAll(RelayIt.write(db, chunk, true));
            }
            return ids;
        });
    }

    private static List<UUID> duplicates(List<OutboxMessage> a, List<OutboxMessage> b) {
        Set<UUID> seen = new HashSet<>();
        List<UUID> twice = new ArrayList<>();
        for (List<OutboxMessage> list : List.of(a, b)) {
            synchronized (list) {
                for (OutboxMessage m : list) {
                    if (!seen.add(m.id())) {
                        twice.add(m.id());
                    }
                }
            }
        }
        return twice;
    }

    @Test
    void relaysWithClocksOneMinuteApartNeverPublishTheSameEventTwice() throws Exception {
        RecordingPublisher ahead = slowBroker();
        RecordingPublisher behind = slowBroker();
        RelayConfig config = RelayIt.config("x").set(RelaySettings.BATCH_SIZE, 50).set(RelaySettings.LEASE, Duration.ofSeconds(60)).build();
        relay(config.toBuilder().set(RelaySettings.NAME, "ahead").build(), ahead, SKEW).start();
        relay(config.toBuilder().set(RelaySettings.NAME, "behind").build(), behind, SKEW.negated()).start();

        List<UUID> written = produce(6000, 500).get();
        RelayIt.await(Duration.ofSeconds(90), "all rows published", () -> RelayIt.pending(db) == 0);

        assertThat(duplicates(ahead.published, behind.published)).as("events published twice").isEmpty();
        Set<UUID> all = new HashSet<>(written);
        Set<UUID> published = new HashSet<>();
        ahead.published.forEach(m -> published.add(m.id()));
        behind.published.forEach(m -> published.add(m.id()));
        assertThat(published).isEqualTo(all);
        assertThat(ahead.published).as("the relay ahead took part").isNotEmpty();
        assertThat(behind.published).as("the relay behind took part").isNotEmpty();
    }

    @Test
    void orderedModeKeepsWriteOrderWithClocksOneMinuteApart() throws Exception {
        List<OutboxMessage> accepted = Collections.synchronizedList(new ArrayList<>());
        class Broker extends RecordingPublisher {
            Broker() {
                beforeBatch(b -> {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }

            @Override
            public void publish(OutboxMessage message) {
                super.publish(message);
                accepted.add(message);
            }
        }
        RelayConfig config = RelayIt.config("x").set(RelaySettings.ORDERED, true).set(RelaySettings.BATCH_SIZE, 20).set(RelaySettings.LEASE, Duration.ofSeconds(60)).build();
        Broker a = new Broker();
        Broker b = new Broker();
        relay(config.toBuilder().set(RelaySettings.NAME, "ordered-ahead").build(), a, SKEW).start();
        relay(config.toBuilder().set(RelaySettings.NAME, "ordered-behind").build(), b, SKEW.negated()).start();

        List<UUID> written = produce(2000, 40).get();
        RelayIt.await(Duration.ofSeconds(90), "all rows published", () -> RelayIt.pending(db) == 0);

        assertThat(duplicates(a.published, b.published)).as("events published twice").isEmpty();
        Map<String, List<Long>> seqs = new HashMap<>();
        synchronized (accepted) {
            accepted.forEach(m -> seqs.computeIfAbsent(m.aggregateId(), k -> new ArrayList<>()).add(m.seq()));
        }
        assertThat(accepted).hasSize(written.size());
        seqs.forEach((aggregate, list) -> assertThat(list).as(aggregate).isSorted());
    }

    @Test
    void aBackoffLastsWhatItIsConfiguredToWhicheverRelayRetries() throws Exception {
        Map<UUID, List<Long>> attempts = new ConcurrentHashMap<>();
        Duration backoff = Duration.ofSeconds(2);
        class FailingOnce extends RecordingPublisher {
            @Override
            public void publish(OutboxMessage message) {
                attempts.computeIfAbsent(message.id(), k -> Collections.synchronizedList(new ArrayList<>()))
                        .add(System.nanoTime());
                if (message.attempt() == 1) {
                    throw new IllegalStateException("rejected once");
                }
                super.publish(message);
            }
        }
        // A retry is found by a claim from the head of the outbox, at most one rescan interval after it is due.
        RelayConfig config = RelayIt.config("x").set(RelaySettings.BATCH_SIZE, 5).set(RelaySettings.BACKOFF_INITIAL, backoff).set(RelaySettings.BACKOFF_MAX, backoff)
                .set(RelaySettings.BACKOFF_JITTER, 0.0).set(RelaySettings.POLL_INTERVAL, Duration.ofMillis(50)).set(RelaySettings.CLAIM_RESCAN_INTERVAL, Duration.ofMillis(250)).build();
        FailingOnce a = new FailingOnce();
        FailingOnce b = new FailingOnce();
        relay(config.toBuilder().set(RelaySettings.NAME, "backoff-ahead").build(), a, SKEW).start();
        relay(config.toBuilder().set(RelaySettings.NAME, "backoff-behind").build(), b, SKEW.negated()).start();

        // One event per transaction, a few milliseconds apart: each relay fails some and retries some.
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.addAll(RelayIt.write(db, List.of(new RelayIt.Event("order", "b" + i, "order.e")), true));
        }
        RelayIt.await(Duration.ofSeconds(30), "every event published on its second attempt",
                () -> a.published.size() + b.published.size() == ids.size());

        Map<UUID, Duration> waits = new HashMap<>();
        for (UUID id : ids) {
            List<Long> times = attempts.get(id);
            waits.put(id, Duration.ofNanos(times.get(1) - times.get(0)));
        }
        assertThat(waits.values()).as("the waits between the first and the second attempt")
                .allSatisfy(w -> assertThat(w).isBetween(backoff, backoff.plusSeconds(1)));
    }
}
