package io.eeoutbox.relay.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
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
 * <p>Trigger: producers (order + event, 2 and 8 clients) with the insert trigger on and off, on and
 * off alternating from run to run; with the trigger on, a LISTEN connection reads the notifications,
 * as a relay's would.
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
                relay.awaitListening(Duration.ofSeconds(10));
                Thread.sleep(1_000);
                poll = relay.relay().currentPollInterval();
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

    private static void triggerPrice(BenchContext ctx) throws Exception {
        BenchSettings s = ctx.settings;
        Producers producers = ctx.producers();
        for (int clients : CLIENTS) {
            List<Double> on = new ArrayList<>();
            List<Double> off = new ArrayList<>();
            List<Double> onP50 = new ArrayList<>();
            List<Double> offP50 = new ArrayList<>();
            List<Double> ratio = new ArrayList<>();
            for (int r = 0; r < s.runs(); r++) {
                double tOn = 0;
                double tOff = 0;
                boolean[] order = r % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true};
                for (boolean trigger : order) {
                    ctx.db.reset();
                    ctx.db.notifyTrigger(trigger);
                    try (Listener listener = trigger ? new Listener(ctx.db) : null) {
                        Producers.Outcome o = producers.closedLoop(clients, Producers.Work.OUTBOX, ctx.millis(s.writeWarmupMs()),
                                ctx.millis(s.writeMeasureMs()));
                        if (trigger) {
                            tOn = o.perSecond();
                            on.add(tOn);
                            onP50.add(Samples.percentileMillis(o.latencies(), 50));
                        } else {
                            tOff = o.perSecond();
                            off.add(tOff);
                            offP50.add(Samples.percentileMillis(o.latencies(), 50));
                        }
                    } finally {
                        ctx.db.notifyTrigger(false);
                    }
                }
                ratio.add(tOn / tOff);
                BenchContext.log(String.format(Locale.ROOT, "NOTIFY trigger, %d clients, run %d/%d: on %.0f tx/s, off %.0f tx/s",
                        clients, r + 1, s.runs(), tOn, tOff));
            }
            ctx.results.figure(SECTION, "producers, " + clients + " clients, trigger off", "throughput", "tx/s", off);
            ctx.results.figure(SECTION, "producers, " + clients + " clients, trigger off", "p50", "ms", offP50);
            ctx.results.figure(SECTION, "producers, " + clients + " clients, trigger on", "throughput", "tx/s", on);
            ctx.results.figure(SECTION, "producers, " + clients + " clients, trigger on", "p50", "ms", onP50);
            ctx.results.figure(SECTION, "producers, " + clients + " clients, ratio on / off", "throughput", "x", ratio);
        }
    }

    /** A LISTEN connection that reads notifications as they come, as a relay's listener does. */
    private static final class Listener implements AutoCloseable {
        private final Connection connection;
        private final Thread thread;
        private volatile boolean running = true;

        Listener(BenchDatabase db) throws SQLException {
            connection = db.db().connect();
            try (Statement st = connection.createStatement()) {
                st.execute("LISTEN outbox_event");
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
            connection.close();
        }
    }
}
