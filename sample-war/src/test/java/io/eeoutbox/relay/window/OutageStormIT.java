package io.eeoutbox.relay.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.application.order.OrderService;
import io.eeoutbox.sample.application.projection.OrderProjectionService;
import io.eeoutbox.sample.infrastructure.persistence.RelayDataSource;
import io.eeoutbox.sample.it.Await;
import io.eeoutbox.sample.it.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Many broker outages in a row, each one short, while orders are written: the sample's own relay and its
 * consumer (the message-driven bean) meet the first instant of an outage dozens of times in one run. Every
 * event the relay marked published must reach the consumer's inbox, through the broker's and the server's own
 * recovery: the test never touches connections, messages or transactions.
 */
@Tag("in-server")
@Tag("wildfly-only")
@ExtendWith(ArquillianExtension.class)
class OutageStormIT {

    private static final int OUTAGES = Integer.getInteger("storm.outages", 15);

    @Deployment
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME).addClasses(OutageStormIT.class, BrokerControl.class, Await.class);
    }

    @EJB
    private OrderService orders;

    @Inject
    private RelayDataSource database;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    private ManagedExecutorService workers;

    @Test
    void everyPublishedEventReachesTheConsumerThroughManyOutageStarts() throws Exception {
        long seed = Long.getLong("storm.seed", System.nanoTime());
        Random random = new Random(seed);
        String customer = "storm-" + seed;
        Set<ObjectName> logStoreBefore = BrokerControl.heuristicParticipants();
        // the storm's events are the ones written after this point (no other test writes meanwhile)
        long seqBefore = count("SELECT coalesce(max(seq), 0) FROM outbox_events");
        AtomicBoolean producing = new AtomicBoolean(true);
        Set<String> written = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            producers.add(workers.submit(() -> {
                while (producing.get()) {
                    try {
                        written.add(orders.create(customer, new BigDecimal("1.00")).getId().toString());
                    } catch (RuntimeException e) {
                        // a failed write is the caller's to see; it writes no event either
                    }
                }
                return null;
            }));
        }
        long start = System.nanoTime();
        // The schedule follows the producers, not the clock: the broker goes away after a seeded number of orders
        // and comes back after a seeded number more written during the outage (each step bounded in time).
        try {
            for (int i = 0; i < OUTAGES; i++) {
                int before = written.size() + 20 + random.nextInt(200);
                BrokerControl.within(Duration.ofSeconds(2), () -> written.size() >= before);
                BrokerControl.stop();
                int during = written.size() + 10 + random.nextInt(150);
                BrokerControl.within(Duration.ofSeconds(2), () -> written.size() >= during);
                BrokerControl.start();
            }
        } finally {
            producing.set(false);
            BrokerControl.startIfStopped();
        }
        for (Future<?> f : producers) {
            f.get();
        }
        long stormMillis = (System.nanoTime() - start) / 1_000_000;
        // single-table queries by seq, answered from indexes: a join over tables filled seconds ago can be planned as
        // a nested loop, and a large array parameter is searched linearly once the driver switches to a generic
        // plan; both outlasted the driver's socket timeout
        Duration drain = timed(() -> Await.until(Duration.ofMinutes(3), () -> count(
                "SELECT count(*) FROM outbox_events WHERE seq > ? AND processed_at IS NULL", seqBefore),
                n -> n == 0, "every event of the storm's orders published"));
        long published = count("SELECT count(*) FROM outbox_events WHERE seq > ?", seqBefore);
        Duration applied;
        try {
            applied = timed(() -> Await.until(Duration.ofMinutes(5), () -> notApplied(seqBefore), n -> n == 0,
                    "every published event of the storm applied by the consumer (the server's own recovery included)"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; seed=" + seed + " outages=" + OUTAGES + " events=" + published
                    + " not applied: " + notAppliedIds(seqBefore), e);
        }
        long heuristic = BrokerControl.newIn(logStoreBefore);
        System.out.println("outage storm: seed=" + seed + " outages=" + OUTAGES + " storm_ms=" + stormMillis
                 + " orders=" + written.size() + " events=" + published + " drain_after_storm=" + drain
                + " all_applied_after=" + applied + " heuristic_in_log_store=" + heuristic);
        assertTrue(published > 0, "no order was written during the storm");
        assertEquals(0, notApplied(seqBefore), "published events the consumer never applied");
        assertEquals(0, heuristic, "heuristic transactions left in the transaction log store after the storm");
    }

    /**
     * Published events of the storm that the consumer's inbox has not recorded: two single-table queries compared
     * here (the inbox's records of the storm are the ones written since it began, on the database's clock).
     */
    private List<String> notAppliedEvents(long seqBefore) throws SQLException {
        List<String> published = strings("SELECT id::text FROM outbox_events WHERE seq > ? AND processed_at IS NOT NULL",
                seqBefore);
        Set<String> applied = new java.util.HashSet<>(strings("SELECT event_id::text FROM processed_events"
                + " WHERE consumer = '" + OrderProjectionService.CONSUMER + "' AND processed_at >="
                + " (SELECT min(created_at) FROM outbox_events WHERE seq > ?)", seqBefore));
        List<String> missing = new ArrayList<>();
        for (String id : published) {
            if (!applied.contains(id)) {
                missing.add(id);
            }
        }
        return missing;
    }

    private long notApplied(long seqBefore) throws SQLException {
        return notAppliedEvents(seqBefore).size();
    }

    private String notAppliedIds(long seqBefore) throws SQLException {
        List<String> missing = notAppliedEvents(seqBefore);
        return missing.subList(0, Math.min(10, missing.size())).toString();
    }

    private List<String> strings(String sql, long param) throws SQLException {
        List<String> result = new ArrayList<>();
        try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, param);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    result.add(rs.getString(1));
                }
            }
        }
        return result;
    }

    private long count(String sql, Object... params) throws SQLException {
        try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                if (params[i] instanceof String[] array) {
                    s.setArray(i + 1, c.createArrayOf("varchar", array));
                } else {
                    s.setObject(i + 1, params[i]);
                }
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    private static Duration timed(Step step) throws Exception {
        long t0 = System.nanoTime();
        step.run();
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
