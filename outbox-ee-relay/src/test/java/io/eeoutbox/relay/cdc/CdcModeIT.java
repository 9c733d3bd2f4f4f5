package io.eeoutbox.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.CdcMode;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.relay.config.RelayMode;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.GaugeRefresher;
import io.eeoutbox.relay.ops.JmxAdapter;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.FleetStore;
import io.eeoutbox.relay.store.OperatorQueries;
import io.eeoutbox.testing.TestDatabase;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.PGReplicationStream;

/**
 * Cdc mode (docs/cdc.md, "Cleaning the table: cdc mode"; decision 0023): a relay with {@code outbox.relay.mode=cdc} and
 * no publisher, against PostgreSQL with {@code wal_level=logical} and the slot and publication of
 * docs/cdc/ee-outbox-cdc-setup.sql. It deletes rows older than the retention and keeps the younger ones, never marks a
 * row processed or dead, promotes a delayed event when it falls due (with {@code ordered=true} left on and no ordered
 * index, which cdc mode ignores), and its gauges show the slot's lag: growing while
 * nothing reads the slot, falling back once a reader confirms. They count the dead letters with a statement that reads
 * none of the rows kept for the retention (schema V16's index; docs/cdc.md, "What replaces pending"). The reader stands in for the connector: a logical
 * replication stream over the slot with pgoutput and the publication, as Debezium opens it, logged in as the setup's
 * {@code outbox_cdc} role (CdcRecordsIT runs Debezium itself on the same files; starting it and a broker here would
 * add seconds and prove nothing more about the relay).
 */
class CdcModeIT {

    private static final String SLOT = "ee_outbox_cdc";

    @Test
    void aRelayInCdcModeKeepsTheTableCleanPromotesDelayedEventsAndShowsTheSlotsLag() throws Exception {
        long started = System.nanoTime();
        try (LogicalPostgres pg = LogicalPostgres.start("cdc_mode_it")) {
            TestDatabase.Db db = pg.server().createDatabase("cdc_mode_it", false);
            CdcFiles.setupStatements().forEach(db::execute);
            // an outbox left by an ordered relay without its index (sql/options): cdc mode claims nothing, so needs none
            db.execute("DROP INDEX idx_outbox_aggregate_pending");
            long ready = System.nanoTime();
            try {
                run(db);
            } finally {
                dropSlotAndRole(db);
                System.out.printf("[CdcModeIT] PostgreSQL and setup %.1f s, the test %.1f s%n", (ready - started) / 1e9,
                        (System.nanoTime() - ready) / 1e9);
            }
        }
    }

    private static void run(TestDatabase.Db db) throws Exception {
        List<UUID> old = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            old.add(insertCreatedAgo(db, Duration.ofHours(2), false));
        }
        UUID oldDeadLetter = insertCreatedAgo(db, Duration.ofHours(2), true);
        UUID youngDeadLetter = insertCreatedAgo(db, Duration.ofMinutes(5), true);
        List<UUID> young = write(db, 3);
        // rows kept for the retention, enough that the planner reads a table as it would a large one
        db.execute("INSERT INTO outbox_events (aggregate_type, aggregate_id, event_type, payload)"
                + " SELECT 'order', 'o-kept-' || g, 'order.created', '{}'::jsonb FROM generate_series(1, 5000) g");
        UUID delayed = UUID.randomUUID();
        try (Connection c = db.connect()) { // due 1.5 s from now on the database's clock
            Instant notBefore = Instant.ofEpochMilli(db.queryLong("SELECT (extract(epoch FROM now()) * 1000)::bigint + 1500"));
            new OutboxEventJdbc(c).insertOutboxEventAt(new InsertOutboxEventAtParams(delayed, "order", "o-delayed",
                    "order.reminder", "{\"n\": 1}", null, notBefore));
        }

        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        StatementLog log = new StatementLog();
        OutboxRelay relay = OutboxRelay.builder()
                .config(RelayIt.config("cdc-mode").set(RelaySettings.MODE, RelayMode.CDC).set(RelaySettings.ORDERED, true)
                        .set(RelaySettings.CLEANUP_INTERVAL, Duration.ofMillis(200)).build()) // cdc.retention: PT1H
                .dataSource(log.wrap(db.dataSource())).executor(executor) // no publisher: cdc mode needs none
                .fleet(new FleetStore.Identity("it-server", "it-app", "cdc-mode", UUID.randomUUID()))
                .build();
        relay.start();
        try {
            assertThat(relay.publisher()).isSameAs(CdcMode.NO_PUBLISHER);
            RelayIt.await(Duration.ofSeconds(10), "the rows older than the retention are deleted", () -> ids(db, old) == 0);
            RelayIt.await(Duration.ofSeconds(10), "the delayed event fell due and was promoted",
                    () -> ids(db, List.of(delayed)) == 1);
            RelayIt.await(Duration.ofSeconds(10), "the relay beats in the fleet", () -> db.queryLong(
                    "SELECT count(*) FROM outbox_relays WHERE relay_name = 'cdc-mode'") == 1);
            assertThat(ids(db, young)).as("rows younger than the retention are kept").isEqualTo(3);
            assertThat(ids(db, List.of(oldDeadLetter))).as("an old dead letter is kept for the operator").isEqualTo(1);
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL"
                    + " OR claim_token IS NOT NULL OR attempts > 0 OR (dead_at IS NOT NULL AND id NOT IN ('"
                    + oldDeadLetter + "', '" + youngDeadLetter + "'))"))
                    .as("rows claimed, marked or dead-lettered by a relay in cdc mode").isZero();
            slotGauges(db, relay, young, delayed, log);
        } finally {
            relay.stop(Duration.ofSeconds(5));
            executor.shutdownNow();
        }
    }

    /** The gauges read the slot: its lag grows while nothing reads it and falls back once a reader confirms. */
    private static void slotGauges(TestDatabase.Db db, OutboxRelay relay, List<UUID> young, UUID delayed,
                                   StatementLog log) throws Exception {
        RelayOperations ops = new RelayOperations(relay, new OperatorQueries(db.dataSource()), List::of, Map.of(),
                Clock.systemUTC(), null);
        GaugeRefresher refresher = new GaugeRefresher("cdc-mode", ops::stats, Clock.systemUTC(), Duration.ofSeconds(1), null);
        deadLettersWithoutTheKeptRows(db, ops, refresher, log);
        GaugeRefresher.Gauges before = refresher.refreshNow();
        assertThat(before.cdcSlotPresent()).isEqualTo(1);
        assertThat(before.cdcSlotActive()).as("no reader yet").isZero();
        assertThat(before.pending()).as("pending does not apply in cdc mode").isNaN();
        assertThat(before.oldestPendingAgeSeconds()).isNaN();
        List<UUID> more = write(db, 20);
        // the lag is from the WAL write position, which an embedded server (synchronous_commit off) moves within
        // wal_writer_delay of a commit: refresh until it shows
        List<GaugeRefresher.Gauges> refreshes = new ArrayList<>();
        RelayIt.await(Duration.ofSeconds(10), "lag while nothing reads the slot", () -> {
            refreshes.add(refresher.refreshNow());
            return refreshes.get(refreshes.size() - 1).cdcSlotLagBytes() > before.cdcSlotLagBytes();
        });
        GaugeRefresher.Gauges grown = refreshes.get(refreshes.size() - 1);
        assertThat(grown.cdcSlotRetainedWalBytes()).isGreaterThanOrEqualTo(grown.cdcSlotLagBytes());
        JmxAdapter mbean = new JmxAdapter(ops, Clock.systemUTC(), refresher::latest);
        assertThat(mbean.getMode()).isEqualTo("cdc");
        assertThat(mbean.getPending()).isEqualTo(-1);
        assertThat(mbean.getRefreshedPending()).isEqualTo(-1);
        assertThat(mbean.getCdcSlot()).containsEntry("present", "true").containsEntry("active", "false")
                .containsEntry("lagBytes", Long.toString((long) grown.cdcSlotLagBytes()));

        Set<String> wanted = ConcurrentHashMap.newKeySet();
        List.of(young, more, List.of(delayed)).forEach(l -> l.forEach(id -> wanted.add(id.toString())));
        try (Connection c = replicationConnection(db);
             PGReplicationStream stream = c.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
                     .withSlotName(SLOT).withSlotOption("proto_version", 1).withSlotOption("publication_names", SLOT)
                     .start()) {
            RelayIt.await(Duration.ofSeconds(10), "the reader got the inserts, the promoted delayed event's too", () -> {
                readInserts(stream, wanted);
                return wanted.isEmpty();
            });
            RelayIt.await(Duration.ofSeconds(10), "the lag falls back once the reader confirms and is active", () -> {
                readInserts(stream, wanted);
                GaugeRefresher.Gauges now = refresher.refreshNow();
                return now.cdcSlotActive() == 1 && now.cdcSlotLagBytes() < grown.cdcSlotLagBytes();
            });
        }
    }

    /**
     * The dead letters as an operator sees them, the young and the old one among 5,000 rows kept, from a refresh whose
     * one statement on outbox_events reads the dead letters' index only (without it, OutboxStats read every kept
     * row: docs/cdc.md, "What replaces pending"); the console's count of the rows kept, PostgreSQL's estimate, is
     * right once the table's statistics are.
     */
    private static void deadLettersWithoutTheKeptRows(TestDatabase.Db db, RelayOperations ops, GaugeRefresher refresher,
                                                      StatementLog log) throws Exception {
        db.execute("ANALYZE outbox_events"); // the statistics autovacuum keeps for the planner
        long kept = db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL");
        List<GaugeRefresher.Gauges> refreshed = new ArrayList<>();
        List<String> onTheOutbox = log.during(() -> refreshed.add(refresher.refreshNow())).stream()
                .filter(sql -> sql.contains("outbox_events")).toList();
        assertThat(refreshed.get(0).dead()).as("the dead-letter gauge in cdc mode").isEqualTo(2);
        assertThat(refreshed.get(0).pending()).isNaN();
        assertThat(onTheOutbox).as("the refresh's statements on outbox_events").hasSize(1);
        assertThat(plan(db, onTheOutbox.get(0))).as("the plan of the cdc gauges' statement")
                .contains("idx_outbox_dead_letters").doesNotContain("Seq Scan").doesNotContain("idx_outbox_unprocessed")
                .doesNotContain("idx_outbox_aggregate_pending");
        assertThat(kept).isGreaterThan(5000);
        RelayIt.await(Duration.ofSeconds(10), "the console's count of the rows kept is PostgreSQL's, right after ANALYZE",
                () -> {
                    try {
                        return ops.backlog(5).pending() == kept;
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    private static String plan(TestDatabase.Db db, String sql) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    /** Reads what the stream has now, removes the ids of the inserts it carries from {@code wanted}, and confirms. */
    private static void readInserts(PGReplicationStream stream, Set<String> wanted) {
        try {
            ByteBuffer message;
            while ((message = stream.readPending()) != null) {
                byte[] bytes = new byte[message.remaining()];
                message.get(bytes);
                if (bytes.length > 0 && bytes[0] == 'I') { // pgoutput's Insert: the new row's columns as text
                    String text = new String(bytes, StandardCharsets.UTF_8);
                    wanted.removeIf(text::contains);
                }
            }
            stream.setAppliedLSN(stream.getLastReceiveLSN());
            stream.setFlushedLSN(stream.getLastReceiveLSN());
            stream.forceUpdateStatus();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A logical replication connection as the setup's outbox_cdc role (its password is the setup file's). */
    private static Connection replicationConnection(TestDatabase.Db db) throws SQLException {
        Properties p = new Properties();
        PGProperty.USER.set(p, "outbox_cdc");
        PGProperty.PASSWORD.set(p, "change-me");
        PGProperty.REPLICATION.set(p, "database");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(p, "10");
        PGProperty.PREFER_QUERY_MODE.set(p, "simple");
        return DriverManager.getConnection(db.url(), p);
    }

    private static List<UUID> write(TestDatabase.Db db, int n) throws SQLException {
        List<UUID> ids = new ArrayList<>();
        try (Connection c = db.connect()) {
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            for (int i = 0; i < n; i++) {
                UUID id = UUID.randomUUID();
                dao.insertOutboxEvent(new InsertOutboxEventParams(id, "order", "o-" + i, "order.created", "{\"i\": " + i + "}",
                        null));
                ids.add(id);
            }
        }
        return ids;
    }

    /** A row written {@code ago} (created_at is the transaction's start, so the insert names it). */
    private static UUID insertCreatedAgo(TestDatabase.Db db, Duration ago, boolean deadLetter) {
        UUID id = UUID.randomUUID();
        db.execute("INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload, created_at, dead_at)"
                + " VALUES ('" + id + "', 'order', 'o-old', 'order.created', '{}'::jsonb, now() - interval '"
                + ago.toSeconds() + " seconds', " + (deadLetter ? "now()" : "NULL") + ")");
        return id;
    }

    private static long ids(TestDatabase.Db db, List<UUID> ids) {
        StringBuilder in = new StringBuilder();
        ids.forEach(id -> in.append(in.length() == 0 ? "'" : ", '").append(id).append('\''));
        return db.queryLong("SELECT count(*) FROM outbox_events WHERE id IN (" + in + ")");
    }

    /** No WAL kept after the test: the slot goes once the reader has let go, then the publication and the role. */
    private static void dropSlotAndRole(TestDatabase.Db db) throws InterruptedException {
        RelayIt.await(Duration.ofSeconds(30), "the slot is no longer in use", () -> db.queryLong(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + SLOT + "' AND active") == 0);
        db.execute("SELECT pg_drop_replication_slot('" + SLOT + "')");
        db.execute("DROP PUBLICATION IF EXISTS " + SLOT);
        db.execute("DROP OWNED BY outbox_cdc");
        db.execute("DROP ROLE outbox_cdc");
    }
}
