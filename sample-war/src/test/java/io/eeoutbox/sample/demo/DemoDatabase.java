package io.eeoutbox.sample.demo;

import io.eeoutbox.sample.it.db.Migrations;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The demo's PostgreSQL: an embedded one (zonky, on a free port, removed when closed) unless a JDBC
 * URL is given. The schema (ee-outbox's migrations, NOTIFY trigger included, then the sample's) is
 * applied to an empty database; a database that already has both is used as it is.
 */
final class DemoDatabase implements AutoCloseable {

    private static final String DATABASE = "outbox_demo";

    private final EmbeddedPostgres embedded;
    private final String url;
    private final String user;
    private final String password;
    private boolean closed;

    private DemoDatabase(EmbeddedPostgres embedded, String url, String user, String password) {
        this.embedded = embedded;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** The given database, or an embedded PostgreSQL with a fresh database {@value #DATABASE}. */
    static DemoDatabase start(String givenUrl, String givenUser, String givenPassword) throws IOException, SQLException {
        if (givenUrl != null) {
            DemoDatabase db = new DemoDatabase(null, givenUrl, orElse(givenUser, "postgres"), orElse(givenPassword, "postgres"));
            db.prepareSchema();
            return db;
        }
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        try {
            try (Connection c = DriverManager.getConnection(pg.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE);
            }
            DemoDatabase db = new DemoDatabase(pg, pg.getJdbcUrl("postgres", DATABASE), "postgres", "postgres");
            db.prepareSchema();
            return db;
        } catch (IOException | SQLException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    private void prepareSchema() throws SQLException, IOException {
        try (Connection c = connect()) {
            boolean outbox = exists(c, "outbox_events");
            boolean sample = exists(c, "orders") && exists(c, "order_projection");
            if (outbox && sample) {
                return;
            }
            if (outbox || sample) {
                throw new IllegalStateException("the database at " + url + " has " + (outbox ? "ee-outbox's tables but not the"
                        + " sample's" : "the sample's tables but not ee-outbox's") + "; give the demo an empty database");
            }
            Migrations.apply(c);
        }
    }

    private static boolean exists(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
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

    boolean isEmbedded() {
        return embedded != null;
    }

    @Override
    public synchronized void close() {
        if (embedded != null && !closed) {
            closed = true;
            try {
                embedded.close();
            } catch (IOException e) {
                System.err.println("[demo] could not stop the embedded PostgreSQL: " + e);
            }
        }
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
