package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import io.eeoutbox.relay.config.RelayConfig;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relay's own transactions commit with {@code outbox.relay.synchronous-commit}, and the setting
 * never leaks into the pooled connections or into the producers' transactions: a statement trigger on
 * outbox_events records the synchronous_commit in force in every transaction that changes the table.
 */
class RelaySynchronousCommitIT {

    private TestDatabase.Db db;
    private AgroalDataSource pool;
    private ScheduledExecutorService executor;
    private OutboxRelay relay;

    @BeforeEach
    void setUp() throws SQLException {
        db = TestDatabase.get().createDatabase("relay_sync_commit_it", false);
        db.execute("""
                CREATE TABLE seen_commit_settings (op text NOT NULL, setting text NOT NULL);
                CREATE FUNCTION record_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO seen_commit_settings VALUES (TG_OP, current_setting('synchronous_commit'));
                    RETURN NULL;
                END $$;
                CREATE TRIGGER record_commit_setting AFTER INSERT OR UPDATE OR DELETE ON outbox_events
                    FOR EACH STATEMENT EXECUTE FUNCTION record_commit_setting();
                """);
        pool = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(p -> p.maxSize(3).connectionFactoryConfiguration(cf -> {
                    cf.jdbcUrl(db.url()).autoCommit(true);
                    if (db.user() != null) {
                        cf.principal(new NamePrincipal(db.user()));
                    }
                    if (db.password() != null) {
                        cf.credential(new SimplePassword(db.password()));
                    }
                    return cf;
                })));
        executor = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
        pool.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"off", "local", "on"})
    void everyRelayTransactionCommitsWithTheConfiguredSettingAndNoneLeaks(String setting) throws Exception {
        String serverDefault;
        try (Connection c = db.connect()) {
            serverDefault = show(c);
        }
        RelayConfig.Builder config = RelayIt.config("sync-" + setting).set(RelaySettings.BATCH_SIZE, 50).set(RelaySettings.MAX_ATTEMPTS, 2)
                .set(RelaySettings.RETENTION, Duration.ZERO).set(RelaySettings.CLEANUP_INTERVAL, Duration.ofMillis(200));
        if (!setting.equals(RelaySettings.SYNCHRONOUS_COMMIT.defaultValue())) {
            config.set(RelaySettings.SYNCHRONOUS_COMMIT, setting);
        }
        RecordingPublisher publisher = new RecordingPublisher().failing(m -> m.aggregateId().equals("bad"));
        relay = OutboxRelay.builder().config(config.build()).dataSource(pool).executor(executor)
                .clock(Clock.systemUTC()).publisher(publisher).build();
        RelayIt.writeCommitted(db, 120, i -> new RelayIt.Event("order", i == 7 ? "bad" : "o" + i, "order.created"));
        relay.start();
        // Published rows are completed and then deleted by the cleanup; the failing row becomes a dead letter.
        RelayIt.await(Duration.ofSeconds(30), "all rows published or dead, published rows cleaned up",
                () -> db.queryLong("SELECT count(*) FROM outbox_events") == 1
                        && db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL") == 1);
        relay.stop(Duration.ofSeconds(10));
        relay = null;

        // The producers' inserts ran with the server's setting, every relay write with the configured one.
        assertThat(settings("INSERT")).containsExactly(serverDefault);
        assertThat(settings("UPDATE")).containsExactly(setting);
        assertThat(settings("DELETE")).containsExactly(setting);
        assertThat(db.queryLong("SELECT count(*) FROM seen_commit_settings WHERE op = 'UPDATE'"))
                .as("claims, completions and recorded failures").isGreaterThanOrEqualTo(3 + 2 + 2);

        // Connections given back to the pool keep the server's setting: take every one the pool holds at once.
        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                held.add(pool.getConnection());
            }
            for (Connection c : held) {
                assertThat(show(c)).isEqualTo(serverDefault);
                assertThat(c.getAutoCommit()).isTrue();
            }
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    private Set<String> settings(String op) {
        Set<String> seen = new TreeSet<>();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT DISTINCT setting FROM seen_commit_settings WHERE op = '" + op + "'")) {
            while (rs.next()) {
                seen.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return seen;
    }

    /** The connection's session value of synchronous_commit, outside any transaction. */
    private static String show(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW synchronous_commit")) {
            rs.next();
            return rs.getString(1);
        } finally {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        }
    }
}
