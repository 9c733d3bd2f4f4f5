package io.eeoutbox.relay.bench;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.eeoutbox.jpa.generated.OutboxEventTestingJdbc;
import io.eeoutbox.testing.TestDatabase;
import io.eeoutbox.testing.TestOrder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's own database on the server {@link TestDatabase} chose (embedded by default, the
 * machine's PostgreSQL with {@code -Doutbox.test.jdbc-url=...}): ee-outbox's schema with the NOTIFY
 * trigger (switched off unless a scenario switches it on) and the business table of the tests.
 * Dropped again on {@link #close()}.
 */
final class BenchDatabase implements AutoCloseable {

    private final TestDatabase server;
    private final TestDatabase.Db db;
    private final List<AgroalDataSource> pools = new ArrayList<>();
    private volatile boolean checkpoints;

    BenchDatabase() {
        this(TestDatabase.get());
    }

    /** The same on another server (section 8: a PostgreSQL with {@code wal_level=logical}). */
    BenchDatabase(TestDatabase server) {
        this.server = server;
        db = server.createDatabase("bench", true);
        db.execute(TestOrder.DDL);
        notifyTrigger(false);
    }

    TestDatabase.Db db() {
        return db;
    }

    String describe() {
        String version = queryText("SHOW server_version");
        return "PostgreSQL " + version + " (" + server.source() + "), synchronous_commit=" + queryText("SHOW synchronous_commit")
                + ", shared_buffers=" + queryText("SHOW shared_buffers");
    }

    /** A pool of plain (non-JTA, autocommit) connections, as a server's non-JTA data source. */
    AgroalDataSource pool(int maxSize) throws SQLException {
        return pool(maxSize, null);
    }

    /**
     * The same, with server settings for every connection ({@code options} of the JDBC driver, e.g.
     * {@code -c synchronous_commit=off}); null for none.
     */
    AgroalDataSource pool(int maxSize, String serverOptions) throws SQLException {
        AgroalDataSource pool = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(p -> p
                        .maxSize(maxSize)
                        .connectionFactoryConfiguration(cf -> {
                            cf.jdbcUrl(db.url()).autoCommit(true);
                            if (serverOptions != null) {
                                cf.jdbcProperty("options", serverOptions);
                            }
                            if (db.user() != null) {
                                cf.principal(new NamePrincipal(db.user()));
                            }
                            if (db.password() != null) {
                                cf.credential(new SimplePassword(db.password()));
                            }
                            return cf;
                        })));
        synchronized (pools) {
            pools.add(pool);
        }
        return pool;
    }

    void closePool(AgroalDataSource pool) {
        synchronized (pools) {
            pools.remove(pool);
        }
        pool.close();
    }

    /** Switches the optional NOTIFY trigger (migration V5) on or off. */
    void notifyTrigger(boolean on) {
        db.execute("ALTER TABLE outbox_events " + (on ? "ENABLE" : "DISABLE") + " TRIGGER outbox_insert_notify");
    }

    /**
     * With or without ordered mode's index, by the schema options of sql/options (idempotent, and quick on the emptied
     * table; run before {@link #reset()}).
     */
    void orderedIndex(boolean present) {
        db.execute(TestDatabase.readResource("db/options/ee-outbox/" + (present ? "ordered-mode.sql" : "unordered-only.sql")));
    }

    /** Empties the outbox and the business table; then vacuums, so every run starts alike. */
    void reset() {
        db.execute("TRUNCATE outbox_events, test_orders, outbox_relay_waiters");
        settle();
    }

    /** Whether {@link #settle()} also checkpoints (full runs; a smoke run saves the time). */
    void checkpoints(boolean on) {
        checkpoints = on;
    }

    /** VACUUM ANALYZE of the outbox and (full runs) a CHECKPOINT, so no checkpoint or stale statistics land in a timed run. */
    void settle() {
        db.execute("VACUUM (ANALYZE) outbox_events");
        db.execute("VACUUM (ANALYZE) test_orders");
        if (!checkpoints) {
            return;
        }
        try {
            db.execute("CHECKPOINT");
        } catch (IllegalStateException e) {
            // not allowed for this user: runs are a little noisier
        }
    }

    /** Pending rows (not yet processed, not dead), with the generated OutboxPendingCount. */
    long pending() {
        try (Connection c = db.connect()) {
            return new OutboxEventTestingJdbc(c).outboxPendingCount().orElse(0L);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    String queryText(String sql) {
        try (Connection c = db.connect(); Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : "";
        } catch (SQLException e) {
            return "?";
        }
    }

    @Override
    public void close() {
        synchronized (pools) {
            for (AgroalDataSource p : pools) {
                p.close();
            }
            pools.clear();
        }
        // Drop the benchmark database from the server's maintenance database.
        String url = db.url();
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int q = url.indexOf('?', slash);
        String maintenance = url.substring(0, slash + 1) + "postgres" + (q < 0 ? "" : url.substring(q));
        try (Connection c = DriverManager.getConnection(maintenance, db.user(), db.password());
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + db.name() + " WITH (FORCE)");
        } catch (SQLException e) {
            System.err.println("[benchmark] could not drop database " + db.name() + ": " + e.getMessage());
        }
    }
}
