package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ordered mode drains a backlog by itself, whatever its layout (issue 29, decision 0014): the relay's fallback poll
 * is an hour here, so a look that waited for it would never come and the test would time out. The stall this
 * reproduces: a claim takes every aggregate's first event; the next events lie below where the following claim
 * starts and become due only when those are completed, which no notification announces; before the fix such an
 * event waited for a claim from the head of the outbox (at most one per rescan interval, 1 s) or for the poll.
 * A publisher of 1 ms a batch has each batch completed by the next claim's statement; one of 20 ms (a broker) on
 * a second connection.
 */
class OrderedBacklogIT {

    private static final Duration NEVER = Duration.ofHours(1);
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** How the backlog's events lie in write order. */
    enum Layout {
        /** 500 aggregates x 10 events, each aggregate's events next to each other. */
        GROUPED(5_000, i -> "A" + i / 10),
        /** The same events, the aggregate changing with every event. */
        INTERLEAVED(5_000, i -> "A" + i % 500),
        /** One hot aggregate with 300 events among 3,000 of 3,000 others. */
        HOT(3_300, i -> i % 11 == 0 ? "hot" : "A" + i);

        final int events;
        final IntFunction<String> aggregate;

        Layout(int events, IntFunction<String> aggregate) {
            this.events = events;
            this.aggregate = aggregate;
        }
    }

    /** When the relay meets the backlog. */
    enum Start {
        /** The relay is paused while the backlog is written, then resumed. */
        AFTER_RESUME,
        /** The backlog is written before the relay starts (a restart after an outage). */
        AT_START
    }

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final RecordingPublisher publisher = new RecordingPublisher();
    private TestDatabase.Db db;
    private OutboxRelay relay;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("relay_ordered_backlog_it", true);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
    }

    /** Every layout, met after a resume and at start, by a fast publisher (1 ms a batch) and a broker's (20 ms). */
    static Stream<Arguments> backlogs() {
        return Stream.of(Layout.values()).flatMap(layout -> Stream.of(Start.values()).flatMap(
                start -> Stream.of(1, 20).map(millis -> Arguments.of(layout, start, millis))));
    }

    @ParameterizedTest(name = "{0}, {1}, {2} ms a batch")
    @MethodSource("backlogs")
    void drainsByItself(Layout layout, Start start, int publishMillis) throws Exception {
        publisher.beforeBatch(batch -> takes(Duration.ofMillis(publishMillis)));
        List<UUID> ids;
        if (start == Start.AFTER_RESUME) {
            relay = relay();
            relay.start();
            RelayIt.await(Duration.ofSeconds(10), "the relay listens", relay::isListening);
            relay.pause();
            ids = write(layout);
            relay.resume();
        } else {
            ids = write(layout);
            relay = relay();
            relay.start();
        }
        drained(layout, ids);
    }

    private OutboxRelay relay() {
        return OutboxRelay.builder()
                .config(RelayIt.config("ordered-backlog").set(RelaySettings.ORDERED, true)
                        .set(RelaySettings.NOTIFY_ENABLED, true).set(RelaySettings.POLL_INTERVAL, NEVER).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).pipelined(true).build();
    }

    private List<UUID> write(Layout layout) {
        return RelayIt.writeCommitted(db, layout.events,
                i -> new RelayIt.Event("account", layout.aggregate.apply(i), "account.changed"));
    }

    private void drained(Layout layout, List<UUID> ids) throws InterruptedException {
        long started = System.nanoTime();
        try {
            RelayIt.await(BOUND, "the backlog drained by itself (the fallback poll is " + NEVER + ")",
                    () -> RelayIt.pending(db) == 0);
        } catch (AssertionError e) {
            throw new AssertionError(RelayIt.pending(db) + " of " + ids.size() + " events still pending: "
                    + e.getMessage(), e);
        }
        System.out.printf("[OrderedBacklogIT] %s: %d events drained in %d ms%n", layout, ids.size(),
                (System.nanoTime() - started) / 1_000_000);
        // Every event once, and each aggregate's in write order.
        List<OutboxMessage> published = new ArrayList<>(publisher.published);
        assertThat(published).extracting(OutboxMessage::id).containsExactlyInAnyOrderElementsOf(ids);
        Map<UUID, Integer> writeOrder = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            writeOrder.put(ids.get(i), i);
        }
        Map<String, Integer> lastOfAggregate = new HashMap<>();
        for (OutboxMessage m : published) {
            int at = writeOrder.get(m.id());
            Integer before = lastOfAggregate.put(m.aggregateId(), at);
            assertThat(before == null || before < at).as("aggregate %s: event %d published after event %d",
                    m.aggregateId(), at, before).isTrue();
        }
    }

    /** A publish call that takes {@code d}, as a broker's does: the time a batch spends at the broker, nothing awaited. */
    private static void takes(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
