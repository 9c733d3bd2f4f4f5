package io.eeoutbox.sample.fault;

import io.eeoutbox.sample.fault.harness.FaultScenario;
import io.eeoutbox.sample.fault.harness.FaultServer;
import io.eeoutbox.sample.fault.harness.FaultSession;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.fault.harness.OutboxDb;
import io.eeoutbox.sample.fault.harness.RelayJmx;
import io.eeoutbox.sample.fault.harness.Sanity;
import io.eeoutbox.sample.fault.harness.Verdict;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Scenario 5, two servers on one outbox: WildFly and Open Liberty (two WildFly instances when the build
 * did not provision Liberty) run the sample on the same database, both relays in ordered mode. Orders
 * are created and moved through PAID, SHIPPED and DELIVERED, each request to the other server than the
 * last, so that one order's events are written through both. While both are alive no event may be
 * published by both relays, every event must be published, and each order's events must be published
 * in write order. Then orders go through WildFly only, and WildFly is killed with SIGKILL while rows are
 * leased: Liberty must publish them once their lease ({@value #LEASE}) has run out, keep the order of
 * each order's events, and go on serving alone. Last, WildFly starts again on its own directories: the
 * messages its broker held at the kill must be applied within 60 s, every event applied, and neither
 * server may hold or have logged a heuristic outcome (WildFly's log store probed once it is back).
 */
class TwoServersFaultIT extends FaultScenario {

    private static final int NUMBER = 5;
    private static final String NAME = "two servers, one outbox";
    private static final String LEASE = "PT15S";
    private static final String HEARTBEAT = "PT1S";
    private static final List<String> LIFE = List.of("PAID", "SHIPPED", "DELIVERED");

    @Test
    void noEventIsPublishedTwiceAndTheSurvivorTakesOver(FaultSession session) {
        judge(session, new Verdict(NUMBER, NAME), "WildFly + Open Liberty", v -> run(session, v));
    }

    private static String run(FaultSession session, Verdict v) throws Exception {
        String url = session.database("fault_s5");
        OutboxDb db = new OutboxDb(url);
        db.createHookTables();
        var war = session.observedWar("observed", List.of());
        Map<String, String> relay = Map.of("outbox.relay.lease", LEASE, "outbox.relay.ordered", "true",
                "outbox.relay.fleet.heartbeat-interval", HEARTBEAT);
        FaultServer a = session.wildfly("wildfly-s5", war, url, relay);
        FaultServer b = session.libertyOrNull("liberty-s5", war, url, relay);
        if (b == null) {
            b = session.wildfly("wildfly-s5b", war, url, relay);
        }
        FaultServer second = b;
        CompletableFuture<Void> startA = CompletableFuture.runAsync(() -> start(a));
        CompletableFuture<Void> startB = CompletableFuture.runAsync(() -> start(second));
        startA.join();
        startB.join();
        String servers = a.product() + " + " + b.product();
        v.figures().put("start_" + a.instance(), a.lastStartDuration()).put("start_" + b.instance(), b.lastStartDuration())
                .put("lease", LEASE)
                .put("first_order_end_to_end_a", Sanity.orderFlows(a, "s5-sanity-a"))
                .put("first_order_end_to_end_b", Sanity.orderFlows(b, "s5-sanity-b"));

        // phase 1: both alive, each order's requests alternating between the two servers
        int orders = session.size().twoServerOrders;
        OrdersApi[] both = {new OrdersApi(a.baseUri()), new OrdersApi(b.baseUri())};
        Queue<String> ids = new ConcurrentLinkedQueue<>();
        AtomicInteger refused = new AtomicInteger();
        long t0 = System.nanoTime();
        runLifecycles(orders, "s5", i -> both[i % 2], i -> both[(i + 1) % 2], ids, refused, new AtomicBoolean());
        Duration written = Duration.ofNanos(System.nanoTime() - t0);
        OutboxDb.await(Duration.ofMinutes(5), "every event to be published", db::pending, n -> n == 0);
        OutboxDb.await(Duration.ofMinutes(5), "both consumers to apply every event", db::publishedNotDelivered, n -> n == 0);
        Map<String, Long> byRelay = db.countBy("fault_publish_log", "relay");
        long twice = db.publishedByTwoRelays();
        long extra = db.extraPublishes();
        long orderViolations = db.publishOrderViolations();
        long completionViolations = db.completionOrderViolations();
        long consumerOutOfOrder = single(db, "SELECT count(*) FROM order_projection_events WHERE revision <> position");
        v.figures().put("orders", ids.size()).put("events", db.events()).put("written_in", written)
                .put("refused_requests", refused.get()).put("published_by_relay", byRelay)
                .put("published_by_both", twice).put("published_twice", extra)
                .put("publish_order_violations", orderViolations)
                .put("consumer_applied_out_of_order", consumerOutOfOrder);
        v.expect("requests refused while both servers were up", 0, refused.get())
                .expect("events published by both relays while both were alive", 0, twice)
                .expect("events published more than once while both were alive", 0, extra)
                .expect("events of an order published before an earlier one (ordered mode)", 0, orderViolations)
                .expect("events of an order completed before an earlier one (ordered mode)", 0, completionViolations)
                .check(byRelay.getOrDefault(a.instance(), 0L) > 0 && byRelay.getOrDefault(b.instance(), 0L) > 0,
                        "one relay published nothing: " + byRelay)
                .expect("events the consumers applied", db.events(), db.deliveredEvents());

        fleet(session, db, a, b, both, v);

        // phase 2: orders through WildFly (its own commits wake its relay first, so it claims most of
        // them); WildFly killed with SIGKILL while rows are leased; Liberty must take them over
        Queue<String> later = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        OrdersApi victim = both[0];
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
            try {
                runLifecycles(orders, "s5k", i -> victim, i -> victim, later, new AtomicInteger(), stop);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long waitStart = System.nanoTime();
        List<String> leasedAtKill = List.of();
        while (System.nanoTime() - waitStart < Duration.ofMinutes(2).toNanos()) {
            if (later.size() >= 20) {
                leasedAtKill = leasedIds(db);
                if (!leasedAtKill.isEmpty()) {
                    break;
                }
            }
            Thread.sleep(2);
        }
        a.kill();
        long killedAt = System.nanoTime();
        stop.set(true);
        if (leasedAtKill.isEmpty()) {
            leasedAtKill = leasedIds(db);
        }
        long seqAtKill = single(db, "SELECT coalesce(max(seq), 0) FROM outbox_events");
        long extraBefore = db.extraPublishes();
        Duration takeover = OutboxDb.await(Duration.ofMinutes(3), "the survivor to publish every event written before the kill",
                () -> single(db, "SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND seq <= " + seqAtKill),
                n -> n == 0);
        load.join();
        // the killed relay in the fleet: missing once unseen for three heartbeats (the takeover took a lease, 15 s),
        // read with the statement pause all reads acknowledgements with; the survivor is not
        org.postgresql.ds.PGSimpleDataSource fleetSource = new org.postgresql.ds.PGSimpleDataSource();
        fleetSource.setUrl(db.url());
        fleetSource.setUser(io.eeoutbox.sample.fault.harness.FaultPostgres.USER);
        fleetSource.setPassword(io.eeoutbox.sample.fault.harness.FaultPostgres.PASSWORD);
        Map<String, Boolean> missing = new java.util.TreeMap<>();
        for (io.eeoutbox.relay.store.FleetStore.Member m : new io.eeoutbox.relay.store.FleetStore(fleetSource).members()) {
            missing.put(m.who().relayName(), m.seen().missing());
        }
        v.figures().put("fleet_missing_after_kill", missing);
        v.check(Boolean.TRUE.equals(missing.get(a.instance())) && Boolean.FALSE.equals(missing.get(b.instance())),
                "after the kill the fleet should show " + a.instance() + " missing and " + b.instance() + " not: " + missing);
        // the survivor goes on alone
        Queue<String> afterKill = new ConcurrentLinkedQueue<>();
        AtomicInteger refusedAfter = new AtomicInteger();
        runLifecycles(Math.max(20, orders / 10), "s5s", i -> both[1], i -> both[1], afterKill, refusedAfter,
                new AtomicBoolean());
        OutboxDb.await(Duration.ofMinutes(3), "every event to be published", db::pending, n -> n == 0);
        long takenOver = publishedBy(db, leasedAtKill, b.instance());
        long orderViolationsAfter = db.publishOrderViolations();
        v.figures().put("killed_after", Duration.ofNanos(killedAt - waitStart))
                .put("leased_at_kill", leasedAtKill.size()).put("taken_over_by_survivor", takenOver)
                .put("takeover_in", takeover)
                .put("orders_before_kill", later.size()).put("orders_after_kill", afterKill.size())
                .put("published_twice_after_kill", db.extraPublishes() - extraBefore)
                .put("published_by_relay_total", db.countBy("fault_publish_log", "relay"))
                .put("stranded_in_killed_broker", db.publishedNotDelivered())
                .put("publish_order_violations_after_kill", orderViolationsAfter)
                .put("dead", db.deadLetters());
        v.expect("events not published after the kill", 0, db.pending())
                .expect("dead letters", 0, db.deadLetters())
                .expect("requests refused by the survivor", 0, refusedAfter.get())
                .expect("events of an order published out of order across the takeover", 0, orderViolationsAfter)
                .check(!leasedAtKill.isEmpty(), "no row was leased when WildFly was killed (nothing to take over)")
                .check(takeover.compareTo(Duration.parse(LEASE).plusSeconds(60)) < 0,
                        "the takeover took " + takeover + ", more than the lease plus a minute");

        // phase 3: WildFly started again on its own directories, as an operator would after a crash: the messages
        // its broker held at the kill reach its consumer by themselves (its transaction recovery finishes what the
        // kill cut), and its log store is probed
        a.restart();
        Duration strandedApplied = OutboxDb.await(Duration.ofMinutes(4),
                "the events WildFly's broker held at the kill to be applied after its restart", db::publishedNotDelivered,
                n -> n == 0);
        v.figures().put("restart_" + a.instance(), a.lastStartDuration())
                .put("stranded_applied_after_restart", strandedApplied)
                .put("events_total", db.events()).put("applied_total", db.deliveredEvents());
        v.expect("events not applied after WildFly's restart", 0, db.publishedNotDelivered())
                .expect("events the consumers applied, in all", db.events(), db.deliveredEvents())
                .check(strandedApplied.compareTo(Duration.ofSeconds(60)) < 0,
                        "the events WildFly's broker held were applied " + strandedApplied + " after its restart (bound 60 s)");
        v.noHeuristics(a);
        v.noHeuristics(b);
        return servers;
    }

    /**
     * Phase 1b, the fleet (schema V13, docs/operations.md "Every relay of the outbox"): WildFly's relay shows both relays
     * (itself, and the other server's as remote); pause all, asked through WildFly's MBean, is acknowledged by both, and
     * neither publishes after it while orders keep coming through both servers (counted in the publish log, and no row
     * completed after the acknowledgement); resume all through the same MBean, and both drain the backlog.
     */
    private static void fleet(FaultSession session, OutboxDb db, FaultServer a, FaultServer b, OrdersApi[] both,
                              Verdict v) throws Exception {
        List<Map<String, String>> view = List.of();
        for (long end = System.nanoTime() + Duration.ofSeconds(30).toNanos(); System.nanoTime() < end; Thread.sleep(500)) {
            view = RelayJmx.call(a, (mbeans, relay) -> fleetView(mbeans.getAttribute(relay, "Fleet")));
            if (view.size() == 2 && view.stream().allMatch(r -> r.get("state").equals("running"))) {
                break;
            }
        }
        v.check(view.stream().anyMatch(r -> r.get("relay").equals(b.instance()) && r.get("self").equals("false")),
                "WildFly's fleet view (MBean) lacks the other server's relay: " + view);
        for (FaultServer[] pair : new FaultServer[][] {{a, b}, {b, a}}) { // each server's console shows the other's relay
            String seen = consoleFleet(pair[0]);
            v.figures().put("fleet_in_console_of_" + pair[0].instance(), seen);
            v.check(seen.contains("\"name\":\"" + pair[1].instance() + "\"") && seen.contains("\"local\":false"),
                    pair[0].instance() + "'s console does not show " + pair[1].instance() + "'s relay as remote: " + seen);
        }
        Map<String, Long> publishedBefore = db.countBy("fault_publish_log", "relay");
        String answer = RelayJmx.call(a, (mbeans, relay) -> (String) mbeans.invoke(relay, "pauseAll",
                new Object[] {"fault-suite"}, new String[] {String.class.getName()}));
        long acknowledgedAt = single(db, "SELECT (extract(epoch FROM now()) * 1000000)::bigint");
        Map<String, Long> publishedAtPause = db.countBy("fault_publish_log", "relay");
        Queue<String> paused = new ConcurrentLinkedQueue<>();
        AtomicInteger refusedPaused = new AtomicInteger();
        runLifecycles(12, "s5p", i -> both[i % 2], i -> both[(i + 1) % 2], paused, refusedPaused, new AtomicBoolean());
        long window = acknowledgedAt + Duration.parse(HEARTBEAT).multipliedBy(5).toNanos() / 1000; // five heartbeats
        OutboxDb.await(Duration.ofSeconds(60), "both relays to beat five heartbeats past the acknowledgement",
                () -> single(db, "SELECT count(*) FROM outbox_relays WHERE last_seen < to_timestamp(" + window
                        + " / 1000000.0)"), n -> n == 0);
        long pendingWhilePaused = db.pending();
        long completedAfter = single(db, "SELECT count(*) FROM outbox_events WHERE processed_at > to_timestamp("
                + acknowledgedAt + " / 1000000.0)");
        Map<String, Long> publishedWhilePaused = db.countBy("fault_publish_log", "relay");
        String resumed = RelayJmx.call(a, (mbeans, relay) -> (String) mbeans.invoke(relay, "resumeAll",
                new Object[] {"fault-suite"}, new String[] {String.class.getName()}));
        Duration drained = OutboxDb.await(Duration.ofMinutes(2), "the backlog of the pause to be published", db::pending,
                n -> n == 0);
        v.figures().put("fleet_view_of_wildfly", view.stream().map(r -> r.get("relay") + ":" + r.get("state")).toList())
                .put("pause_all", answer).put("published_before_pause", publishedBefore)
                .put("pending_while_paused", pendingWhilePaused).put("resume_all", resumed)
                .put("drained_after_resume_in", drained);
        v.check(answer.contains(a.instance()) && answer.contains(b.instance()) && !answer.contains("not acknowledged"),
                        "pause all was not acknowledged by both relays: " + answer)
                .expect("requests refused while the fleet was paused", 0, refusedPaused.get())
                .expect("rows completed after the fleet's acknowledgement", 0, completedAfter)
                .check(publishedWhilePaused.equals(publishedAtPause),
                        "published after the acknowledgement: " + publishedAtPause + " -> " + publishedWhilePaused)
                .check(pendingWhilePaused > 0, "no event was pending while the fleet was paused")
                .check(resumed.contains("resumed") && !resumed.contains("not acknowledged"),
                        "resume all was not acknowledged by both relays: " + resumed);
    }

    /** {@code GET outbox-admin/api/fleet} of the sample's console on {@code server}, as its viewer (HTTP Basic). */
    private static String consoleFleet(FaultServer server) throws Exception {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(server.baseUri().resolve("outbox-admin/api/fleet")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                        "outbox-viewer:outbox-viewer-1".getBytes(java.nio.charset.StandardCharsets.UTF_8))).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("GET api/fleet on " + server.instance() + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, String>> fleetView(Object fleet) {
        List<Map<String, String>> out = new java.util.ArrayList<>();
        for (javax.management.openmbean.TabularData row : (javax.management.openmbean.TabularData[]) fleet) {
            Map<String, String> m = new java.util.HashMap<>();
            for (Object e : row.values()) {
                javax.management.openmbean.CompositeData entry = (javax.management.openmbean.CompositeData) e;
                m.put(String.valueOf(entry.get("key")), String.valueOf(entry.get("value")));
            }
            out.add(m);
        }
        return out;
    }

    private static void start(FaultServer s) {
        try {
            s.start();
        } catch (Exception e) {
            throw new IllegalStateException(s.instance() + " did not start: " + e, e);
        }
    }

    /**
     * Creates {@code count} orders and moves each through PAID, SHIPPED and DELIVERED, six orders at a
     * time; request {@code k} of order {@code i} goes to {@code first(i)} when k is even, else {@code second(i)}.
     */
    private static void runLifecycles(int count, String prefix, java.util.function.IntFunction<OrdersApi> first,
                                      java.util.function.IntFunction<OrdersApi> second, Queue<String> ids,
                                      AtomicInteger refused, AtomicBoolean stop) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        for (int n = 0; n < count; n++) {
            int i = n;
            pool.execute(() -> {
                if (stop.get()) {
                    return;
                }
                OrdersApi.Reply created = first.apply(i).createOrder(prefix + "-" + i, (i % 500) + ".25");
                if (!created.isCreated() || created.id().isEmpty()) {
                    refused.incrementAndGet();
                    return;
                }
                String id = created.id().get();
                ids.add(id);
                for (int k = 0; k < LIFE.size() && !stop.get(); k++) {
                    OrdersApi api = (k + 1) % 2 == 0 ? first.apply(i) : second.apply(i);
                    if (api.changeStatus(id, LIFE.get(k)).status() != 200) {
                        refused.incrementAndGet();
                        return;
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(20, TimeUnit.MINUTES);
    }

    /** Ids of the rows leased right now (claimed, not completed, lease running). */
    private static List<String> leasedIds(OutboxDb db) throws java.sql.SQLException {
        List<String> ids = new java.util.ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM outbox_events WHERE processed_at IS NULL"
                     + " AND claim_token IS NOT NULL AND locked_until > now()")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    /** How many of the events {@code ids} the relay {@code relay} published (publish log). */
    private static long publishedBy(OutboxDb db, List<String> ids, String relay) throws java.sql.SQLException {
        try (Connection c = db.connect();
             java.sql.PreparedStatement s = c.prepareStatement("SELECT count(DISTINCT event_id) FROM fault_publish_log"
                     + " WHERE relay = ? AND event_id = ANY (?::uuid[])")) {
            s.setString(1, relay);
            s.setArray(2, c.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long single(OutboxDb db, String sql) throws java.sql.SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
