package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Delayed events (schema V14) through a real relay on PostgreSQL: published not before their time and soon after
 * it, with the relay woken by its own timer at the earliest due time, by a notification for a delayed write due
 * sooner, never by a faster poll (the fallback poll here is 30 s). Times are the database's clock: not_before is
 * computed from its clock_timestamp() and the publish time read back as processed_at. In ordered mode a delayed
 * event joins its aggregate when it falls due (docs/decisions/0022-a-delayed-event-joins-its-aggregate-when-due.md).
 * The bound on notBefore is the writer's: JpaOutboxServiceIT.
 */
class DelayedEventsIT {

    private static final Duration POLL = Duration.ofSeconds(30);

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final List<UUID> order = new CopyOnWriteArrayList<>();
    private final Map<UUID, Instant> received = new ConcurrentHashMap<>();
    private final AtomicInteger looks = new AtomicInteger();
    private OutboxRelay relay;

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
    }

    private OutboxRelay start(TestDatabase.Db db, String name, boolean ordered) throws Exception {
        RelayListener listener = new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                received.put(message.id(), Instant.now());
                order.add(message.id());
            }

            @Override
            public void loopRan(Instant at) {
                looks.incrementAndGet();
            }
        };
        relay = OutboxRelay.builder()
                .config(RelayIt.config(name).set(RelaySettings.NOTIFY_ENABLED, true).set(RelaySettings.POLL_INTERVAL, POLL)
                        .set(RelaySettings.ORDERED, ordered).build())
                .dataSource(db.dataSource()).executor(executor).publisher(new RecordingPublisher()).listener(listener)
                .build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(10), "the relay listens", relay::isListening);
        return relay;
    }

    /** The database's clock now. */
    private static Instant dbNow(TestDatabase.Db db) throws SQLException {
        try (Connection c = db.connect();
             PreparedStatement ps = c.prepareStatement("SELECT clock_timestamp()");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getObject(1, OffsetDateTime.class).toInstant();
        }
    }

    /** Writes delayed events (InsertOutboxEventAt) of aggregate order/{@code aggregateId} in one transaction. */
    private static List<UUID> writeAt(TestDatabase.Db db, String aggregateId, List<Instant> notBefore) throws SQLException {
        List<UUID> ids = new ArrayList<>();
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            for (Instant at : notBefore) {
                UUID id = UUID.randomUUID();
                dao.insertOutboxEventAt(new InsertOutboxEventAtParams(id, "order", aggregateId, "order.reminder",
                        "{\"n\":" + ids.size() + "}", null, at));
                ids.add(id);
            }
            c.commit();
        }
        return ids;
    }

    /** processed_at (the database's clock at the completion, after the publish) of each processed row. */
    private static Map<UUID, Instant> processedAt(TestDatabase.Db db) throws SQLException {
        Map<UUID, Instant> out = new HashMap<>();
        try (Connection c = db.connect();
             PreparedStatement ps = c.prepareStatement("SELECT id, processed_at FROM outbox_events WHERE processed_at IS NOT NULL");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getObject(1, UUID.class), rs.getObject(2, OffsetDateTime.class).toInstant());
            }
        }
        return out;
    }

    private static long millis(Duration d) {
        return d.toMillis();
    }

    @Test
    void aThousandDelayedEventsOverAMinuteArePublishedWithinASecondOfTheirTimeNoneEarly() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_delayed_it", true);
        start(db, "delayed", false);
        RelayIt.await(Duration.ofSeconds(10), "the relay waits for notifications", relay::waitingForNotifications);
        Instant first = dbNow(db).plusSeconds(5);
        Map<UUID, Instant> due = new HashMap<>();
        for (int tx = 0; tx < 4; tx++) { // four transactions of 250, the due times interleaved over 60 s
            List<Instant> times = new ArrayList<>();
            for (int i = tx; i < 1000; i += 4) {
                times.add(first.plusMillis(i * 60L));
            }
            List<UUID> ids = writeAt(db, "o" + tx, times);
            for (int i = 0; i < ids.size(); i++) {
                due.put(ids.get(i), times.get(i));
            }
        }
        assertThat(db.queryLong("SELECT count(*) FROM outbox_scheduled")).isEqualTo(1000);
        RelayIt.await(Duration.ofSeconds(90), "all 1000 delayed events published",
                () -> db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL") == 1000);

        Map<UUID, Instant> processed = processedAt(db);
        List<Long> lateness = new ArrayList<>();
        for (Map.Entry<UUID, Instant> e : due.entrySet()) {
            Instant published = received.get(e.getKey());
            assertThat(published).as("published %s", e.getKey()).isNotNull();
            // The database runs on this machine: its clock and the JVM's are the same clock.
            assertThat(published).as("received not before its time").isAfterOrEqualTo(e.getValue());
            Instant done = processed.get(e.getKey());
            assertThat(done).as("processed_at, on the database's clock, not before its time").isAfterOrEqualTo(e.getValue());
            lateness.add(millis(Duration.between(e.getValue(), done)));
        }
        lateness.sort(Long::compare);
        long p50 = lateness.get(499);
        long p99 = lateness.get(989);
        long max = lateness.get(999);
        System.out.println("[DelayedEventsIT] 1000 delayed events over 60 s, lateness (processed_at - not_before, database"
                + " clock): p50 " + p50 + " ms, p99 " + p99 + " ms, max " + max + " ms");
        assertThat(max).as("every event within 1 s of its time").isLessThanOrEqualTo(1000);
    }

    @Test
    void aPastNotBeforeIsPublishedAtOnce() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_delayed_it", true);
        start(db, "delayed-past", false);
        RelayIt.await(Duration.ofSeconds(10), "the relay waits for notifications", relay::waitingForNotifications);
        UUID id = writeAt(db, "p", List.of(dbNow(db).minusSeconds(60))).get(0);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_scheduled")).as("a past time is now").isZero();
        RelayIt.await(Duration.ofSeconds(5), "the event published", () -> received.containsKey(id));
    }

    @Test
    void aNotificationWakesAnIdleRelayForADelayedEventDueSoonerThanTheOneItKnows() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_delayed_it", true);
        start(db, "delayed-sooner", false);
        RelayIt.await(Duration.ofSeconds(10), "the relay waits for notifications", relay::waitingForNotifications);
        int before = looks.get();
        UUID later = writeAt(db, "l", List.of(dbNow(db).plusSeconds(30))).get(0);
        // The relay hears of it, promotes nothing, sets its timer to 30 s and waits again.
        RelayIt.await(Duration.ofSeconds(5), "the notification's look", () -> looks.get() > before);
        RelayIt.await(Duration.ofSeconds(10), "the relay waits again", relay::waitingForNotifications);

        Instant soonAt = dbNow(db).plusSeconds(1);
        UUID soon = writeAt(db, "s", List.of(soonAt)).get(0);
        RelayIt.await(Duration.ofSeconds(5), "the event due in 1 s published and completed", () -> db.queryLong(
                "SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL AND id = '" + soon + "'") == 1);
        Instant done = processedAt(db).get(soon);
        long late = millis(Duration.between(soonAt, done));
        System.out.println("[DelayedEventsIT] woken for an event due sooner: published " + late + " ms after its time");
        assertThat(done).isAfterOrEqualTo(soonAt);
        assertThat(late).as("within about a second of its time, long before the 30 s poll").isLessThan(1500);
        assertThat(received).as("the one due in 30 s waits").doesNotContainKey(later);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_scheduled")).isEqualTo(1);
    }

    /**
     * Ordered mode (decision 0022): e1, a delayed d due in 2 s and e2 of one aggregate; e1 and e2 are published
     * without waiting for d; d is published once due; e3, written after that, comes after d.
     */
    @Test
    void inOrderedModeADelayedEventJoinsItsAggregateWhenItFallsDue() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_delayed_it", true);
        start(db, "delayed-ordered", true);
        UUID e1 = RelayIt.write(db, List.of(new RelayIt.Event("order", "a", "order.created")), true).get(0);
        UUID d = writeAt(db, "a", List.of(dbNow(db).plusSeconds(2))).get(0);
        UUID e2 = RelayIt.write(db, List.of(new RelayIt.Event("order", "a", "order.paid")), true).get(0);
        RelayIt.await(Duration.ofSeconds(5), "e1 and e2 published", () -> received.containsKey(e1) && received.containsKey(e2));
        assertThat(received).as("d waits for its time, holding back nothing").doesNotContainKey(d);
        RelayIt.await(Duration.ofSeconds(10), "d published when due", () -> received.containsKey(d));
        UUID e3 = RelayIt.write(db, List.of(new RelayIt.Event("order", "a", "order.shipped")), true).get(0);
        RelayIt.await(Duration.ofSeconds(5), "e3 published", () -> received.containsKey(e3));
        assertThat(order).containsExactly(e1, e2, d, e3);
    }
}
