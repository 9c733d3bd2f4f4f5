package io.eeoutbox.sample.kafka;

import io.eeoutbox.sample.it.db.JdbcUrls;
import io.eeoutbox.sample.it.db.Migrations;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * A database of its own for {@link KafkaSampleIT} on the in-server suite's PostgreSQL ({@code outbox.db.*}, set by
 * {@code TestDatabaseSession}), with ee-outbox's migrations and the sample's; dropped on close.
 */
final class KafkaItDatabase implements AutoCloseable {

    private final String maintenanceUrl;
    private final String name;
    private final String url;
    private final String user;
    private final String password;

    private KafkaItDatabase(String suiteUrl, String name, String user, String password) {
        this.maintenanceUrl = suiteUrl;
        this.name = name;
        this.url = JdbcUrls.withDatabase(suiteUrl, name);
        this.user = user;
        this.password = password;
    }

    /** {@code name}: a PostgreSQL identifier of lower-case letters, digits and underscores. */
    static KafkaItDatabase create(String name) throws Exception {
        if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("database name must match [a-z_][a-z0-9_]{0,62}: " + name);
        }
        KafkaItDatabase db = new KafkaItDatabase(KafkaSampleIT.required("outbox.db.url"), name,
                KafkaSampleIT.required("outbox.db.user"), KafkaSampleIT.required("outbox.db.password"));
        try (Connection c = DriverManager.getConnection(db.maintenanceUrl, db.user, db.password);
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        }
        try (Connection c = DriverManager.getConnection(db.url, db.user, db.password)) {
            Migrations.apply(c);
        }
        return db;
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    /** The ids of the orders' events that the relay has marked published. */
    Set<String> publishedEventIds(Collection<String> orderIds) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT id FROM outbox_events WHERE aggregate_type = 'order'"
                     + " AND aggregate_id = ANY (?) AND processed_at IS NOT NULL")) {
            s.setArray(1, c.createArrayOf("varchar", orderIds.toArray()));
            return strings(s);
        }
    }

    /** The orders' events in the consumer's projection. */
    long projectedEvents(Collection<String> orderIds) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM order_projection_events WHERE order_id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", orderIds.stream().map(UUID::fromString).toArray()));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /** Of the given event ids, those in the inbox of consumer order-projection. */
    Set<String> inboxEventIds(Collection<String> eventIds) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT event_id FROM processed_events"
                     + " WHERE consumer = 'order-projection' AND event_id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", eventIds.stream().map(UUID::fromString).toArray()));
            return strings(s);
        }
    }

    private static Set<String> strings(PreparedStatement s) throws SQLException {
        Set<String> out = new HashSet<>();
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = DriverManager.getConnection(maintenanceUrl, user, password);
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }
}
