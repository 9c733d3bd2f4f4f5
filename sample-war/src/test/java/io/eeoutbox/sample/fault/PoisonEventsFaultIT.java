package io.eeoutbox.sample.fault;

import io.eeoutbox.sample.fault.harness.FaultScenario;
import io.eeoutbox.sample.fault.harness.FaultServer;
import io.eeoutbox.sample.fault.harness.FaultSession;
import io.eeoutbox.sample.fault.harness.LoadClients;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.fault.harness.OutboxDb;
import io.eeoutbox.sample.fault.harness.RelayJmx;
import io.eeoutbox.sample.fault.harness.Verdict;
import io.eeoutbox.sample.fault.hook.RejectingPublisher;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4, poison events: every {@code order.status-changed} event fails to publish (the suite's
 * copy of the WAR publishes through {@link RejectingPublisher}, ee-outbox's JMS publisher that refuses
 * the event types named in a system property), with {@code outbox.relay.max-attempts=3} and a short
 * backoff. Those events must become dead letters after exactly three attempts while every
 * {@code order.created} keeps flowing to the consumer; after the fix (the property cleared through
 * WildFly's management API) an operator's retry (the relay MBean's {@code retryDeadLetters}, over
 * remote JMX) must publish them all.
 */
class PoisonEventsFaultIT extends FaultScenario {

    private static final int NUMBER = 4;
    private static final String NAME = "poison events";
    private static final int MAX_ATTEMPTS = 3;
    private static final String POISON = OutboxDb.ORDER_STATUS_CHANGED;

    @Test
    void poisonBecomesDeadLettersAndIsPublishedAfterTheFix(FaultSession session) {
        judge(session, new Verdict(NUMBER, NAME), "WildFly", v -> run(session, v));
    }

    private static String run(FaultSession session, Verdict v) throws Exception {
        String url = session.database("fault_s4");
        OutboxDb db = new OutboxDb(url);
        db.createHookTables();
        FaultServer server = session.wildfly("wildfly-s4", session.observedWar("poison", List.of(RejectingPublisher.class)),
                url, Map.of("outbox.relay.max-attempts", String.valueOf(MAX_ATTEMPTS),
                        "outbox.relay.backoff.initial", "PT0.2S", "outbox.relay.backoff.max", "PT1S",
                        RejectingPublisher.PROPERTY, POISON));
        startAndCheck(server, v, "s4-sanity")
                .put("max_attempts", MAX_ATTEMPTS);

        int good = session.size().poisonGoodOrders;
        LoadClients first = new LoadClients(server::baseUri, 3, good / 2, "s4a").start();
        if (!first.awaitTarget(Duration.ofMinutes(5))) {
            v.fail("only " + first.acknowledged() + " of " + good / 2 + " orders acknowledged");
        }
        // the poison: one status change each for some of the orders (each writes an order.status-changed)
        OrdersApi api = new OrdersApi(server.baseUri());
        List<String> poisoned = new ArrayList<>();
        List<String> firstIds = first.ackedIds();
        int poisonCount = Math.max(10, good / 10);
        long poisonStart = System.nanoTime();
        for (String id : firstIds.subList(0, Math.min(poisonCount, firstIds.size()))) {
            OrdersApi.Reply r = api.changeStatus(id, "PAID");
            if (r.status() == 200) {
                poisoned.add(id);
            } else {
                v.fail("status change of " + id + " answered " + r);
            }
        }
        // more good orders while the poison fails
        LoadClients second = new LoadClients(server::baseUri, 3, good - good / 2, "s4b").start();
        if (!second.awaitTarget(Duration.ofMinutes(5))) {
            v.fail("only " + second.acknowledged() + " of " + (good - good / 2) + " later orders acknowledged");
        }
        Duration toDead = OutboxDb.await(Duration.ofMinutes(3), "every poison event to become a dead letter",
                db::deadLetters, n -> n >= poisoned.size());
        long deadAt = System.nanoTime();
        OutboxDb.await(Duration.ofMinutes(3), "every other event to be published", db::pending, n -> n == 0);
        OutboxDb.await(Duration.ofMinutes(3), "the consumer to apply every published event",
                db::publishedNotDelivered, n -> n == 0);
        long[] dead = deadLetterShape(db);
        List<String> goodIds = new ArrayList<>(first.ackedIds());
        goodIds.addAll(second.ackedIds());
        List<String> goodNotApplied = db.missingFrom("order_projection", "order_id", goodIds);
        v.figures().put("good_orders", goodIds.size()).put("poison_events", poisoned.size())
                .put("dead_letters", dead[0]).put("dead_not_poison", dead[1]).put("dead_attempts_min", dead[2])
                .put("dead_attempts_max", dead[3]).put("time_to_dead_letters", Duration.ofNanos(deadAt - poisonStart))
                .put("good_applied_while_poisoned", goodIds.size() - goodNotApplied.size());
        v.expect("dead letters", poisoned.size(), dead[0])
                .expect("dead letters that are not poison events", 0, dead[1])
                .check(dead[2] == MAX_ATTEMPTS && dead[3] == MAX_ATTEMPTS, "dead letters' attempts are "
                        + dead[2] + ".." + dead[3] + ", expected " + MAX_ATTEMPTS)
                .expect("good orders the consumer has not applied while the poison failed", 0, goodNotApplied.size());

        // the fix, then the operator's retry
        server.management().setSystemProperty(RejectingPublisher.PROPERTY, "none");
        long fixed = System.nanoTime();
        int retried = RelayJmx.retryDeadLetters(server, POISON);
        Duration afterRetry = OutboxDb.await(Duration.ofMinutes(3), "the retried events to be published",
                () -> db.pending() + db.deadLetters(), n -> n == 0);
        OutboxDb.await(Duration.ofMinutes(3), "the consumer to apply the retried events",
                db::publishedNotDelivered, n -> n == 0);
        long paid = paidInProjection(db, poisoned);
        v.figures().put("retried", retried).put("published_after_retry_in", afterRetry)
                .put("projection_paid", paid).put("events", db.events()).put("published", db.published())
                .put("duplicates_absorbed_by_inbox", db.duplicateDeliveries())
                .put("fix_to_done", Duration.ofNanos(System.nanoTime() - fixed));
        v.expect("dead letters retried through the MBean", poisoned.size(), retried)
                .expect("events not published after the retry", 0, db.pending() + db.deadLetters())
                .expect("poisoned orders the consumer shows as PAID", poisoned.size(), paid);
        v.noHeuristics(server);
        return server.product();
    }

    /** {dead letters, dead letters that are not poison, min attempts, max attempts}. */
    private static long[] deadLetterShape(OutboxDb db) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE event_type <> '" + POISON + "'),"
                     + " coalesce(min(attempts), 0), coalesce(max(attempts), 0) FROM outbox_dead_letters")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)};
        }
    }

    private static long paidInProjection(OutboxDb db, List<String> orderIds) throws Exception {
        try (Connection c = db.connect();
             var s = c.prepareStatement("SELECT count(*) FROM order_projection WHERE status = 'PAID'"
                     + " AND order_id = ANY (?::uuid[])")) {
            s.setArray(1, c.createArrayOf("uuid", orderIds.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
