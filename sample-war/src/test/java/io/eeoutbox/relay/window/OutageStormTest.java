package io.eeoutbox.relay.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.sample.application.order.OrderService;
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
import java.util.concurrent.atomic.AtomicLong;
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
class OutageStormTest {

    private static final int OUTAGES = Integer.getInteger("storm.outages", 15);
    private static final String ACCEPTOR = "jboss.as:subsystem=messaging-activemq,server=default,in-vm-acceptor=in-vm";

    @Deployment
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME).addClasses(OutageStormTest.class, BrokerCutWindowTest.class, Await.class);
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
        Set<ObjectName> logStoreBefore = BrokerCutWindowTest.logStore();
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            producers.add(workers.submit(() -> {
                while (producing.get()) {
                    try {
                        orders.create(customer, new BigDecimal("1.00"));
                        written.incrementAndGet();
                    } catch (RuntimeException e) {
                        // a failed write is the caller's to see; it writes no event either
                    }
                }
                return null;
            }));
        }
        long start = System.nanoTime();
        try {
            for (int i = 0; i < OUTAGES; i++) {
                Thread.sleep(300 + random.nextInt(900));
                acceptor("stop");
                Thread.sleep(200 + random.nextInt(800));
                acceptor("start");
            }
        } finally {
            producing.set(false);
            acceptor("startIfStopped");
        }
        for (Future<?> f : producers) {
            f.get();
        }
        long stormMillis = (System.nanoTime() - start) / 1_000_000;
        Duration drain = timed(() -> Await.until(Duration.ofMinutes(3), () -> count(
                "SELECT count(*) FROM outbox_events e JOIN orders o ON o.id::text = e.aggregate_id"
                        + " WHERE o.customer_id = ? AND e.processed_at IS NULL", customer), n -> n == 0,
                "every event of the storm's orders published"));
        long published = count("SELECT count(*) FROM outbox_events e JOIN orders o ON o.id::text = e.aggregate_id"
                + " WHERE o.customer_id = ?", customer);
        Duration applied;
        try {
            applied = timed(() -> Await.until(Duration.ofMinutes(5), this::notApplied, n -> n == 0,
                    "every published event of the storm applied by the consumer (the server's own recovery included)"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; seed=" + seed + " outages=" + OUTAGES + " events=" + published
                    + " not applied: " + notAppliedIds(), e);
        }
        long heuristic = BrokerCutWindowTest.newIn(logStoreBefore);
        System.out.println("outage storm: seed=" + seed + " outages=" + OUTAGES + " storm_ms=" + stormMillis
                + " orders=" + written.get() + " events=" + published + " drain_after_storm=" + drain
                + " all_applied_after=" + applied + " heuristic_transactions_in_log_store=" + heuristic);
        assertTrue(published > 0, "no order was written during the storm");
        assertEquals(0, notApplied(), "published events the consumer never applied");
        assertEquals(0, heuristic, "heuristic transactions left in the transaction log store after the storm");
    }

    private long notApplied() throws SQLException {
        return count("SELECT count(*) FROM outbox_events e WHERE e.processed_at IS NOT NULL AND e.aggregate_type = 'order'"
                + " AND NOT EXISTS (SELECT 1 FROM processed_events p WHERE p.event_id = e.id)");
    }

    private String notAppliedIds() throws SQLException {
        StringBuilder b = new StringBuilder();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT e.id, e.seq, e.attempts, e.processed_at FROM outbox_events e"
                     + " WHERE e.processed_at IS NOT NULL AND e.aggregate_type = 'order'"
                     + " AND NOT EXISTS (SELECT 1 FROM processed_events p WHERE p.event_id = e.id) ORDER BY e.seq LIMIT 10")) {
            while (rs.next()) {
                b.append(rs.getString(1)).append(" seq ").append(rs.getLong(2)).append(" attempts ").append(rs.getInt(3))
                        .append(" processed_at ").append(rs.getString(4)).append("; ");
            }
        }
        return b.toString();
    }

    private long count(String sql, Object... params) throws SQLException {
        try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void acceptor(String operation) {
        try {
            ObjectName name = new ObjectName(ACCEPTOR);
            var server = ManagementFactory.getPlatformMBeanServer();
            if (operation.equals("startIfStopped")) {
                if (Boolean.TRUE.equals(server.getAttribute(name, "started"))) {
                    return;
                }
                operation = "start";
            }
            server.invoke(name, operation, new Object[0], new String[0]);
        } catch (Exception e) {
            throw new IllegalStateException(operation + " of " + ACCEPTOR + " failed", e);
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
