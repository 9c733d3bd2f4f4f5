package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Two outboxes in two schemas of one database (schema V15, docs/schema.md "Several outboxes in one database"): each
 * has its own NOTIFY channel and advisory lock keys, so one schema's writes wake only its own relays, one schema's
 * open producers never keep the other's relays from going idle, and the two cleanups never exclude each other. Before
 * V15 all three were database-wide (docs/design/issue-34-outbox-per-schema.md); an outbox without V15 keeps working
 * with the database-wide channel and keys.
 */
class OutboxPerSchemaIT {

    /** Longer than any test: only a notification on the relay's own channel can wake an idle relay. */
    private static final Duration POLL = Duration.ofHours(1);

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);
    private final List<OutboxRelay> relays = new ArrayList<>();
    private TestDatabase.Db db;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createEmptyDatabase("per_schema_it");
        for (String schema : List.of("app_a", "app_b")) {
            db.execute("CREATE SCHEMA " + schema);
            for (String file : TestDatabase.migrations()) {
                db.execute("SET search_path TO " + schema + ";\n" + TestDatabase.readResource("db/ee-outbox/" + file));
            }
        }
    }

    @AfterEach
    void tearDown() {
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executor.shutdownNow();
    }

    @Test
    void eachSchemaHasItsOwnChannelAndKeysAndThePublicSchemaKeepsTheDatabaseWideOnes() throws Exception {
        Instance a = instance(schema("app_a"));
        Instance b = instance(schema("app_b"));
        assertThat(a.channel()).isEqualTo("outbox_event_app_a");
        assertThat(b.channel()).isEqualTo("outbox_event_app_b");
        assertThat(Set.of(a.waitersKey(), a.maintenanceKey(), b.waitersKey(), b.maintenanceKey())).hasSize(4);

        TestDatabase.Db inPublic = TestDatabase.get().createDatabase("per_schema_public_it", true);
        Instance p = instance(inPublic.dataSource());
        assertThat(p).as("an existing install in public changes nothing")
                .isEqualTo(new Instance("outbox_event", 0x65656f7574776169L, OutboxCleaner.LOCK_KEY));
    }

    @Test
    void aWriteWakesTheRelayOfItsSchemaAndNotifiesNoOtherChannel() throws Exception {
        Set<UUID> publishedA = ConcurrentHashMap.newKeySet();
        Set<UUID> publishedB = ConcurrentHashMap.newKeySet();
        OutboxRelay a = idleRelay("relay-a", schema("app_a"), publishedA);
        OutboxRelay b = idleRelay("relay-b", schema("app_b"), publishedB);
        try (Connection listen = db.connect()) {
            try (Statement s = listen.createStatement()) {
                s.execute("LISTEN outbox_event_app_b");
                s.execute("LISTEN outbox_event");
            }
            PGConnection pg = listen.unwrap(PGConnection.class);

            UUID inA = write(schema("app_a"));
            // The poll is an hour away: only a notification on app_a's channel wakes relay-a.
            RelayIt.await(Duration.ofSeconds(10), "relay-a publishes app_a's event", () -> publishedA.contains(inA));
            UUID inB = write(schema("app_b"));
            RelayIt.await(Duration.ofSeconds(10), "relay-b publishes app_b's event", () -> publishedB.contains(inB));

            // Notifications reach a listener in commit order: app_b's arrived, so app_a's would have come before it.
            List<String> channels = new ArrayList<>();
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!channels.contains("outbox_event_app_b") && System.nanoTime() < end) {
                PGNotification[] got = pg.getNotifications(500);
                for (PGNotification n : got == null ? new PGNotification[0] : got) {
                    channels.add(n.getName());
                }
            }
            assertThat(channels).as("app_a's write notified no channel this connection listens on")
                    .containsExactly("outbox_event_app_b");
            assertThat(publishedA).as("relay-a published only its own schema's event").containsExactly(inA);
            assertThat(publishedB).as("relay-b published only its own schema's event").containsExactly(inB);
        }
        assertThat(a.isListening() && b.isListening()).isTrue();
    }

    @Test
    void aRelayGoesIdleWhileAProducerOfTheOtherSchemaIsOpen() throws Exception {
        PGSimpleDataSource appA = schema("app_a");
        try (Connection producer = appA.getConnection()) {
            producer.setAutoCommit(false);
            insert(producer); // holds app_a's waiters lock (shared) until it ends
            Set<UUID> publishedB = ConcurrentHashMap.newKeySet();
            OutboxRelay b = relay("relay-b", schema("app_b"), publishedB);
            // With one database-wide key relay-b's quiesce would fail for as long as app_a's producer stays open.
            RelayIt.await(Duration.ofSeconds(10), "relay-b goes idle while app_a's producer is open",
                    b::waitingForNotifications);
            assertThat(count(schema("app_b"), "SELECT count(*) FROM outbox_relay_waiters")).isEqualTo(1);
            producer.rollback();
        }
    }

    @Test
    void theCleanupsOfTwoSchemasDoNotExcludeEachOther() throws Exception {
        Set<UUID> publishedB = ConcurrentHashMap.newKeySet();
        OutboxRelay b = idleRelay("relay-b", schema("app_b"), publishedB);
        UUID inB = write(schema("app_b"));
        RelayIt.await(Duration.ofSeconds(10), "relay-b publishes", () -> publishedB.contains(inB));
        RelayIt.await(Duration.ofSeconds(10), "the row is marked processed",
                () -> count(schema("app_b"), "SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL") == 1);

        long keyA = instance(schema("app_a")).maintenanceKey();
        long keyB = instance(schema("app_b")).maintenanceKey();
        try (Connection other = db.connect()) {
            other.setAutoCommit(false);
            lock(other, keyB);
            assertThat(b.cleaner().clean(Duration.ZERO).lockedElsewhere())
                    .as("relay-b's cleanup takes app_b's key").isTrue();
            other.rollback();
            lock(other, keyA);
            assertThat(b.cleaner().clean(Duration.ZERO))
                    .as("app_a's cleanup running does not stop app_b's")
                    .isEqualTo(new OutboxCleaner.Result(1, false));
            other.rollback();
        }
    }

    @Test
    void anOutboxWithoutV15KeepsTheDatabaseWideChannel() throws Exception {
        TestDatabase.Db old = TestDatabase.get().createDatabaseWithout("per_schema_v14_it", "V15");
        Set<UUID> published = ConcurrentHashMap.newKeySet();
        idleRelay("relay-v14", old.dataSource(), published);
        UUID id = RelayIt.write(old, List.of(new RelayIt.Event("order", "o1", "order.created")), true).get(0);
        RelayIt.await(Duration.ofSeconds(10), "a notification on outbox_event wakes the relay", () -> published.contains(id));
    }

    private record Instance(String channel, long waitersKey, long maintenanceKey) {
    }

    private static Instance instance(PGSimpleDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT notify_channel, waiters_lock_key, maintenance_lock_key FROM outbox_instance")) {
            assertThat(rs.next()).isTrue();
            return new Instance(rs.getString(1), rs.getLong(2), rs.getLong(3));
        }
    }

    private PGSimpleDataSource schema(String schema) {
        PGSimpleDataSource ds = db.dataSource();
        ds.setCurrentSchema(schema);
        return ds;
    }

    private OutboxRelay relay(String name, PGSimpleDataSource ds, Set<UUID> published) {
        OutboxRelay relay = OutboxRelay.builder()
                .config(RelayIt.config(name).set(RelaySettings.NOTIFY_ENABLED, true).set(RelaySettings.POLL_INTERVAL, POLL)
                        .set(RelaySettings.BUSY_POLL_INTERVAL, Duration.ofMillis(10)).set(RelaySettings.CLEANUP_INTERVAL, POLL)
                        .build())
                .dataSource(ds).executor(executor).publisher(new RecordingPublisher())
                .listener(new RelayListener() {
                    @Override
                    public void published(OutboxMessage message) {
                        published.add(message.id());
                    }
                }).build();
        relays.add(relay);
        relay.start();
        return relay;
    }

    /** A started relay that listens, registered and waiting for a notification. */
    private OutboxRelay idleRelay(String name, PGSimpleDataSource ds, Set<UUID> published) throws InterruptedException {
        OutboxRelay relay = relay(name, ds, published);
        RelayIt.await(Duration.ofSeconds(10), name + " listens", relay::isListening);
        RelayIt.await(Duration.ofSeconds(10), name + " waits for notifications", relay::waitingForNotifications);
        return relay;
    }

    private static UUID write(PGSimpleDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            UUID id = insert(c);
            c.commit();
            return id;
        }
    }

    private static UUID insert(Connection c) throws SQLException {
        UUID id = UUID.randomUUID();
        new OutboxEventJdbc(c).insertOutboxEvent(new InsertOutboxEventParams(id, "order", "o-" + id, "order.created",
                "{}", null));
        return id;
    }

    private static long count(PGSimpleDataSource ds, String sql) {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void lock(Connection c, long key) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + key + ")");
        }
    }
}
