package io.eeoutbox.relay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.jpa.generated.FetchOutboxBatchParams;
import io.eeoutbox.jpa.generated.FetchOutboxBatchRow;
import io.eeoutbox.jpa.generated.OutboxEventTestingJdbc;
import io.eeoutbox.jpa.generated.OutboxEventTestingSql;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.jms.LocalOrJtaBatch;
import io.eeoutbox.relay.ee.OutboxRelayBootstrap;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.sample.application.order.OrderService;
import io.eeoutbox.sample.infrastructure.persistence.RelayDataSource;
import io.eeoutbox.sample.it.Await;
import io.eeoutbox.sample.it.Deployments;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The benchmark's drain rate into the application server's own JMS broker (issue 7, section 2, "plus the
 * in-server JMS on WildFly"): inside WildFly, next to the deployed sample, a backlog of pending events is
 * drained by the reference article's relay ({@link ReferenceRelay}, one non-transacted persistent send per
 * message) and by ee-outbox's {@link OutboxRelay} (the shipped {@link JmsPublisher}, one local JMS transaction
 * per batch, as the sample's relay publishes), 1 and 2 instances of each, into a queue of the server's embedded
 * ActiveMQ Artemis (persistent journal). Both use the server's resources: the relay's non-JTA data source, the
 * relay's connection factory (in-VM, plain client factory), the default managed executors. Every run then consumes the
 * queue and checks that each event arrived at least once.
 *
 * <p>The sample's own relay is paused meanwhile (after every event of earlier tests is published), so the
 * benchmark's rows are claimed by the benchmark's relays only; they are deleted at the end.
 *
 * <p>Size from {@code -Dbench.in-server.size} (a system property of the server): {@code smoke} (the test
 * command: 2,000 events, 1 run, the baseline timed for 5 s) or {@code full} (200,000 events, 3 runs, 30 s).
 * Prints a table and writes {@code results.md} and {@code .csv} under {@code -Dbench.in-server.out}.
 * Fails only when an event was lost, never on speed.
 */
@Tag("in-server")
@Tag("wildfly-only")
@ExtendWith(ArquillianExtension.class)
@JMSDestinationDefinition(name = InServerDrainBenchmarkIT.QUEUE, interfaceName = "jakarta.jms.Queue",
        destinationName = "eeOutboxBenchmark")
class InServerDrainBenchmarkIT {

    static final String QUEUE = "java:app/jms/eeOutboxBenchmark";
    private static final String AGGREGATE_TYPE = "benchmark";
    private static final int BASELINE_BATCH = 100; // the article's LIMIT
    private static final int MAX_ATTEMPTS = 10;
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final int SECTION = 2;

    @Deployment
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME).addClasses(InServerDrainBenchmarkIT.class, Size.class,
                Drain.class, ReferenceRelay.class, OneByOneJmsPublisher.class, TrackingPublisher.class,
                PublishLog.class, Backlog.class, Results.class, Await.class,
                // the baseline's statements: sql/test-queries, generated into outbox-jpa's test code
                OutboxEventTestingJdbc.class, OutboxEventTestingSql.class, FetchOutboxBatchParams.class,
                FetchOutboxBatchRow.class);
    }

    @Resource(lookup = RelayDataSource.JNDI_NAME)
    private DataSource dataSource;

    @Resource(lookup = QUEUE)
    private Queue queue;

    @Resource(lookup = "java:comp/DefaultJMSConnectionFactory")
    private ConnectionFactory consumerFactory;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    private ManagedScheduledExecutorService scheduler;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    private ManagedExecutorService workers;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    private ManagedThreadFactory threads;

    @Inject
    private OutboxRelayBootstrap sampleRelay;

    @EJB
    private OrderService orders;

    /** Benchmark sizes: smoke for the test command, full for the benchmark's own command. */
    record Size(String name, int backlog, int runs, Duration baselineCap, Duration producing) {

        /** How long a drain may take before the run fails: at least 2 minutes, or 500 events/s. */
        Duration drainPatience() {
            return PATIENCE.compareTo(Duration.ofSeconds(backlog / 500)) >= 0 ? PATIENCE : Duration.ofSeconds(backlog / 500);
        }

        static Size fromSystemProperty() {
            String name = System.getProperty("bench.in-server.size", "smoke").trim().toLowerCase(Locale.ROOT);
            return switch (name) {
                case "smoke" -> new Size(name, 2_000, 1, Duration.ofSeconds(5), Duration.ofSeconds(2));
                case "full" -> new Size(name, 200_000, 3, Duration.ofSeconds(30), Duration.ofSeconds(10));
                default -> throw new IllegalArgumentException("bench.in-server.size=" + name + " (allowed: smoke, full)");
            };
        }
    }

    /** One timed drain: events per second, and whether the baseline stopped at its time cap. */
    record Drain(double eventsPerSecond, long done, boolean capped, double brokerMillisPerCall) {
    }

    @Test
    void drainIntoTheServersOwnJmsBroker() throws Exception {
        Size size = Size.fromSystemProperty();
        String factoryName = System.getProperty("outbox.relay.jms.connection-factory", "java:comp/DefaultJMSConnectionFactory");
        ConnectionFactory relayFactory = lookup(factoryName, ConnectionFactory.class);
        UserTransaction transaction = lookup("java:comp/UserTransaction", UserTransaction.class);
        OutboxRelay sample = sampleRelay.relay().orElseThrow(() -> new AssertionError("the sample's relay is not running"));

        Await.until(PATIENCE, this::pending, n -> n == 0, "the sample's own events to be published before its relay pauses");
        sample.pause();
        Results results = new Results();
        results.environment("part: in-server, the drain into WildFly's own JMS broker (section 2 inside the server), size "
                + size.name() + ", runs per figure: " + size.runs() + ", backlog: " + size.backlog() + " events");
        String home = System.getProperty("jboss.home.dir", "");
        results.environment("server: " + (home.isEmpty() ? "WildFly" : Path.of(home).getFileName()) + ", Java "
                + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors() + " cores; started "
                + Instant.now());
        results.environment("broker: the server's embedded ActiveMQ Artemis, persistent journal; queue " + QUEUE
                + " (no consumer during the drain); both relays send through " + factoryName);
        results.environment("baseline: the reference article's algorithm (FetchOutboxBatch LIMIT " + BASELINE_BATCH
                + " FOR UPDATE SKIP LOCKED in a transaction held across the sends, one MarkOutboxProcessed per row, one "
                + "non-transacted persistent send per message); ee-outbox: OutboxRelay, its defaults (batch-size "
                + RelaySettings.RECOMMENDED_BATCH_SIZE + "), NOTIFY off, the shipped JmsPublisher in one JTA transaction per "
                + "batch; the relay's non-JTA data source and the default managed executors");
        long started = System.nanoTime();
        boolean stoppedEarly = false;
        try {
            drainQueue(0, Set.of()); // a queue left over from an earlier, interrupted run
            List<Double> producerLimit = new ArrayList<>();
            for (int run = 1; run <= size.runs(); run++) {
                producerLimit.add(producers(size.producing()));
            }
            results.figure(SECTION, PRODUCER_LIMIT, "throughput", "tx/s", producerLimit);
            double producers = results.find(SECTION, PRODUCER_LIMIT, "throughput").median();
            for (int instances : new int[] {1, 2}) {
                String prefix = "persistent JMS in WildFly, " + instances + (instances == 1 ? " instance: " : " instances: ");
                List<Double> baselines = new ArrayList<>();
                List<Double> relays = new ArrayList<>();
                List<Double> ratios = new ArrayList<>();
                List<Double> versusProducers = new ArrayList<>();
                for (int run = 1; run <= size.runs(); run++) {
                    String label = instances + (instances == 1 ? " instance" : " instances") + ", run " + run;
                    // alternate which goes first from run to run, so that neither always meets a warmer machine
                    boolean baselineFirst = run % 2 == 1;
                    Drain baseline = null;
                    Drain relay = null;
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn == 0) == baselineFirst) {
                            baseline = baseline(size, instances, relayFactory, transaction, "baseline " + label, results);
                        } else {
                            relay = relay(size, instances, relayFactory, transaction, "ee-outbox " + label, results);
                        }
                    }
                    baselines.add(baseline.eventsPerSecond());
                    relays.add(relay.eventsPerSecond());
                    ratios.add(relay.eventsPerSecond() / baseline.eventsPerSecond());
                    versusProducers.add(relay.eventsPerSecond() / producers);
                    if (instances == 1 && run == 1) {
                        results.note(SECTION, String.format(Locale.ROOT, "Broker time, 1 instance, run 1: the baseline %.2f ms "
                                + "per send, ee-outbox %.2f ms per batch (one JTA transaction)", baseline.brokerMillisPerCall(),
                                relay.brokerMillisPerCall()));
                    }
                    if (baseline.done() < size.backlog()) {
                        stoppedEarly = true;
                        results.note(SECTION, "The baseline, " + label + ": " + (baseline.capped() ? "timed for its first "
                                + size.baselineCap().toSeconds() + " s" : "some of its sends failed") + " (" + baseline.done()
                                + " events published); an untimed ee-outbox relay published the rest before the delivery "
                                + "check.");
                    }
                }
                results.figure(SECTION, prefix + "reference algorithm (baseline)", "drain rate", "events/s", baselines);
                results.figure(SECTION, prefix + "ee-outbox relay", "drain rate", "events/s", relays);
                results.figure(SECTION, prefix + "ratio ee-outbox / baseline", "ratio", "x", ratios);
                results.figure(SECTION, prefix + "ratio ee-outbox / the sample's producers (median)", "ratio", "x",
                        versusProducers);
                results.target(new Results.Target("drain into WildFly's JMS vs baseline, " + instances + " instance(s)",
                        results.find(SECTION, prefix + "ratio ee-outbox / baseline", "ratio").median(), 5, true, "x",
                        "same run, same broker"));
                results.target(new Results.Target("drain into WildFly's JMS vs the sample's producer limit, " + instances
                        + " relay(s)", results.find(SECTION, prefix + "ratio ee-outbox / the sample's producers (median)",
                        "ratio").median(), 2, true, "x", "OrderService.create from " + PRODUCERS + " threads, an upper bound"));
            }
        } finally {
            try {
                deleteBenchmarkRows();
                settle();
            } finally {
                sample.resume();
            }
        }
        if (stoppedEarly) {
            results.note(SECTION, "A baseline that stopped early was timed over the start of its backlog, ee-outbox over the "
                    + "whole of it (when the broker already pages to disk, past 10 MiB): the ratios lean the baseline's way.");
        }
        results.note(SECTION, "Duplicates: the baseline sets _AMQ_DUPL_ID to the event id (the broker drops a repeated send);"
                + " the relay's batches do not (docs/decisions/0008), so the checks count every repeat of the relay's.");
        results.environment(String.format(Locale.ROOT, "the in-server part took %.0f s", (System.nanoTime() - started) / 1e9));
        System.out.println(results.markdown());
        String out = System.getProperty("bench.in-server.out", "").trim();
        if (!out.isEmpty() && !out.startsWith("${")) {
            results.write(Path.of(out));
        }

        for (Results.Check c : results.checks()) {
            assertTrue(c.passed(), "an event was lost, or something else was published: " + c);
        }
        assertEquals(4 * size.runs(), results.checks().size(), "every drain was checked");
    }

    // ------------------------------------------------------------------------------------------ producers

    private static final int PRODUCERS = 8;
    private static final String PRODUCER_LIMIT = "the sample's producers, " + PRODUCERS
            + " threads calling OrderService.create, NOTIFY trigger off: the producer limit";

    /**
     * The sample's producer limit: {@value #PRODUCERS} threads calling {@link OrderService#create} (an order
     * and its outbox event in one container-managed transaction) back to back for {@code duration}; returns
     * transactions per second. The NOTIFY trigger is off meanwhile, as in the benchmark's section 1 (the paused
     * sample relay may still be registered as waiting, and would make every commit notify). The orders and their
     * events are deleted afterwards (the sample's relay is paused, so none of them was published).
     */
    private double producers(Duration duration) throws Exception {
        notifyTrigger(false);
        try {
            return produce(duration);
        } finally {
            notifyTrigger(true);
        }
    }

    private void notifyTrigger(boolean on) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE outbox_events " + (on ? "ENABLE" : "DISABLE") + " TRIGGER outbox_insert_notify");
        }
    }

    private double produce(Duration duration) throws Exception {
        String customer = "benchmark-" + UUID.randomUUID();
        AtomicLong committed = new AtomicLong();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + duration.toNanos();
        List<Thread> started = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < PRODUCERS; i++) {
            Thread t = threads.newThread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        orders.create(customer, new BigDecimal("149.90"));
                        committed.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            started.add(t);
            t.start();
        }
        for (Thread t : started) {
            t.join(duration.toMillis() + PATIENCE.toMillis());
            if (t.isAlive()) {
                throw new AssertionError("a producer thread still runs " + PATIENCE.toSeconds() + " s after its time");
            }
        }
        double rate = committed.get() / ((System.nanoTime() - t0) / 1e9);
        try (Connection c = dataSource.getConnection();
             PreparedStatement events = c.prepareStatement("DELETE FROM outbox_events WHERE aggregate_id IN "
                     + "(SELECT id::text FROM orders WHERE customer_id = ?)");
             PreparedStatement made = c.prepareStatement("DELETE FROM orders WHERE customer_id = ?")) {
            events.setString(1, customer);
            events.executeUpdate();
            made.setString(1, customer);
            made.executeUpdate();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a producer failed: " + failures.get(0), failures.get(0));
        }
        settle();
        return rate;
    }

    // ------------------------------------------------------------------------------------------ drains

    private Drain baseline(Size size, int instances, ConnectionFactory factory, UserTransaction transaction, String run,
                           Results results) throws Exception {
        List<UUID> ids = freshBacklog(size.backlog());
        PublishLog log = new PublishLog();
        long cap = System.nanoTime() + size.baselineCap().toNanos();
        long t0 = System.nanoTime();
        List<Future<Long>> done = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                done.add(workers.submit(() -> {
                    try (OneByOneJmsPublisher publisher = new OneByOneJmsPublisher(factory, queue)) {
                        return new ReferenceRelay(dataSource, new TrackingPublisher(publisher, log), BASELINE_BATCH,
                                MAX_ATTEMPTS).drain(() -> System.nanoTime() < cap);
                    }
                }));
            }
            for (Future<Long> f : done) {
                f.get(size.baselineCap().toSeconds() + PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            for (Future<Long> f : done) {
                f.cancel(true);
            }
        }
        long t1 = System.nanoTime();
        long left = pending();
        long published = size.backlog() - left;
        if (left > 0) {
            // publish the rest (rows after the cap, or whose send failed), untimed and logged apart, so that the
            // delivery check covers the whole backlog and the broker time is the baseline's own
            drainWithRelays(1, factory, transaction, new PublishLog(), left, size.drainPatience());
        }
        results.check(check(run, ids));
        return new Drain(published / ((t1 - t0) / 1e9), published, t1 >= cap, log.meanCallMillis());
    }

    private Drain relay(Size size, int instances, ConnectionFactory factory, UserTransaction transaction, String run,
                        Results results) throws Exception {
        List<UUID> ids = freshBacklog(size.backlog());
        PublishLog log = new PublishLog();
        long t0 = System.nanoTime();
        long t1 = drainWithRelays(instances, factory, transaction, log, size.backlog(), size.drainPatience());
        results.check(check(run, ids));
        return new Drain(size.backlog() / ((t1 - t0) / 1e9), size.backlog(), false, log.meanCallMillis());
    }

    /**
     * Starts {@code instances} ee-outbox relays (the library's defaults, batch-size 500 as in the benchmark's other
     * drains, NOTIFY off) publishing with the shipped JMS publisher in a JTA transaction per batch, waits
     * until they have completed {@code expected} events, and stops them. Returns when ({@code System.nanoTime()})
     * the last of those events was completed.
     */
    private long drainWithRelays(int instances, ConnectionFactory factory, UserTransaction transaction, PublishLog log,
                                 long expected, Duration patience) throws Exception {
        AtomicLong completed = new AtomicLong();
        AtomicLong reachedAt = new AtomicLong();
        CountDownLatch reached = new CountDownLatch(1);
        RelayListener counter = new RelayListener() {
            @Override
            public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
                if (completed.addAndGet(published) >= expected && reachedAt.compareAndSet(0, System.nanoTime())) {
                    reached.countDown();
                }
            }
        };
        List<OutboxRelay> relays = new ArrayList<>();
        List<JmsPublisher> publishers = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                JmsPublisher jms = new JmsPublisher(factory, queue, QUEUE, new LocalOrJtaBatch(factory, "the relay's factory", transaction));
                publishers.add(jms);
                Publisher tracked = new TrackingPublisher(jms, log);
                relays.add(OutboxRelay.builder()
                        .config(RelayConfig.builder().set(RelaySettings.NAME, "benchmark-relay-" + (i + 1)).set(RelaySettings.NOTIFY_ENABLED, false)
                                .set(RelaySettings.BATCH_SIZE, RelaySettings.RECOMMENDED_BATCH_SIZE).build())
                        .dataSource(dataSource)
                        .executor(scheduler)
                        .publisher(tracked)
                        .listener(counter)
                        .build());
            }
            for (OutboxRelay r : relays) {
                r.start();
            }
            if (!reached.await(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the relays published " + completed.get() + " of " + expected + " events in "
                        + patience.toSeconds() + " s");
            }
            return reachedAt.get();
        } finally {
            for (OutboxRelay r : relays) {
                r.stop(Duration.ofSeconds(10));
            }
            for (JmsPublisher p : publishers) {
                p.close();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ checks

    /** Consumes the queue and compares what arrived with the backlog. */
    private Results.Check check(String run, List<UUID> ids) throws JMSException, SQLException {
        Set<UUID> expected = new HashSet<>(ids);
        Map<UUID, Integer> arrived = drainQueue(ids.size(), expected);
        int missing = 0;
        for (UUID id : ids) {
            if (!arrived.containsKey(id)) {
                missing++;
            }
        }
        int unexpected = 0;
        long duplicates = 0;
        for (Map.Entry<UUID, Integer> e : arrived.entrySet()) {
            if (!expected.contains(e.getKey())) {
                unexpected++;
            }
            duplicates += e.getValue() - 1;
        }
        return new Results.Check(run + " (consumed from the broker)", ids.size(), arrived.size() - unexpected, missing,
                unexpected, duplicates, pending());
    }

    /**
     * Receives until the queue is quiet: 10 s without a message while fewer than {@code expected} distinct
     * expected events came, 500 ms once they all did (so that late duplicates are counted too).
     */
    private Map<UUID, Integer> drainQueue(int expected, Set<UUID> ids) throws JMSException {
        Map<UUID, Integer> arrived = new HashMap<>();
        int seen = 0;
        try (JMSContext context = consumerFactory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
             JMSConsumer consumer = context.createConsumer(queue)) {
            while (true) {
                Message m = consumer.receive(seen >= expected ? 500 : 10_000);
                if (m == null) {
                    return arrived;
                }
                UUID id = UUID.fromString(m.getStringProperty(MessageHeaders.EVENT_ID));
                if (arrived.merge(id, 1, Integer::sum) == 1 && ids.contains(id)) {
                    seen++;
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------ database

    private List<UUID> freshBacklog(int n) throws SQLException {
        deleteBenchmarkRows();
        long others = pending();
        if (others != 0) {
            // the benchmark's relays claim every due row: they would publish the sample's events to the wrong queue
            throw new AssertionError(others + " pending rows that are not the benchmark's: something else is writing events");
        }
        List<UUID> ids;
        try (Connection c = dataSource.getConnection()) {
            ids = Backlog.insert(c, n, AGGREGATE_TYPE);
        }
        settle();
        return ids;
    }

    private void deleteBenchmarkRows() throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement delete = c.prepareStatement("DELETE FROM outbox_events WHERE aggregate_type = ?")) {
            delete.setString(1, AGGREGATE_TYPE);
            delete.executeUpdate();
        }
    }

    /** VACUUM ANALYZE and, where the user may, a CHECKPOINT: no stale statistics or checkpoint in a timed drain. */
    private void settle() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("VACUUM (ANALYZE) outbox_events");
            try {
                s.execute("CHECKPOINT");
            } catch (SQLException notAllowed) {
                // not a superuser: the runs are a little noisier
            }
        }
    }

    private long pending() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static <T> T lookup(String name, Class<T> type) throws NamingException {
        return type.cast(InitialContext.doLookup(name));
    }
}
