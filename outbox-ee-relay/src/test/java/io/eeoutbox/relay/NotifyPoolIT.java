package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LISTEN connection borrowed from the relay's pool goes back to it no longer listening (issue 17,
 * item 4): 20 starts and stops of a relay (what each redeploy of the application does) on one Agroal pool
 * (WildFly's pool) while producers write, then no pooled connection listens and every one can be borrowed.
 */
class NotifyPoolIT {

    private static final int POOL_SIZE = 4;

    private TestDatabase.Db db;
    private AgroalDataSource pool;
    private final ExecutorService producer = Executors.newSingleThreadExecutor();

    @BeforeEach
    void setUp() throws SQLException {
        db = TestDatabase.get().createDatabase("notify_pool_it", true);
        pool = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(p -> p
                        .maxSize(POOL_SIZE)
                        .acquisitionTimeout(Duration.ofSeconds(5))
                        .connectionFactoryConfiguration(cf -> {
                            cf.jdbcUrl(db.url()).autoCommit(true);
                            if (db.user() != null) {
                                cf.principal(new NamePrincipal(db.user()));
                            }
                            if (db.password() != null) {
                                cf.credential(new SimplePassword(db.password()));
                            }
                            return cf;
                        })));
    }

    @AfterEach
    void tearDown() {
        producer.shutdownNow();
        pool.close();
    }

    /** Whether the producer still writes, or why it stopped (it writes one event per transaction in a loop). */
    private static String producerState(Future<?> load) {
        if (!load.isDone()) {
            return "writing";
        }
        try {
            load.get();
            return "stopped";
        } catch (java.util.concurrent.ExecutionException e) {
            return "failed: " + e.getCause();
        } catch (InterruptedException | java.util.concurrent.CancellationException e) {
            return "interrupted";
        }
    }

    @Test
    void afterTwentyRedeploysUnderLoadNoPooledConnectionListens() throws Exception {
        AtomicBoolean producing = new AtomicBoolean(true);
        Future<?> load = producer.submit(() -> {
            int n = 0;
            while (producing.get()) {
                RelayIt.write(db, List.of(new RelayIt.Event("order", "o" + (n++ % 50), "order.created")), true);
            }
            return null;
        });
        for (int deploy = 1; deploy <= 20; deploy++) {
            ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
            RecordingPublisher publisher = new RecordingPublisher();
            OutboxRelay relay = OutboxRelay.builder()
                    .config(RelayConfig.builder().set(RelaySettings.NAME, "deploy-" + deploy).set(RelaySettings.POLL_INTERVAL, Duration.ofSeconds(30)).build())
                    .dataSource(pool).executor(executor).publisher(publisher).build();
            relay.start();
            int d = deploy;
            try {
                RelayIt.await(Duration.ofSeconds(10), "deployment " + d + " listening and publishing",
                        () -> relay.isListening() && publisher.published.size() >= 3);
            } catch (AssertionError e) {
                throw new AssertionError("listening=" + relay.isListening() + " published=" + publisher.published.size()
                        + " pending=" + RelayIt.pending(db) + " counters=" + relay.counters() + " producer="
                        + producerState(load) + "; " + e.getMessage(), e);
            }
            relay.stop(Duration.ofSeconds(10));
            executor.shutdownNow();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        producing.set(false);
        load.get(10, TimeUnit.SECONDS);

        // Borrow the whole pool at once (it is not exhausted) and ask each connection what it listens to.
        List<Connection> borrowed = new ArrayList<>();
        try {
            for (int i = 0; i < POOL_SIZE; i++) {
                borrowed.add(pool.getConnection());
            }
            for (Connection c : borrowed) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT count(*) FROM pg_listening_channels()")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("channels a pooled connection listens on").isZero();
                }
            }
        } finally {
            for (Connection c : borrowed) {
                c.close();
            }
        }
        assertThat(db.queryLong("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND query ILIKE 'LISTEN %'")).as("backends whose last statement was LISTEN").isZero();
    }
}
