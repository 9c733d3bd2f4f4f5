package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.jms.JmsPublisher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Section 5: producers at full speed (order + event, closed loop) and one ee-outbox relay publishing
 * into the persistent JMS queue, together. First the producers run alone, then with the relay (woken
 * by the in-JVM commit hint, NOTIFY off); the pending count is sampled every 250 ms. "Bounded" means
 * that over the second half of the window the pending count grows by less than 1% of the producers'
 * rate (least-squares slope).
 */
final class SteadyStateSection {

    static final int SECTION = 5;

    private SteadyStateSection() {
    }

    static void run(BenchContext ctx) throws Exception {
        BenchSettings s = ctx.settings;
        int clients = s.steadyClients();
        PersistentBroker broker = ctx.broker();
        List<Double> alone = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> slowdown = new ArrayList<>();
        List<Double> relayRate = new ArrayList<>();
        List<Double> maxPending = new ArrayList<>();
        List<Double> endPending = new ArrayList<>();
        List<Double> growth = new ArrayList<>();
        List<Double> jvm = new ArrayList<>();
        List<Double> machine = new ArrayList<>();
        int bounded = 0;
        for (int r = 0; r < s.runs(); r++) {
            ctx.db.reset();
            Producers.Outcome a = ctx.producers().closedLoop(clients, Producers.Work.OUTBOX, ctx.millis(s.writeWarmupMs()),
                    ctx.millis(s.steadyAloneMs()));
            ctx.db.reset();
            PublishLog log = new PublishLog();
            JmsPublisher jms = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
            Producers.Outcome b;
            List<long[]> samples = new ArrayList<>();
            double relayPerSecond;
            CpuMeter.Usage usage;
            try (RelayInstance relay = new RelayInstance(ctx.db, RelayInstance.config("bench-steady", false).build(),
                    new TrackingPublisher(jms, log))) {
                relay.start();
                CommitHint.target(relay.relay()::wakeUp);
                Sampler sampler = new Sampler(ctx.db, samples);
                sampler.start();
                CpuMeter cpu;
                long warmup = ctx.millis(s.writeWarmupMs());
                long[] completedAtStart = new long[1];
                Thread marker = new Thread(() -> {
                    try {
                        Thread.sleep(warmup / 1_000_000 + 20);
                        completedAtStart[0] = relay.completed();
                    } catch (InterruptedException ignored) {
                        Thread.currentThread().interrupt();
                    }
                });
                marker.start();
                cpu = new CpuMeter();
                try {
                    b = ctx.producers().closedLoop(clients, Producers.Work.OUTBOX, warmup, ctx.millis(s.steadyMeasureMs()));
                } finally {
                    CommitHint.target(null);
                    sampler.stop();
                }
                usage = cpu.stop();
                marker.join();
                relayPerSecond = (relay.completed() - completedAtStart[0]) / b.seconds();
                long produced = b.eventIds().size();
                BenchContext.await("the relay to publish the rest", 600_000, () -> log.distinct() >= produced);
                BenchContext.await("the relay to mark the rest", 60_000, () -> ctx.db.pending() == 0);
            } finally {
                jms.close();
            }
            Map<UUID, Integer> delivered = broker.drainQueue(b.eventIds().size(), 500);
            ctx.check("steady state, run " + (r + 1), b.eventIds(), delivered);
            long windowStart = b.measureStartNanos();
            long windowEnd = b.measureEndNanos();
            double max = 0;
            double last = 0;
            for (long[] p : samples) {
                if (p[0] >= windowStart && p[0] <= windowEnd) {
                    max = Math.max(max, p[1]);
                    last = p[1];
                }
            }
            double slope = slope(samples, windowStart + (windowEnd - windowStart) / 2, windowEnd);
            boolean isBounded = slope < 0.01 * b.perSecond();
            bounded += isBounded ? 1 : 0;
            alone.add(a.perSecond());
            with.add(b.perSecond());
            slowdown.add((1 - b.perSecond() / a.perSecond()) * 100);
            relayRate.add(relayPerSecond);
            maxPending.add(max);
            endPending.add(last);
            growth.add(slope);
            jvm.add(usage.jvmCores());
            machine.add(usage.machineCores());
            BenchContext.log(String.format(Locale.ROOT, "steady state, run %d/%d: producers alone %.0f tx/s, with relay %.0f tx/s,"
                            + " relay %.0f events/s, pending max %.0f end %.0f, growth %.1f/s (%s)", r + 1, s.runs(), a.perSecond(),
                    b.perSecond(), relayPerSecond, max, last, slope, isBounded ? "bounded" : "GROWING"));
        }
        String c = clients + " clients";
        ctx.results.figure(SECTION, "producers alone, " + c, "throughput", "tx/s", alone);
        ctx.results.figure(SECTION, "producers + relay, " + c, "throughput", "tx/s", with);
        ctx.results.figure(SECTION, "producers + relay, " + c, "producer slowdown", "%", slowdown);
        ctx.results.figure(SECTION, "producers + relay, " + c, "relay rate", "events/s", relayRate);
        ctx.results.figure(SECTION, "producers + relay, " + c, "pending max", "events", maxPending);
        ctx.results.figure(SECTION, "producers + relay, " + c, "pending at end", "events", endPending);
        ctx.results.figure(SECTION, "producers + relay, " + c, "pending growth, 2nd half", "events/s", growth);
        ctx.results.figure(SECTION, "producers + relay, " + c, "JVM CPU", "cores", jvm);
        ctx.results.figure(SECTION, "producers + relay, " + c, "machine CPU", "cores", machine);
        ctx.results.note(SECTION, "Pending bounded in " + bounded + " of " + s.runs() + " run(s) (growth over the second half "
                + "below 1% of the producer rate). Window: " + s.steadyMeasureMs() / 1000 + " s with the relay, "
                + s.steadyAloneMs() / 1000 + " s alone; relay: defaults, NOTIFY off, in-JVM commit hint, persistent JMS.");
    }

    /** Least-squares slope (per second) of the samples taken in [from, to]. */
    static double slope(List<long[]> samples, long from, long to) {
        double n = 0;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (long[] p : samples) {
            if (p[0] < from || p[0] > to) {
                continue;
            }
            double x = (p[0] - from) / 1e9;
            double y = p[1];
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double d = n * sxx - sx * sx;
        return n < 2 || d == 0 ? 0 : (n * sxy - sx * sy) / d;
    }

    /** Samples the pending count every 250 ms: {nanoTime, pending}. */
    private static final class Sampler {
        private final BenchDatabase db;
        private final List<long[]> samples;
        private final Thread thread;
        private volatile boolean running = true;

        Sampler(BenchDatabase db, List<long[]> samples) {
            this.db = db;
            this.samples = samples;
            this.thread = new Thread(this::loop, "bench-pending-sampler");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void loop() {
            while (running) {
                long t = System.nanoTime();
                long pending = db.pending();
                synchronized (samples) {
                    samples.add(new long[] {t, pending});
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(5_000);
        }
    }
}
