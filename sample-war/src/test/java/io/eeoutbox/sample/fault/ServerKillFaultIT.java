package io.eeoutbox.sample.fault;

import io.eeoutbox.sample.fault.harness.FaultSession;
import io.eeoutbox.sample.fault.harness.LoadClients;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.fault.harness.OutboxDb;
import io.eeoutbox.sample.fault.harness.Verdict;
import io.eeoutbox.sample.fault.harness.FaultScenario;
import io.eeoutbox.sample.fault.harness.FaultServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scenario 1, the server killed mid-load: while several HTTP clients create orders, the server's JVM
 * (WildFly, and Open Liberty when the build provisioned it; {@code -Dfault.servers} chooses) is killed with
 * SIGKILL at a random moment while the relay holds leased rows, and started again on the same
 * directories (Artemis journal or Liberty's messaging store, the transaction log). Every order acknowledged with 201 must have exactly
 * one {@code order.created} event, every event must be published, and the consumer must have applied
 * every event; the duplicates that reached the consumer (absorbed by its inbox) and the drain time
 * after the restart are printed.
 */
class ServerKillFaultIT extends FaultScenario {

    private static final int NUMBER = 1;
    private static final String NAME = "server killed mid-load";
    /** Rows leased by the killed relay wait this long before the restarted relay claims them again. */
    private static final String LEASE = "PT30S";

    // WildFly in the test command, both servers at soak size: Open Liberty's kills with leased rows are scenario 7's
    // (docs/fault-suite.md, "Scenarios")
    @ParameterizedTest(name = "{0}")
    @MethodSource("serverKinds")
    void everyAcknowledgedOrderIsPublishedOnceAndAppliedOnce(String kind, FaultSession session) {
        judge(session, new Verdict(NUMBER, NAME), kind, v -> run(kind, session, v));
    }

    private static String run(String kind, FaultSession session, Verdict v) throws Exception {
        String url = session.database("fault_s1_" + kind);
        OutboxDb db = new OutboxDb(url);
        db.createHookTables();
        FaultServer server = session.server(kind, kind + "-s1", session.observedWar("observed", List.of()), url,
                Map.of("outbox.relay.lease", LEASE));
        startAndCheck(server, v, "s1-sanity");

        int target = session.size().killOrders;
        Random random = new Random(session.seed());
        // the kill comes after 25..65 % of the orders, once the relay has published some, preferably
        // while it holds a batch (rows leased, not yet marked)
        int killAfter = target / 4 + random.nextInt(Math.max(1, target * 2 / 5));
        LoadClients load = new LoadClients(server::baseUri, session.size().clients, target, "s1").start();
        long loadStart = System.nanoTime();
        while (load.acknowledged() < killAfter || db.published() == 0) {
            if (System.nanoTime() - loadStart > Duration.ofMinutes(5).toNanos()
                    || (load.acknowledged() == 0 && System.nanoTime() - loadStart > Duration.ofSeconds(60).toNanos())) {
                throw new AssertionError("no progress before the kill: acknowledged " + load.acknowledged()
                        + ", published " + db.published() + ", answers " + load.answers());
            }
            Thread.sleep(20);
        }
        long leasedWait = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            while (System.nanoTime() < leasedWait) {
                try (ResultSet rs = st.executeQuery("SELECT 1 FROM outbox_events WHERE processed_at IS NULL"
                        + " AND claim_token IS NOT NULL LIMIT 1")) {
                    if (rs.next()) {
                        break;
                    }
                }
            }
        }
        server.kill();
        long killedAt = System.nanoTime();
        long seqAtKill = maxSeq(db);
        long[] atKill = leasedAndPending(db);
        v.figures().put("killed_after_acks", load.acknowledged())
                .put("killed_at", Duration.ofNanos(killedAt - loadStart))
                .put("pending_at_kill", atKill[1]).put("leased_at_kill", atKill[0]);
        // from the kill on: when is everything written before it published?
        java.util.concurrent.CompletableFuture<Duration> recovered = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return OutboxDb.await(Duration.ofMinutes(8), "the events written before the kill to be published",
                        () -> pendingUpTo(db, seqAtKill), n -> n == 0);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });

        server.restart();
        long restartedAt = System.nanoTime();
        v.figures().put("down", Duration.ofNanos(restartedAt - killedAt))
                .put("backlog_at_restart", pendingUpTo(db, seqAtKill));
        Duration recoveredIn = recovered.get();
        v.figures().put("recovered_in", recoveredIn)
                .put("drain_after_restart", Duration.ofNanos(Math.max(0, killedAt + recoveredIn.toNanos() - restartedAt)))
                .put("lease", LEASE);

        if (!load.awaitTarget(Duration.ofMinutes(10))) {
            v.fail("only " + load.acknowledged() + " of " + target + " orders acknowledged in 10 min");
        }
        OutboxDb.await(Duration.ofMinutes(5), "every event to be published", db::pending, n -> n == 0);
        OutboxDb.await(Duration.ofMinutes(5), "the consumer to apply every published event",
                db::publishedNotDelivered, n -> n == 0);

        List<String> acked = load.ackedIds();
        Map<String, Integer> events = db.eventCounts(OutboxDb.ORDER_CREATED, acked);
        long missing = events.values().stream().filter(n -> n == 0).count();
        long doubled = events.values().stream().filter(n -> n > 1).count();
        List<String> allOrders = db.aggregateIds(OutboxDb.ORDER_CREATED);
        long totalEvents = db.events();
        List<String> noOrder = db.missingFrom("orders", "id", acked);
        List<String> noProjection = db.missingFrom("order_projection", "order_id", acked);
        // and as a client sees it, for a sample of them
        OrdersApi api = new OrdersApi(server.baseUri());
        List<String> sample = acked.subList(0, Math.min(100, acked.size()));
        List<String> apiMissing = new java.util.ArrayList<>(OrdersApi.notAnswering(sample, api::getOrder, 200));
        apiMissing.addAll(OrdersApi.notAnswering(sample, api::getProjection, 200));
        long delivered = db.deliveredEvents();

        v.figures().put("orders_acked", acked.size()).put("http_attempts", load.attempts())
                .put("answers", load.answers()).put("orders_in_db", allOrders.size())
                .put("events", totalEvents).put("published", db.published()).put("dead", db.deadLetters())
                .put("delivered", delivered).put("relay_republished", db.extraPublishes())
                .put("duplicates_absorbed_by_inbox", db.duplicateDeliveries())
                .put("lost", missing + noProjection.size());
        v.expect("acknowledged orders without an order.created event", 0, missing)
                .expect("acknowledged orders with more than one order.created event", 0, doubled)
                .expect("orders in the database with more than one order.created event", allOrders.size(),
                        allOrders.stream().distinct().count())
                .expect("acknowledged orders without a row in orders", 0, noOrder.size())
                .expect("acknowledged orders missing from the consumer's order_projection", 0, noProjection.size())
                .expect("sampled orders that GET /api/orders/{id} or /api/projection/{id} does not find", 0, apiMissing.size())
                .expect("events not published", 0, db.pending())
                .expect("dead letters", 0, db.deadLetters())
                .expect("events the consumer applied", totalEvents, delivered);
        // the publish-log hook writes once per batch: a SIGKILL loses the rows of the batch in hand
        v.figures().put("publish_log_gap", db.publishedWithoutLog());
        v.noHeuristics(server);
        return server.product();
    }

    /** {leased, pending} right now. */
    private static long[] leasedAndPending(OutboxDb db) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE claim_token IS NOT NULL AND locked_until > now()),"
                     + " count(*) FROM outbox_events WHERE processed_at IS NULL")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private static long maxSeq(OutboxDb db) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(max(seq), 0) FROM outbox_events")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long pendingUpTo(OutboxDb db, long seq) throws java.sql.SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND seq <= " + seq)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
