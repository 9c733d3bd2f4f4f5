package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Schema V8 with real relays: producers notify only while a relay waits for it, and no event is
 * missed when a relay goes idle while a producer is between its insert and its commit.
 */
class NotifyWaitersIT {

    /** Longer than any test: only a wake-up or the relay's own looks can find an event. */
    private static final Duration POLL = Duration.ofHours(1);

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final Set<UUID> published = ConcurrentHashMap.newKeySet();
    private final AtomicInteger looks = new AtomicInteger();
    private TestDatabase.Db db;
    private OutboxRelay relay;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("relay_waiters_it", true);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
    }

    private OutboxRelay startRelay(String name) throws InterruptedException {
        relay = OutboxRelay.builder()
                .config(RelayIt.config(name).set(RelaySettings.NOTIFY_ENABLED, true).set(RelaySettings.POLL_INTERVAL, POLL).set(RelaySettings.BUSY_POLL_INTERVAL, Duration.ofMillis(10))
                        .build())
                .dataSource(db.dataSource()).executor(executor).publisher(new RecordingPublisher())
                .listener(new RelayListener() {
                    @Override
                    public void published(OutboxMessage message) {
                        published.add(message.id());
                    }

                    @Override
                    public void loopRan(Instant at) {
                        looks.incrementAndGet();
                    }
                }).build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(10), "the relay listens", relay::isListening);
        return relay;
    }

    private long waiters() {
        return db.queryLong("SELECT count(*) FROM outbox_relay_waiters");
    }

    @Test
    void producersNotifyOnlyWhileARelayIsRegistered() throws Exception {
        try (Connection listen = db.connect()) {
            try (Statement s = listen.createStatement()) {
                s.execute("LISTEN outbox_event");
            }
            PGConnection pg = listen.unwrap(PGConnection.class);

            RelayIt.write(db, List.of(new RelayIt.Event("order", "o1", "order.created")), true);
            assertThat(notifications(pg, 500)).as("nobody registered: no notification").isZero();

            db.execute("INSERT INTO outbox_relay_waiters (listener_pid, listener_start, relay_name) VALUES (1, now(), 'test')");
            RelayIt.write(db, List.of(new RelayIt.Event("order", "o2", "order.created")), true);
            assertThat(notifications(pg, 5000)).as("a relay registered: notified").isEqualTo(1);

            db.execute("DELETE FROM outbox_relay_waiters");
            pg.getNotifications(); // drop any late one, so that the next step counts its own only
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                insert(c, "o3");
                c.commit();
            }
            assertThat(notifications(pg, 5000)).as("a REPEATABLE READ producer always notifies").isEqualTo(1);
        }
    }

    /**
     * The trigger runs with its owner's rights (SECURITY DEFINER) and with the search_path of the migration (V8): a
     * producer whose search_path puts another schema first, with a waiters table of its own and a function named like
     * one the trigger calls, must neither miss the real registration nor get its function run. A version of the
     * function without its own search_path and with unqualified names fails this test
     * (docs/results/benchmark/notify-trigger-quiet-2026-12-04.md).
     */
    @Test
    void aProducersSearchPathNeitherHidesTheRegistrationNorRunsItsOwnFunctions() throws Exception {
        db.execute("CREATE SCHEMA shadow");
        db.execute("CREATE TABLE shadow.outbox_relay_waiters (listener_pid int)");
        db.execute("CREATE TABLE shadow.calls (who text)");
        db.execute("CREATE FUNCTION shadow.current_setting(text) RETURNS text LANGUAGE sql"
                + " AS $$ INSERT INTO shadow.calls VALUES (current_user) RETURNING 'read committed'::text $$");
        db.execute("GRANT USAGE ON SCHEMA shadow TO PUBLIC");
        db.execute("INSERT INTO outbox_relay_waiters (listener_pid, listener_start, relay_name) VALUES (1, now(), 'test')");
        try (Connection listen = db.connect()) {
            try (Statement s = listen.createStatement()) {
                s.execute("LISTEN outbox_event");
            }
            PGConnection pg = listen.unwrap(PGConnection.class);
            try (Connection c = db.connect()) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET search_path = shadow, pg_catalog, public");
                }
                c.setAutoCommit(false);
                insert(c, "o-shadowed");
                c.commit();
            }
            assertThat(notifications(pg, 5000)).as("the real waiters table was read: notified").isEqualTo(1);
        }
        assertThat(db.queryLong("SELECT count(*) FROM shadow.calls")).as("the producer's own current_setting ran").isZero();
    }

    @Test
    void anEventOfAProducerThatMissedTheRegistrationIsPublishedAtOnceAfterItsCommit() throws Exception {
        try (Connection producer = db.connect()) {
            producer.setAutoCommit(false);
            // Inserted while no relay is registered: this producer's trigger decides not to notify.
            UUID early = insert(producer, "early");

            startRelay("waiters-race");
            // The relay finds nothing committed, registers, and cannot quiesce while the producer is open.
            RelayIt.await(Duration.ofSeconds(10), "the relay registers", () -> waiters() == 1);
            // It keeps looking (a relay that trusted notifications now would stop after one look).
            int looked = looks.get();
            RelayIt.await(Duration.ofSeconds(5), "the relay keeps looking while the producer is open",
                    () -> looks.get() >= looked + 3);

            producer.commit();
            // No notification comes for it and the fallback poll is an hour away: only the retried
            // quiesce and the look after it can find the event.
            RelayIt.await(Duration.ofSeconds(5), "the early event is published", () -> published.contains(early));
        }
        // Once it could quiesce it stops looking and relies on notifications: no look is pending.
        RelayIt.await(Duration.ofSeconds(5), "the relay stops looking and waits for notifications",
                relay::waitingForNotifications);
        // Idle again, it stays registered (NotifyWakeupIT shows a notification waking such a relay).
        RelayIt.await(Duration.ofSeconds(5), "the idle relay is registered", () -> waiters() == 1);
    }

    @Test
    void aRelayThatKeepsFindingEventsWithdrawsItsRegistrationAndRenewsItWhenIdle() throws Exception {
        startRelay("waiters-busy");
        RelayIt.await(Duration.ofSeconds(10), "the relay registers", () -> waiters() == 1);

        AtomicBoolean producing = new AtomicBoolean(true);
        Set<UUID> written = ConcurrentHashMap.newKeySet();
        // One connection committing event after event: faster than the relay's 10 ms looks.
        Thread producer = new Thread(() -> {
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                while (producing.get()) {
                    written.add(insert(c, "busy"));
                    c.commit();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        producer.start();
        try {
            RelayIt.await(Duration.ofSeconds(10), "the busy relay withdraws its registration", () -> waiters() == 0);
        } finally {
            producing.set(false);
            producer.join();
        }
        RelayIt.await(Duration.ofSeconds(10), "all events are published", () -> published.containsAll(written));
        RelayIt.await(Duration.ofSeconds(10), "the idle relay registers again", () -> waiters() == 1);

        relay.stop(Duration.ofSeconds(10));
        assertThat(waiters()).as("a stopped relay withdraws its registration").isZero();
    }

    @Test
    void registrationsOfConnectionsThatAreGoneAreDeletedWhenARelayStarts() throws Exception {
        // A backend pid that cannot be alive: pids are positive and far below this.
        db.execute("INSERT INTO outbox_relay_waiters (listener_pid, listener_start, relay_name)"
                + " VALUES (2000000000, now(), 'crashed')");
        // A live backend's pid with another start time: the pid was reused, the registration is stale.
        db.execute("INSERT INTO outbox_relay_waiters (listener_pid, listener_start, relay_name)"
                + " SELECT pid, backend_start - interval '1 hour', 'reused' FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                + " AND backend_start IS NOT NULL LIMIT 1");
        startRelay("waiters-stale");
        RelayIt.await(Duration.ofSeconds(10), "the stale registration is gone",
                () -> db.queryLong("SELECT count(*) FROM outbox_relay_waiters WHERE relay_name IN ('crashed', 'reused')") == 0);
        // Its own registration names its live LISTEN connection and stays.
        RelayIt.await(Duration.ofSeconds(10), "the relay registers", () -> db.queryLong(
                "SELECT count(*) FROM outbox_relay_waiters w JOIN pg_stat_activity a"
                        + " ON a.pid = w.listener_pid AND a.backend_start = w.listener_start WHERE w.relay_name = 'waiters-stale'") == 1);
    }

    private static UUID insert(Connection c, String aggregateId) throws SQLException {
        UUID id = UUID.randomUUID();
        new OutboxEventJdbc(c).insertOutboxEvent(new InsertOutboxEventParams(id, "order", aggregateId, "order.created", "{}", null));
        return id;
    }

    /** Notifications received within {@code millis}. */
    private static int notifications(PGConnection pg, int millis) throws SQLException {
        long end = System.nanoTime() + millis * 1_000_000L;
        int n = 0;
        while (System.nanoTime() < end && n == 0) {
            PGNotification[] got = pg.getNotifications(100);
            n += got == null ? 0 : got.length;
        }
        return n;
    }
}
