package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * The checks the scenarios make in their database, as an operator would make them with psql: ee-outbox's
 * tables ({@code outbox_events}, {@code processed_events}), the hooks' logs ({@code fault_publish_log},
 * {@code fault_delivery_log}), and row counts of every table. Each call opens a short connection of
 * its own, so the checks work across a database restart.
 */
public final class OutboxDb {

    public static final String ORDER = "order";
    public static final String ORDER_CREATED = "order.created";
    public static final String ORDER_STATUS_CHANGED = "order.status-changed";

    private final String url;

    public OutboxDb(String url) {
        this.url = url;
    }

    public String url() {
        return url;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, FaultPostgres.USER, FaultPostgres.PASSWORD);
    }

    /** Creates the hooks' tables (src/test/resources/fault/hooks.sql). */
    public void createHookTables() throws SQLException, IOException {
        try (InputStream in = OutboxDb.class.getResourceAsStream("/fault/hooks.sql");
             Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Events still to publish (not dead letters). */
    public long pending() throws SQLException {
        return single("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL");
    }

    public long deadLetters() throws SQLException {
        return single("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NOT NULL");
    }

    /** Rows that failed at least once (attempts counted) and are not yet published. */
    public long failedPending() throws SQLException {
        return single("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND (attempts > 0 OR last_error IS NOT NULL)");
    }

    public long published() throws SQLException {
        return single("SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL");
    }

    public long events() throws SQLException {
        return single("SELECT count(*) FROM outbox_events");
    }

    /** For each given order id: how many {@code eventType} rows it has (0 when none). */
    public Map<String, Integer> eventCounts(String eventType, Collection<String> orderIds) throws SQLException {
        Map<String, Integer> counts = new HashMap<>();
        orderIds.forEach(id -> counts.put(id, 0));
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT aggregate_id, count(*) FROM outbox_events"
                     + " WHERE aggregate_type = ? AND event_type = ? AND aggregate_id = ANY (?) GROUP BY aggregate_id")) {
            s.setString(1, ORDER);
            s.setString(2, eventType);
            s.setArray(3, c.createArrayOf("varchar", orderIds.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return counts;
    }

    /**
     * Of the given order ids, those without a row in {@code table} (the sample's {@code orders}, the
     * consumer's {@code order_projection}), keyed by {@code column}.
     */
    public List<String> missingFrom(String table, String column, Collection<String> orderIds) throws SQLException {
        List<String> missing = new ArrayList<>();
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT x FROM unnest(?::uuid[]) AS x WHERE NOT EXISTS"
                     + " (SELECT 1 FROM " + table + " t WHERE t." + column + " = x)")) {
            s.setArray(1, c.createArrayOf("uuid", orderIds.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    missing.add(rs.getString(1));
                }
            }
        }
        return missing;
    }

    /** The aggregate ids of all events of a type (every order the database has, acknowledged or not). */
    public List<String> aggregateIds(String eventType) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT aggregate_id FROM outbox_events WHERE event_type = ?")) {
            s.setString(1, eventType);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    /** Events that the relay published more than once (publish log), counted once per extra publish. */
    public long extraPublishes() throws SQLException {
        return single("SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM fault_publish_log GROUP BY event_id) x");
    }

    /** Events published by more than one relay. */
    public long publishedByTwoRelays() throws SQLException {
        return single("SELECT count(*) FROM (SELECT event_id FROM fault_publish_log GROUP BY event_id"
                + " HAVING count(DISTINCT relay) > 1) x");
    }

    /** Published events (processed_at set) that have no row in the publish log: the log missed something. */
    public long publishedWithoutLog() throws SQLException {
        return single("SELECT count(*) FROM outbox_events e WHERE e.processed_at IS NOT NULL"
                + " AND NOT EXISTS (SELECT 1 FROM fault_publish_log l WHERE l.event_id = e.id)");
    }

    /** Deliveries that reached the consumer again after the first committed one (absorbed by the inbox). */
    public long duplicateDeliveries() throws SQLException {
        return single("SELECT count(*) - count(DISTINCT event_id) FROM fault_delivery_log");
    }

    /**
     * Committed deliveries the broker marked as redelivered: a delivery before them did not commit (rolled back,
     * or cut by a kill and rolled back by recovery).
     */
    public long redeliveries() throws SQLException {
        return single("SELECT count(*) FROM fault_delivery_log WHERE redelivered");
    }

    /** Distinct events whose delivery committed at the consumer. */
    public long deliveredEvents() throws SQLException {
        return single("SELECT count(DISTINCT event_id) FROM fault_delivery_log");
    }

    /** Published events that no consumer delivery committed for (yet). */
    public long publishedNotDelivered() throws SQLException {
        return single("SELECT count(*) FROM outbox_events e WHERE e.processed_at IS NOT NULL"
                + " AND NOT EXISTS (SELECT 1 FROM fault_delivery_log d WHERE d.event_id = e.id)");
    }

    /** Inbox rows of every consumer. */
    public long inboxRowsAll() throws SQLException {
        return single("SELECT count(*) FROM processed_events");
    }

    /** Inbox rows of a consumer. */
    public long inboxRows(String consumer) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM processed_events WHERE consumer = ?")) {
            s.setString(1, consumer);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Deliveries per relay/server name, for the two-server figures. */
    public Map<String, Long> countBy(String table, String column) throws SQLException {
        Map<String, Long> m = new LinkedHashMap<>();
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + column + ", count(*) FROM " + table + " GROUP BY 1 ORDER BY 1")) {
            while (rs.next()) {
                m.put(rs.getString(1), rs.getLong(2));
            }
        }
        return m;
    }

    /**
     * Per-aggregate order violations: pairs of events of one aggregate where the later-written one
     * (higher seq) was first published before the earlier one was. Uses each event's first publish.
     */
    public long publishOrderViolations() throws SQLException {
        return single("""
                WITH first AS (
                    SELECT l.event_id, min(l.published_at) AS at FROM fault_publish_log l GROUP BY l.event_id),
                ev AS (
                    SELECT e.aggregate_id, e.seq, f.at FROM outbox_events e JOIN first f ON f.event_id = e.id
                    WHERE e.aggregate_type = 'order'),
                ordered AS (
                    SELECT aggregate_id, seq, at, lag(at) OVER (PARTITION BY aggregate_id ORDER BY seq) AS prev_at
                    FROM ev)
                SELECT count(*) FROM ordered WHERE prev_at IS NOT NULL AND at <= prev_at
                """);
    }

    /** The same check on the completion times the relay wrote (processed_at). */
    public long completionOrderViolations() throws SQLException {
        return single("""
                SELECT count(*) FROM (
                    SELECT processed_at, lag(processed_at) OVER (PARTITION BY aggregate_type, aggregate_id ORDER BY seq) AS prev
                    FROM outbox_events WHERE processed_at IS NOT NULL) x
                WHERE prev IS NOT NULL AND processed_at < prev
                """);
    }

    /** Rows of every table in the public schema, by table: to see whether a request wrote anything. */
    public Map<String, Long> rowCounts(Connection c) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < tables.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("(SELECT count(*) FROM \"").append(tables.get(i)).append("\")");
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            rs.next();
            for (int i = 0; i < tables.size(); i++) {
                counts.put(tables.get(i), rs.getLong(i + 1));
            }
        }
        return counts;
    }

    /**
     * Polls {@code probe} until {@code done} accepts its value; returns how long it took.
     *
     * @throws AssertionError naming {@code what} and the last value on timeout
     */
    public static Duration await(Duration timeout, String what, SqlLong probe, LongPredicate done) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        long last = -1;
        while (true) {
            try {
                last = probe.get();
                if (done.test(last)) {
                    return Duration.ofNanos(System.nanoTime() - t0);
                }
            } catch (SQLException e) {
                // the database may be restarting: keep polling
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + Figures.seconds(timeout) + " waiting for " + what
                        + "; last value " + last);
            }
            Thread.sleep(100);
        }
    }

    /** A count from the database. */
    @FunctionalInterface
    public interface SqlLong {
        long get() throws SQLException;
    }

    private long single(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
