package io.eeoutbox.sample.fault;

import io.eeoutbox.sample.fault.harness.FaultScenario;
import io.eeoutbox.sample.fault.harness.FaultServer;
import io.eeoutbox.sample.fault.harness.FaultSession;
import io.eeoutbox.sample.fault.harness.LoadClients;
import io.eeoutbox.sample.fault.harness.OnePhaseHazards;
import io.eeoutbox.sample.fault.harness.OutboxDb;
import io.eeoutbox.sample.fault.harness.Sanity;
import io.eeoutbox.sample.fault.harness.Verdict;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scenario 3, a database restart: the suite's own PostgreSQL is stopped (a fast shutdown: every
 * connection is cut) while the relay runs and clients keep sending orders, and started again on the
 * same data directory and port after {@code size.databaseOutage}. Requests during the outage must fail
 * with 503 within a bounded time (no hang, no 500); the relay and its LISTEN connection must come back
 * by themselves; no acknowledged order may be lost, and every event must be published and applied (the consumer's
 * deliveries fail while the database is down: the broker must keep redelivering, not give up on them). On WildFly
 * and, when the build provisioned it, Open Liberty.
 */
class DatabaseRestartFaultIT extends FaultScenario {

    private static final int NUMBER = 3;
    private static final String NAME = "database restart";
    /** A request during the outage must be answered within this (the datasources wait 5 s at most). */
    private static final Duration BOUND = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}")
    @MethodSource("crashServerKinds")
    void requestsFailFastAndEverythingRecoversByItself(String kind, FaultSession session) {
        judge(session, new Verdict(NUMBER, NAME), kind, v -> run(kind, session, v));
    }

    private static String run(String kind, FaultSession session, Verdict v) throws Exception {
        String url = session.database("fault_s3_" + kind);
        OutboxDb db = new OutboxDb(url);
        db.createHookTables();
        FaultServer server = session.server(kind, kind + "-s3", session.observedWar("observed", List.of()), url, Map.of());
        try {
            return restart(kind, session, v, db, server);
        } finally {
            server.close(); // the other server's part stops the database without this one running
        }
    }

    private static String restart(String kind, FaultSession session, Verdict v, OutboxDb db, FaultServer server)
            throws Exception {
        startAndCheck(server, v, "s3-sanity");
        int listenerBefore = listener(db);
        v.check(listenerBefore > 0, "the relay has no LISTEN connection before the outage");

        LoadClients load = new LoadClients(server::baseUri, 4, Integer.MAX_VALUE, "s3")
                .pauseBetween(Duration.ofMillis(20)).start();
        // Traffic flowing before the fault: orders acknowledged, not a fixed time.
        OutboxDb.await(Duration.ofSeconds(60), "orders acknowledged before the outage", load::acknowledged, n -> n >= 100);

        Duration outage = session.size().databaseOutage;
        session.postgres().stop();
        long down = System.nanoTime();
        Thread.sleep(outage.toMillis());
        session.postgres().start();
        long up = System.nanoTime();

        // the relay's LISTEN connection: a new backend listening again
        Duration listenBack = OutboxDb.await(Duration.ofMinutes(2), "the relay to LISTEN again",
                () -> listener(db), pid -> pid > 0 && pid != listenerBefore);
        // a request during the outage was answered 503 within the bound; none hung, none was a 500
        Map<String, Long> during = new TreeMap<>();
        long slowest = 0;
        for (LoadClients.Answer a : load.answersSentBetween(down, up)) {
            during.merge(a.kind(), 1L, Long::sum);
            slowest = Math.max(slowest, a.tookNanos());
        }
        // the first order acknowledged after the outage, all the way to the consumer
        Duration firstAfter = Sanity.orderFlows(server, "s3-after");
        long firstAfterUp = System.nanoTime() - up;
        Thread.sleep(3000);
        load.close();

        Duration drain = OutboxDb.await(Duration.ofMinutes(5), "every event to be published", db::pending, n -> n == 0);
        Duration applied;
        try {
            applied = OutboxDb.await(Duration.ofMinutes(3), "the consumer to apply every published event",
                    db::publishedNotDelivered, n -> n == 0);
        } catch (AssertionError e) {
            applied = null;
        }
        long dlq = kind.equals("wildfly") ? dlqMessages(server) : -1;
        List<String> acked = load.ackedIds();
        Map<String, Integer> events = db.eventCounts(OutboxDb.ORDER_CREATED, acked);
        long missing = events.values().stream().filter(n -> n == 0).count();
        long not503 = during.entrySet().stream()
                .filter(e -> !e.getKey().equals("503") && !e.getKey().equals("201"))
                .mapToLong(Map.Entry::getValue).sum();
        // also a request in flight when the database stopped (sent before it): its commit cut, it must say 503 too
        long errorsOverall = load.answers().entrySet().stream()
                .filter(e -> e.getKey().startsWith("5") && !e.getKey().equals("503"))
                .mapToLong(e -> e.getValue().longValue()).sum();

        v.figures().put("db_down", outage).put("requests_during_outage", during.values().stream().mapToLong(Long::longValue).sum())
                .put("answers_during_outage", during).put("slowest_during_outage", Duration.ofNanos(slowest))
                .put("listen_back_after", listenBack)
                .put("first_order_after_restart_end_to_end", firstAfter)
                .put("orders_acked", acked.size()).put("answers", load.answers())
                .put("events", db.events()).put("published", db.published()).put("dead", db.deadLetters())
                .put("delivered", db.deliveredEvents()).put("not_applied", db.publishedNotDelivered())
                .put("duplicates_absorbed_by_inbox", db.duplicateDeliveries())
                .put("broker_dlq_messages", dlq < 0 ? "n/a" : dlq)
                .put("lost", missing);
        v.check(during.getOrDefault("503", 0L) > 0, "no request during the outage was answered 503: " + during)
                .expect("answers during the outage other than 503 (or a 201 that committed before the stop)", 0, not503)
                .expect("5xx answers other than 503 in the whole scenario", 0, errorsOverall)
                .check(slowest <= BOUND.toNanos(), "a request during the outage took "
                        + Duration.ofNanos(slowest).toMillis() + " ms (bound " + BOUND.toSeconds() + " s)")
                .expect("acknowledged orders without an order.created event", 0, missing)
                .expect("events not published", 0, db.pending())
                .expect("dead letters", 0, db.deadLetters())
                .check(applied != null, db.publishedNotDelivered() + " published events never reached the consumer"
                        + " within 3 min (a broker that gave up redelivering while the database was down?)")
                .check(firstAfterUp < Duration.ofMinutes(2).toNanos(), "the first order after the restart took too long");
        v.figures().put("drain", drain);
        heuristicsLeftBehind(kind, server, v);
        return server.product();
    }

    /**
     * Cutting the database under running transactions can cut a one-phase commit: its outcome is unknown to the
     * server, which rightly logs a heuristic hazard (the inbox makes either outcome safe: a delivery whose database
     * work did commit is absorbed when it comes again). Open Liberty ends a message-driven bean's hazard with a
     * rollback of the message ({@link OnePhaseHazards}). What must not be left is a transaction for an operator:
     * none with a heuristic participant in WildFly's log store, and on Open Liberty none requiring recovery when the
     * server stops (WTRN0105I).
     */
    private static void heuristicsLeftBehind(String kind, FaultServer server, Verdict v) throws java.io.IOException {
        FaultServer.Heuristics h = server.heuristics();
        OnePhaseHazards sorted = OnePhaseHazards.sort(h.logLines());
        v.figures().put("heuristic_hazards_logged_" + server.instance(), sorted.hazards());
        if (sorted.rolledBackAfterHazard() > 0) {
            v.figures().put("messages_rolled_back_after_hazard_" + server.instance(), sorted.rolledBackAfterHazard());
        }
        v.check(sorted.others().isEmpty(), "heuristic outcomes other than a one-phase commit's hazard on "
                + server.instance() + ": " + sorted.others());
        if (kind.equals("wildfly")) {
            v.expect("heuristic participants in WildFly's log store", 0, h.inLogStore());
        } else {
            server.close();
            boolean clean = java.nio.file.Files.readAllLines(server.serverLog(), java.nio.charset.StandardCharsets.ISO_8859_1)
                    .stream().anyMatch(line -> line.contains("WTRN0105I"));
            v.figures().put("no_transaction_to_recover_at_stop", clean);
            v.check(clean, "Open Liberty did not stop with \"no transactions requiring recovery\" (WTRN0105I)");
        }
    }

    /** Messages in WildFly's dead letter queue (jms.queue.DLQ): deliveries the broker gave up on; -1 if unknown. */
    static long dlqMessages(FaultServer server) {
        return server.management().number("count-messages", Map.of(), null,
                "subsystem", "messaging-activemq", "server", "default", "jms-queue", "DLQ");
    }

    /** The backend pid of a connection to this database whose last statement was a LISTEN; 0 when none. */
    private static int listener(OutboxDb db) throws java.sql.SQLException {
        try (Connection c = db.connect();
             PreparedStatement s = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid() ORDER BY backend_start DESC LIMIT 1");
             ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }
}
