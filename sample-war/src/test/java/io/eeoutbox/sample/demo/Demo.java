package io.eeoutbox.sample.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import org.apache.kafka.server.metrics.KafkaYammerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample, running: a PostgreSQL (embedded unless a JDBC URL is given), one application server
 * (WildFly, or Open Liberty with {@code -Ddemo.server=liberty}) with the sample WAR deployed, until
 * Ctrl+C. With the environment variable {@code DEMO_ONESHOT=1} it instead creates 100 orders over
 * HTTP, waits until the consumer has recorded all 100 events, prints
 * {@code demo: orders=100 published=100 consumed=100} and stops everything; when something is
 * missing after 120 s it says what and fails (so the Maven command exits non-zero).
 *
 * <p>Run by the sample-war profile {@code demo} (see the README); the servers are the ones the build
 * provisions under {@code sample-war/target/servers}. Settings (system properties):
 * {@code demo.server}, {@code demo.port-offset} (default 0: WildFly on 8080, Liberty on 9080),
 * {@code demo.publisher} ({@code jms}, the default: the server's own broker; {@code kafka}: a Kafka broker started
 * here, in-process, with the topic {@value #KAFKA_TOPIC}, the relay publishing to it and the sample's Kafka consumer
 * reading it),
 * {@code outbox.db.url}/{@code outbox.db.user}/{@code outbox.db.password} (or the environment variables
 * {@code OUTBOX_DB_URL}/{@code OUTBOX_DB_USER}/{@code OUTBOX_DB_PASSWORD}), and, set by the build,
 * {@code demo.war}, {@code demo.work-dir}, {@code wildfly.home}, {@code liberty.home}, {@code demo.liberty.server-xml}.
 */
public final class Demo {

    static final int ORDERS = 100;
    static final Duration ONESHOT_PATIENCE = Duration.ofSeconds(120);
    static final Duration STARTUP_PATIENCE = Duration.ofMinutes(5);
    /** The sample's {@code outbox.relay.kafka.topic}, passed to the server too so that the two cannot differ. */
    static final String KAFKA_TOPIC = "order-events";

    private static final String PGJDBC_CLEANER_TTL = "pgjdbc.config.cleanup.thread.ttl";
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    private DemoDatabase database;
    private DemoServer server;
    private EmbeddedKafka kafka;

    private volatile boolean stopRequested;

    /**
     * Runs the demo in the calling JVM (Maven's, through exec:java): Ctrl+C runs the shutdown hook,
     * which stops the server and the database before the JVM exits. Returns normally when done; throws
     * with the reason otherwise, so that the build, and the command, fail.
     */
    public static void main(String[] args) throws Exception {
        String oneShotSetting = System.getenv("DEMO_ONESHOT");
        run("1".equals(oneShotSetting) || "true".equalsIgnoreCase(oneShotSetting));
    }

    /**
     * The demo, until Ctrl+C or, {@code oneShot}, until the 100 orders went through. Everything it started (the
     * server, the broker, the database and their threads in this JVM) has stopped when it returns, so that exec:java
     * finds no thread of the demo left (DemoStopIT holds it to that).
     */
    static void run(boolean oneShot) throws Exception {
        // The PostgreSQL driver's cleaner thread (one per JVM, started by the first connection) ends by itself once
        // nothing is left to clean and it has idled this long (default 30 s): the demo closes every connection.
        if (System.getProperty(PGJDBC_CLEANER_TTL) == null) {
            System.setProperty(PGJDBC_CLEANER_TTL, "500");
        }
        Demo demo = new Demo();
        Thread hook = new Thread(() -> {
            demo.stopRequested = true;
            demo.shutdown();
        }, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            demo.start();
            if (oneShot) {
                demo.oneShot();
            } else {
                demo.printWelcome();
                demo.awaitServerExit();
                if (!demo.stopRequested) {
                    throw new IllegalStateException("demo: the server stopped by itself; see " + demo.server.logFile());
                }
            }
        } catch (Exception e) {
            if (!demo.stopRequested) {
                String reason = e instanceof IllegalStateException ? e.getMessage() : e.toString();
                System.err.println(reason.startsWith("demo: ") ? reason : "demo: FAILED: " + reason);
            }
            throw e;
        } finally {
            demo.shutdown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl+C: the hook is running
            }
        }
    }

    private void start() throws Exception {
        String serverName = System.getProperty("demo.server", "wildfly").trim().toLowerCase(Locale.ROOT);
        int offset = Integer.parseInt(System.getProperty("demo.port-offset", "0").trim());
        Path war = Path.of(required("demo.war"));
        Path work = Path.of(required("demo.work-dir"), serverName);
        server = switch (serverName) {
            case "wildfly" -> DemoServer.wildfly(Path.of(required("wildfly.home")), work, offset);
            case "liberty" -> DemoServer.liberty(Path.of(required("liberty.home")),
                    Path.of(required("demo.liberty.server-xml")), work, offset);
            default -> throw new IllegalStateException("-Ddemo.server=" + serverName + ": use wildfly or liberty");
        };
        if (!Files.isRegularFile(war)) {
            throw new IllegalStateException("no WAR at " + war + "; build it with the demo command from the README");
        }

        String publisher = System.getProperty("demo.publisher", "jms").trim().toLowerCase(Locale.ROOT);
        if (!publisher.equals("jms") && !publisher.equals("kafka")) {
            throw new IllegalStateException("-Ddemo.publisher=" + publisher + ": use jms or kafka");
        }

        String url = setting("outbox.db.url", "OUTBOX_DB_URL");
        say(url == null ? "starting an embedded PostgreSQL" : "using the database at " + url);
        database = DemoDatabase.start(url, setting("outbox.db.user", "OUTBOX_DB_USER"),
                setting("outbox.db.password", "OUTBOX_DB_PASSWORD"));
        say("database " + database.url() + " ready (ee-outbox's schema with its NOTIFY trigger, and the sample's)");

        if (publisher.equals("kafka")) {
            startKafka();
        }
        say("starting " + server.name() + " with the sample (console: " + work.resolve("console.log") + ")");
        long started = System.nanoTime();
        server.start(war, database);
        awaitDeployed();
        say(server.name() + " is up, the sample deployed, in " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");
    }

    /** A Kafka broker (an in-process KRaft node) with the sample's topic; the relay and the consumer are pointed at it. */
    private void startKafka() {
        say("starting an embedded Kafka broker (KRaft)");
        kafka = EmbeddedKafka.startInProcess();
        kafka.createTopic(KAFKA_TOPIC, 3, Map.of());
        say("Kafka " + kafka.bootstrapServers() + " ready, topic " + KAFKA_TOPIC);
        server.systemProperty("outbox.relay.publisher", "kafka")
                .systemProperty("outbox.relay.kafka.topic", KAFKA_TOPIC)
                .systemProperty("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
    }

    /** Waits until the application answers its own 404 for an unknown order (so JAX-RS, EJB and JPA are up). */
    private void awaitDeployed() throws Exception {
        server.awaitDeployed(STARTUP_PATIENCE);
    }

    private void printWelcome() {
        String base = server.baseUrl();
        System.out.println();
        System.out.println("  The ee-outbox sample runs on " + server.name() + ": " + base + "/api/orders");
        System.out.println();
        System.out.println("  Create an order (the answer carries its id):");
        System.out.println("    curl -i -H 'Content-Type: application/json' -d '{\"customerId\":\"c-42\",\"total\":12.50}' " + base + "/api/orders");
        System.out.println("  Pay it, read it, and see what the downstream consumer received through the outbox:");
        System.out.println("    curl -i -H 'Content-Type: application/json' -d '{\"status\":\"PAID\"}' " + base + "/api/orders/<id>/status");
        System.out.println("    curl " + base + "/api/orders/<id>");
        System.out.println("    curl " + base + "/api/projection/<id>");
        System.out.println("  The operator console (docs/console.md): " + base + "/outbox-admin/");
        System.out.println("    as outbox-admin / outbox-admin-1 (may act) or outbox-viewer / outbox-viewer-1 (reads)");
        System.out.println();
        if (kafka != null) {
            System.out.println("  Events go through Kafka: " + kafka.bootstrapServers() + ", topic " + KAFKA_TOPIC
                    + " (embedded, removed on exit)");
        }
        System.out.println("  Database: " + database.url() + " (user " + database.user() + ")"
                + (database.isEmbedded() ? ", embedded, removed on exit" : ""));
        System.out.println("  Server log: " + server.logFile());
        System.out.println("  Press Ctrl+C to stop.");
        System.out.println();
    }

    private void awaitServerExit() throws InterruptedException {
        while (server.isAlive() && !stopRequested) {
            Thread.sleep(500);
        }
    }

    /**
     * Creates {@value #ORDERS} orders over HTTP and waits until all their events were published and consumed.
     *
     * @throws IllegalStateException naming what is missing
     */
    private void oneShot() throws Exception {
        long deadline = System.nanoTime() + ONESHOT_PATIENCE.toNanos();
        List<UUID> ids = new ArrayList<>();
        for (int i = 1; i <= ORDERS; i++) {
            String body = "{\"customerId\":\"demo-" + i + "\",\"total\":" + i + ".50}";
            DemoHttp.Answer r = DemoHttp.postJson(server.baseUrl() + "/api/orders", body, Duration.ofSeconds(30));
            Matcher id = ID.matcher(r.body());
            if (r.status() != 201 || !id.find()) {
                throw new IllegalStateException("demo: FAILED: order " + i + " was refused: HTTP " + r.status() + " "
                        + r.body());
            }
            ids.add(UUID.fromString(id.group(1)));
        }
        Counts counts = counts(ids);
        while (!counts.complete(ORDERS) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            counts = counts(ids);
        }
        if (!counts.complete(ORDERS)) {
            throw new IllegalStateException("demo: FAILED after " + ONESHOT_PATIENCE.toSeconds() + " s: orders=" + counts.orders()
                    + " published=" + counts.published() + " consumed=" + counts.consumed() + " (of " + ORDERS
                    + "; published: outbox events marked processed, consumed: events in the consumer's projection); see "
                    + server.logFile());
        }
        System.out.println("demo: orders=" + counts.orders() + " published=" + counts.published() + " consumed=" + counts.consumed());
    }

    /** The created orders, their order.created events the relay published, and those the consumer recorded. */
    private record Counts(long orders, long published, long consumed) {
        boolean complete(int n) {
            return orders == n && published == n && consumed == n;
        }
    }

    private Counts counts(List<UUID> ids) throws SQLException {
        try (Connection c = database.connect()) {
            Array orderIds = c.createArrayOf("uuid", ids.toArray());
            Array aggregateIds = c.createArrayOf("varchar", ids.stream().map(UUID::toString).toArray());
            return new Counts(
                    count(c, "SELECT count(*) FROM orders WHERE id = ANY (?)", orderIds),
                    count(c, "SELECT count(*) FROM outbox_events WHERE aggregate_type = 'order' AND event_type = 'order.created'"
                            + " AND aggregate_id = ANY (?) AND processed_at IS NOT NULL", aggregateIds),
                    count(c, "SELECT count(*) FROM order_projection_events WHERE event_type = 'order.created'"
                            + " AND order_id = ANY (?)", orderIds));
        }
    }

    private static long count(Connection c, String sql, Array ids) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, ids);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Stops the server, then the Kafka broker and the embedded database; safe to call more than once (Ctrl+C runs it as a hook). */
    private synchronized void shutdown() {
        if (server != null) {
            if (server.isAlive()) {
                say("stopping " + server.name());
            }
            server.close();
        }
        if (kafka != null) {
            say("stopping the embedded Kafka broker");
            kafka.close();
            kafka = null;
            // The broker's meters tick on two threads of Yammer's JVM-wide registry, which the broker never stops
            // and which ignore interruption. A broker started later in this JVM gets new ones.
            KafkaYammerMetrics.defaultRegistry().shutdown();
        }
        if (database != null && database.isEmbedded()) {
            say("stopping the embedded PostgreSQL");
            database.close();
            database = null;
        }
    }

    private static void say(String line) {
        System.out.println("[demo] " + line);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set; run the demo through Maven"
                    + " (see the README)");
        }
        return value;
    }

    private static String setting(String property, String env) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(env);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }
}
