package io.eeoutbox.sample.fault;

import io.eeoutbox.sample.fault.harness.FaultScenario;
import io.eeoutbox.sample.fault.harness.FaultServer;
import io.eeoutbox.sample.fault.harness.FaultSession;
import io.eeoutbox.sample.fault.harness.LoadClients;
import io.eeoutbox.sample.fault.harness.OutboxDb;
import io.eeoutbox.sample.fault.harness.Verdict;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scenario 8, a full queue (issue 29 (a)): the sample's queue on WildFly is bounded (100 KB) with Artemis' FAIL
 * address policy, and its consumer (the message-driven bean) stops taking messages for {@code size.brokerOutage}
 * (30 s; 5 min at soak size) while orders keep coming over HTTP. The queue fills within seconds and the broker then
 * refuses every send. Before decision 0015 each refusal counted an attempt, and with {@code max-attempts=3} the
 * backlog became dead letters within seconds; now the relay holds the destination: no dead letter, no attempt
 * counted, and once the consumer is back the backlog drains by itself and every event is applied. Then the same
 * with BLOCK: the broker would block producers by withholding credits, but the shipped relay factory has no producer
 * window ({@code producer-window-size=-1}, docs/setup/wildfly-setup.cli), so the broker cannot block it and the queue
 * takes the messages past its bound; the scenario checks that nothing is lost or dead-lettered then either (the send
 * bound for a factory with a window is tested in-process: FullDestinationIT).
 */
class FullQueueFaultIT extends FaultScenario {

    private static final int NUMBER = 8;
    private static final String NAME = "full queue";
    static final int MAX_ATTEMPTS = 3;
    private static final String[] ADDRESS_SETTING = {"subsystem", "messaging-activemq", "server", "default",
        "address-setting", "jms.queue.OutboxEvents"};
    private static final String[] CONSUMER = {"deployment", "orders.war", "subsystem", "ejb3",
        "message-driven-bean", "OrderEventConsumer"};

    @ParameterizedTest(name = "address-full-policy={0}")
    @ValueSource(strings = {"FAIL", "BLOCK"})
    void aQueueFullWhileItsConsumerIsDownMakesNoDeadLetterAndDrainsAfter(String policy, FaultSession session) {
        judge(session, new Verdict(NUMBER, NAME + " (" + policy + ")"), "WildFly", v -> run(session, v, policy));
        session.stopServers(); // one WildFly at a time: the next policy starts its own
    }

    private static String run(FaultSession session, Verdict v, String policy) throws Exception {
        String url = session.database("fault_s8_" + policy.toLowerCase(java.util.Locale.ROOT));
        OutboxDb db = new OutboxDb(url);
        db.createHookTables();
        FaultServer server = session.wildfly("wildfly-s8-" + policy.toLowerCase(java.util.Locale.ROOT), session.observedWar("observed", List.of()), url,
                Map.of("outbox.relay.max-attempts", String.valueOf(MAX_ATTEMPTS)));
        startAndCheck(server, v, "s8-sanity")
                .put("max_attempts", MAX_ATTEMPTS).put("address_full_policy", policy);
        server.management().run("write-attribute", Map.of("name", "max-size-bytes", "value", "102400"), ADDRESS_SETTING);
        server.management().run("write-attribute", Map.of("name", "address-full-policy", "value", policy), ADDRESS_SETTING);

        LoadClients load = new LoadClients(server::baseUri, 3, Integer.MAX_VALUE, "s8")
                .pauseBetween(Duration.ofMillis(30)).start();
        OutboxDb.await(Duration.ofSeconds(60), "orders acknowledged before the consumer stops", load::acknowledged,
                n -> n >= 100);

        Duration outage = session.size().brokerOutage;
        server.management().run("stop-delivery", CONSUMER);
        long outageStart = System.nanoTime();
        long peakPending = 0;
        long deadSeen = 0;
        long attemptsSeen = 0;
        while (System.nanoTime() - outageStart < outage.toNanos()) {
            peakPending = Math.max(peakPending, db.pending());
            deadSeen = Math.max(deadSeen, db.deadLetters());
            attemptsSeen = Math.max(attemptsSeen, single(db, "SELECT coalesce(max(attempts), 0) FROM outbox_events"));
            Thread.sleep(500);
        }
        long heldRows = single(db, "SELECT count(*) FROM outbox_events WHERE processed_at IS NULL"
                + " AND (last_error LIKE '%cannot take%' OR last_error LIKE '%is full%')");
        long ackedDuringOutage = load.acknowledgedBetween(outageStart, System.nanoTime());
        server.management().run("start-delivery", CONSUMER);
        load.close();

        Duration drain = OutboxDb.await(Duration.ofMinutes(5), "the backlog to drain after the consumer is back",
                db::pending, n -> n == 0);
        Duration applied = OutboxDb.await(Duration.ofMinutes(4), "the consumer to apply every published event",
                db::publishedNotDelivered, n -> n == 0);
        deadSeen = Math.max(deadSeen, db.deadLetters());
        attemptsSeen = Math.max(attemptsSeen, single(db, "SELECT coalesce(max(attempts), 0) FROM outbox_events"));
        List<String> acked = load.ackedIds();
        Map<String, Integer> events = db.eventCounts(OutboxDb.ORDER_CREATED, acked);
        long missing = events.values().stream().filter(n -> n == 0).count();
        long holdLines = BrokerOutageFaultIT.countInLog(server, "cannot take messages now");

        v.figures().put("consumer_stopped", outage).put("orders_acked", acked.size())
                .put("acked_while_consumer_stopped", ackedDuringOutage).put("peak_pending", peakPending)
                .put("rows_held_for_the_full_queue", heldRows).put("relay_hold_log_lines", holdLines)
                .put("dead", deadSeen).put("max_attempts_counted", attemptsSeen)
                .put("drain_after_consumer_back", drain).put("applied_after_drain", applied)
                .put("events", db.events()).put("delivered", db.deliveredEvents()).put("lost", missing);
        v.check(ackedDuringOutage > 0, "no order was acknowledged while the consumer was stopped")
                .check(!"FAIL".equals(policy) || holdLines > 0,
                        "the queue never filled: no relay line says the destination cannot take messages")
                .expect("dead letters from the full queue", 0, deadSeen)
                .expect("attempts counted for the full queue", 0, attemptsSeen)
                .expect("acknowledged orders without an order.created event", 0, missing)
                .expect("events not published after the consumer is back", 0, db.pending())
                .expect("events the consumer applied", db.events(), db.deliveredEvents())
                .noHeuristics(server);
        return server.product();
    }

    private static long single(OutboxDb db, String sql) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
