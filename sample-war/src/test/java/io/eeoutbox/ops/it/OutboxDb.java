package io.eeoutbox.ops.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The test database as the tests see it over JDBC (the one the server uses: TestDatabaseSession sets
 * {@code outbox.db.*}).
 */
final class OutboxDb {

    private OutboxDb() {
    }

    /**
     * Records one event, the way an application's committed transaction leaves it: a row in
     * {@code outbox_events} (the insert trigger NOTIFYs the relay). The one place where the tests create
     * events; once the orders sample is in, a {@code POST /api/orders} can take its place.
     */
    static UUID recordEvent(String eventType) throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO outbox_events (aggregate_type, aggregate_id, event_type,"
                     + " payload) VALUES ('ops-test', ?, ?, '{\"test\":true}'::jsonb) RETURNING id")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, eventType);
            return single(ps);
        }
    }

    /** A dead letter made by SQL: a row whose attempts are used up, as the relay leaves one. */
    static UUID insertDeadLetter(String eventType) throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO outbox_events (aggregate_type, aggregate_id, event_type,"
                     + " payload, attempts, dead_at, last_error) VALUES ('ops-test', ?, ?, '{\"test\":true}'::jsonb, 2, now(),"
                     + " 'java.lang.IllegalStateException: made a dead letter by the test') RETURNING id")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, eventType);
            return single(ps);
        }
    }

    /** When the relay marked the event published, or empty while it is not. */
    static Optional<Instant> processedAt(UUID id) throws SQLException {
        return instant("SELECT processed_at FROM outbox_events WHERE id = ?", id);
    }

    /** Seconds since the relay marked the event published (the database's clock), or empty while it is not. */
    static Optional<Double> secondsSincePublished(UUID id) throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT extract(epoch FROM now() - processed_at)::float8 FROM outbox_events WHERE id = ? AND processed_at IS NOT NULL")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getDouble(1)) : Optional.empty();
            }
        }
    }

    /** Whether the event's row is still in the outbox. */
    static boolean exists(UUID id) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT 1 FROM outbox_events WHERE id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** A dead letter with the given payload (JSON) and last error, as the relay leaves one. */
    static UUID insertDeadLetter(String eventType, String payloadJson, String lastError) throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO outbox_events (aggregate_type, aggregate_id, event_type,"
                     + " payload, attempts, dead_at, last_error) VALUES ('ops-test', ?, ?, ?::jsonb, 2, now(), ?) RETURNING id")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, eventType);
            ps.setString(3, payloadJson);
            ps.setString(4, lastError);
            return single(ps);
        }
    }

    /** When the event became a dead letter, or empty. */
    static Optional<Instant> deadAt(UUID id) throws SQLException {
        return instant("SELECT dead_at FROM outbox_events WHERE id = ?", id);
    }

    private static Optional<Instant> instant(String sql, UUID id) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new AssertionError("no outbox row " + id);
                }
                java.sql.Timestamp t = rs.getTimestamp(1);
                return Optional.ofNullable(t).map(java.sql.Timestamp::toInstant);
            }
        }
    }

    /** A count from a fixed statement (no parameters). */
    static long count(String sql) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The events of these aggregates: how many were written, and how many of them are published. */
    static Written eventsOf(java.util.List<String> aggregateIds) throws SQLException {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("SELECT count(*), count(processed_at) FROM outbox_events"
                     + " WHERE aggregate_id = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("varchar", aggregateIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Written(rs.getLong(1), rs.getLong(2));
            }
        }
    }

    /** Outbox rows of some aggregates: {@code rows} written, {@code published} of them marked processed. */
    record Written(long rows, long published) {
    }

    private static UUID single(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getObject(1, UUID.class);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("outbox.db.url"), System.getProperty("outbox.db.user"),
                System.getProperty("outbox.db.password"));
    }
}
