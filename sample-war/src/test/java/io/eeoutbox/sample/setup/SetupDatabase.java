package io.eeoutbox.sample.setup;

import io.eeoutbox.sample.it.db.JdbcUrls;
import io.eeoutbox.sample.it.db.Migrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A database of its own for a test that starts a server of its own (the setup check, the Kafka sample), on the
 * PostgreSQL of the in-server suite ({@code outbox.db.*}, set by {@code TestDatabaseSession}): a second relay on the
 * suite's outbox would publish the suite's events to the wrong broker. ee-outbox's migrations and the sample's are
 * applied; the database is dropped on close.
 */
public final class SetupDatabase implements AutoCloseable {

    private final String maintenanceUrl;
    private final String name;
    private final String url;
    private final String user;
    private final String password;

    private SetupDatabase(String suiteUrl, String name, String user, String password) {
        this.maintenanceUrl = suiteUrl;
        this.name = name;
        this.url = JdbcUrls.withDatabase(suiteUrl, name);
        this.user = user;
        this.password = password;
    }

    /** {@code name}: a PostgreSQL identifier of lower-case letters, digits and underscores. */
    public static SetupDatabase create(String name) throws Exception {
        if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("database name must match [a-z_][a-z0-9_]{0,62}: " + name);
        }
        SetupDatabase db = new SetupDatabase(OwnServerSetupIT.required("outbox.db.url"), name,
                OwnServerSetupIT.required("outbox.db.user"), OwnServerSetupIT.required("outbox.db.password"));
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

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** The order's {@code order.created} events that the relay has marked published. */
    int publishedEvents(String orderId) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?"
                     + " AND event_type = 'order.created' AND processed_at IS NOT NULL")) {
            s.setString(1, orderId);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = DriverManager.getConnection(maintenanceUrl, user, password);
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }
}
