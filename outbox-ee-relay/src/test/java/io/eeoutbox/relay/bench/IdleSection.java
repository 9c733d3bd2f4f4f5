package io.eeoutbox.relay.bench;

import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxListenerIdentityRow;
import io.eeoutbox.jpa.generated.RegisterOutboxWaiterParams;
import io.eeoutbox.jpa.generated.UnregisterOutboxWaiterParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.postgresql.PGConnection;

/**
 * Section 4: what an idle relay costs PostgreSQL, and what the NOTIFY trigger costs producers.
 *
 * <p>Idle: one relay on an empty outbox; after it has settled, every round trip its connections make
 * (claims, pings of the LISTEN connection, cleanup) is counted for a window by a counting data source.
 * With NOTIFY on, the LISTEN connection's waiting for notifications costs no query. The target is at
 * most one query per fallback-poll interval.
 *
 * <p>Trigger: producers (order + event, 2 and 8 clients) with the insert trigger off, on while a relay
 * waits for notifications (registered as V8 has it: every commit notifies), and on while none waits
 * (relays busy: the trigger only takes its shared lock and reads the empty waiters table), in an order
 * rotated from run to run; with the trigger on, a LISTEN connection reads the notifications, as a
 * relay's would.
 */
final class IdleSection {

    static final int SECTION = 4;
    static final int[] CLIENTS = {2, 8};

    private IdleSection() {
    }

    static void run(BenchContext ctx) throws Exception {
        idle(ctx);
        triggerPrice(ctx);
    }

    private static void idle(BenchContext ctx) throws Exception {
        BenchSettings s = ctx.settings;
        for (boolean notify : new boolean[] {true, false}) {
            ctx.db.reset();
            ctx.db.notifyTrigger(notify);
            List<Double> perMinute = new ArrayList<>();
            List<Double> perPoll = new ArrayList<>();
            Map<String, Long> breakdown = new TreeMap<>();
            Duration poll;
            try (RelayInstance relay = new RelayInstance(ctx.db, RelayInstance.config("bench-idle", notify).build(),
                    TrackingPublisher.noOp(new PublishLog()))) {
                relay.start();
                relay.awaitSettled(Duration.ofSeconds(10));
                poll = relay.relay().currentPollInterval();
                // The relay has just looked; start the windows half an interval later, away from a poll's
                // edge, so that a window of whole intervals holds exactly one poll per interval.
                Thread.sleep(poll.toMillis() / 2);
                // A window of whole poll intervals, so that a window does not catch one poll more by its phase.
                long window = Math.max(1, Math.round((double) s.idleWindowMs() / poll.toMillis())) * poll.toMillis();
                for (int r = 0; r < s.idleRuns(); r++) {
                    relay.counting().reset();
                    long t0 = System.nanoTime();
                    Thread.sleep(window);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    long queries = relay.counting().total();
                    relay.counting().counts().forEach((k, v) -> breakdown.merge(k, v, Long::sum));
                    perMinute.add(queries * 60 / seconds);
                    perPoll.add(queries / (seconds / (poll.toMillis() / 1000.0)));
                    BenchContext.log(String.format(Locale.ROOT, "idle, NOTIFY %s, window %d/%d: %d queries in %.1f s",
                            notify ? "on" : "off", r + 1, s.idleRuns(), queries, seconds));
                }
            } finally {
                ctx.db.notifyTrigger(false);
            }
            String scenario = "idle relay, NOTIFY " + (notify ? "on" : "off") + " (fallback poll " + poll.toMillis() + " ms)";
            ctx.results.figure(SECTION, scenario, "queries per minute", "", perMinute);
            ctx.results.figure(SECTION, scenario, "queries per poll interval", "x", perPoll);
            ctx.results.target(new Results.Target("idle queries per fallback poll, NOTIFY " + (notify ? "on" : "off"),
                    ctx.results.find(SECTION, scenario, "queries per poll interval").median(), 1.0, false, "x",
                    "per relay; counted round trips"));
            ctx.results.note(SECTION, "Idle, NOTIFY " + (notify ? "on" : "off") + ": statements over "
                    + s.idleRuns() + " window(s) of whole poll intervals: " + breakdown);
        }
    }

    /** The trigger's states measured: off, on with a relay waiting for notifications, on with none. */
    private enum Trigger {
        OFF("trigger off"),
        WAITING("trigger on, a relay waiting (every commit notifies)"),
        BUSY("trigger on, no relay waiting (relays busy: no commit notifies)");

        final String label;

        Trigger(String label) {
            this.label = label;
        }
    }

    private static void triggerPrice(BenchContext ctx) throws Exception {
        BenchSettings s = ctx.settings;
        Producers producers = ctx.producers();
        for (int clients : CLIENTS) {
            Map<Trigger, List<Double>> throughput = new EnumMap<>(Trigger.class);
            Map<Trigger, List<Double>> p50 = new EnumMap<>(Trigger.class);
            for (Trigger t : Trigger.values()) {
                throughput.put(t, new ArrayList<>());
                p50.put(t, new ArrayList<>());
            }
            List<Double> ratioWaiting = new ArrayList<>();
            List<Double> ratioBusy = new ArrayList<>();
            for (int r = 0; r < s.runs(); r++) {
                // Rotate the order from run to run, so that no state always runs first.
                List<Trigger> order = new ArrayList<>(List.of(Trigger.values()));
                Collections.rotate(order, r);
                Map<Trigger, Double> run = new EnumMap<>(Trigger.class);
                for (Trigger trigger : order) {
                    ctx.db.reset();
                    ctx.db.notifyTrigger(trigger != Trigger.OFF);
                    try (Listener listener = trigger != Trigger.OFF ? new Listener(ctx.db, trigger == Trigger.WAITING) : null) {
                        Producers.Outcome o = producers.closedLoop(clients, Producers.Work.OUTBOX, ctx.millis(s.writeWarmupMs()),
                                ctx.millis(s.writeMeasureMs()));
                        run.put(trigger, o.perSecond());
                        throughput.get(trigger).add(o.perSecond());
                        p50.get(trigger).add(Samples.percentileMillis(o.latencies(), 50));
                    } finally {
                        ctx.db.notifyTrigger(false);
                    }
                }
                ratioWaiting.add(run.get(Trigger.WAITING) / run.get(Trigger.OFF));
                ratioBusy.add(run.get(Trigger.BUSY) / run.get(Trigger.OFF));
                BenchContext.log(String.format(Locale.ROOT,
                        "NOTIFY trigger, %d clients, run %d/%d: off %.0f tx/s, on with a relay waiting %.0f tx/s, on with none %.0f tx/s",
                        clients, r + 1, s.runs(), run.get(Trigger.OFF), run.get(Trigger.WAITING), run.get(Trigger.BUSY)));
            }
            for (Trigger t : Trigger.values()) {
                ctx.results.figure(SECTION, "producers, " + clients + " clients, " + t.label, "throughput", "tx/s",
                        throughput.get(t));
                ctx.results.figure(SECTION, "producers, " + clients + " clients, " + t.label, "p50", "ms", p50.get(t));
            }
            ctx.results.figure(SECTION, "producers, " + clients + " clients, ratio on (a relay waiting) / off", "throughput",
                    "x", ratioWaiting);
            ctx.results.figure(SECTION, "producers, " + clients + " clients, ratio on (no relay waiting) / off", "throughput",
                    "x", ratioBusy);
        }
    }

    /** A LISTEN connection that reads notifications as they come, as a relay's listener does. */
    private static final class Listener implements AutoCloseable {
        private final Connection connection;
        private final OutboxListenerIdentityRow identity; // null when not registered
        private final Thread thread;
        private volatile boolean running = true;

        /** @param registered whether it registers as a waiting relay does (schema V8), so that producers notify */
        Listener(BenchDatabase db, boolean registered) throws SQLException {
            connection = db.db().connect();
            // Registered with the relay's own statements (generated from sql/queries).
            OutboxEventJdbc dao = new OutboxEventJdbc(connection);
            identity = registered ? dao.outboxListenerIdentity().orElseThrow() : null;
            try (Statement st = connection.createStatement()) {
                st.execute("LISTEN outbox_event");
            }
            if (identity != null) {
                dao.registerOutboxWaiter(new RegisterOutboxWaiterParams(identity.listenerPid(), identity.listenerStart(), "bench"));
            }
            PGConnection pg = connection.unwrap(PGConnection.class);
            thread = new Thread(() -> {
                try {
                    while (running) {
                        pg.getNotifications(200);
                    }
                } catch (SQLException e) {
                    if (running) {
                        BenchContext.log("listener failed: " + e);
                    }
                }
            }, "bench-listen");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws Exception {
            running = false;
            thread.join(2_000);
            if (identity != null) {
                new OutboxEventJdbc(connection).unregisterOutboxWaiter(
                        new UnregisterOutboxWaiterParams(identity.listenerPid(), identity.listenerStart()));
            }
            connection.close();
        }
    }
}
