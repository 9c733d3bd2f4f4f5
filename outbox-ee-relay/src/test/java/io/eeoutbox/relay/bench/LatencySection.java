package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.jms.JmsPublisher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Section 3: commit-to-publish latency. Producers start transactions (order + event) at a steady
 * rate of about half the producer limit measured in section 1; one ee-outbox relay publishes into
 * the persistent JMS queue. An event's latency runs from the moment its transaction's commit
 * returned to the application until the broker transaction holding its message committed
 * (a relay can publish before the producer's commit call has returned: such events count as 0).
 *
 * <p>Three ways to wake the relay: NOTIFY on (trigger plus a LISTEN connection; the fallback poll
 * is then 5 s); NOTIFY off (no wake-up at all, as for a relay on another server: looks after the busy-poll
 * interval, doubling after each empty look up to the 1 s fallback poll); and NOTIFY off with the in-JVM
 * after-commit hint (the relay in the producers' JVM).
 */
final class LatencySection {

    static final int SECTION = 3;
    static final double MAX_P99_NOTIFY_MS = 50;
    /** Issue 29: without NOTIFY, events that arrive milliseconds apart must not wait for the fallback poll. */
    static final double MAX_P99_POLL_MS = 100;
    static final int THREADS = 4;
    static final double FALLBACK_RATE = 1000;

    private LatencySection() {
    }

    enum Wakeup {
        NOTIFY("NOTIFY on"),
        POLL("NOTIFY off, no wake-up (adaptive poll)"),
        HINT("NOTIFY off, in-JVM commit hint");

        final String label;

        Wakeup(String label) {
            this.label = label;
        }
    }

    static void run(BenchContext ctx) throws Exception {
        BenchSettings s = ctx.settings;
        String givenRate = System.getProperty("bench.latency.rate", "").trim();
        double rate = !givenRate.isEmpty() ? Double.parseDouble(givenRate)
                : Double.isNaN(ctx.producerLimit) ? FALLBACK_RATE : ctx.producerLimit / 2;
        // -Dbench.latency.rate=N: a load of one's choosing, e.g. half the producer limit with the NOTIFY
        // trigger on (section 4), which is lower than without it.
        String rateBasis = !givenRate.isEmpty() ? "a given " + givenRate + " tx/s (-Dbench.latency.rate)"
                : Double.isNaN(ctx.producerLimit) ? "a fixed " + FALLBACK_RATE + " tx/s (section 1 skipped)"
                : String.format(Locale.ROOT, "half the producer limit of %.0f tx/s (%s)", ctx.producerLimit, ctx.producerLimitBasis);
        // One untimed run first, so that the first scenario is not measured with a cold JIT (when section 3
        // runs alone, nothing before it has exercised producers, relay and broker in this JVM).
        once(ctx, Wakeup.HINT, rate, ctx.millis(s.latencyMeasureMs() / 2), "latency warm-up (untimed)");
        for (Wakeup w : Wakeup.values()) {
            List<Double> p50 = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> max = new ArrayList<>();
            List<Double> achieved = new ArrayList<>();
            List<Double> batchP50 = new ArrayList<>();
            List<Double> batchP99 = new ArrayList<>();
            List<Double> batchMax = new ArrayList<>();
            List<Double> perBatch = new ArrayList<>();
            Duration poll = null;
            for (int r = 0; r < s.runs(); r++) {
                Run run = once(ctx, w, rate, ctx.millis(s.latencyMeasureMs()), "latency " + w.label + ", run " + (r + 1));
                poll = run.poll();
                p50.add(Samples.percentileMillis(run.latencies(), 50));
                p99.add(Samples.percentileMillis(run.latencies(), 99));
                max.add(Samples.maxMillis(run.latencies()));
                achieved.add(run.outcome().perSecond());
                batchP50.add(Samples.percentileMillis(run.batchTimes(), 50));
                batchP99.add(Samples.percentileMillis(run.batchTimes(), 99));
                batchMax.add(Samples.maxMillis(run.batchTimes()));
                perBatch.add(run.perBatch());
                BenchContext.log(String.format(Locale.ROOT, "latency %s, run %d/%d: %.0f tx/s, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                        w.label, r + 1, s.runs(), run.outcome().perSecond(), p50.get(r), p99.get(r), max.get(r)));
            }
            String scenario = w.label + " (fallback poll " + poll.toMillis() + " ms)";
            ctx.results.figure(SECTION, scenario, "load", "tx/s", achieved);
            ctx.results.figure(SECTION, scenario, "p50", "ms", p50);
            ctx.results.figure(SECTION, scenario, "p99", "ms", p99);
            ctx.results.figure(SECTION, scenario, "max", "ms", max);
            ctx.results.figure(SECTION, scenario, "relay batch p50", "ms", batchP50);
            ctx.results.figure(SECTION, scenario, "relay batch p99", "ms", batchP99);
            ctx.results.figure(SECTION, scenario, "relay batch max", "ms", batchMax);
            ctx.results.figure(SECTION, scenario, "events per batch", "events", perBatch);
            if (w == Wakeup.NOTIFY) {
                ctx.results.target(new Results.Target("p99 commit-to-publish with NOTIFY at half load",
                        ctx.results.find(SECTION, scenario, "p99").median(), MAX_P99_NOTIFY_MS, false, "ms", rateBasis));
            }
            if (w == Wakeup.POLL) {
                ctx.results.target(new Results.Target("p99 commit-to-publish without NOTIFY at half load",
                        ctx.results.find(SECTION, scenario, "p99").median(), MAX_P99_POLL_MS, false, "ms", rateBasis));
                double maxMs = ctx.results.find(SECTION, scenario, "max").median();
                long busyMs = RelayInstance.config("bench-latency", false).build().busyPollInterval().toMillis();
                ctx.results.note(SECTION, String.format(Locale.ROOT, "Without NOTIFY and without the in-JVM hint the "
                        + "relay finds events by its looks: %d ms after a drain that found events, then twice as long "
                        + "after each look that found nothing, up to its fallback poll (%d ms): max %.0f ms.",
                        busyMs, poll.toMillis(), maxMs));
            }
        }
        ctx.results.note(SECTION, "Load: " + THREADS + " producer threads paced at " + rateBasis + " in all, JTA + JPA + "
                + "OutboxService.record per transaction; one ee-outbox relay (defaults) into persistent JMS. Latency: from "
                + "the return of the producer's commit to the return of the relay's JMS batch commit. \"relay batch\": one "
                + "batch's claim, JMS publish and mark, as the relay reports it (RelayListener.batchCompleted); with "
                + "NOTIFY on, every producer commit also takes PostgreSQL's notify lock, and the batches' times show how "
                + "much the database side slows down under it, apart from how late the notifications arrive.");
    }

    /** One latency run's figures. */
    private record Run(Producers.Outcome outcome, long[] latencies, long[] batchTimes, double perBatch, Duration poll) {
    }

    /**
     * One run: a fresh outbox, one relay woken as {@code w} says, producers paced at {@code rate} for
     * the untimed warm-up and {@code measureNanos}; then waits until every event is published and
     * marked, consumes the queue and checks delivery as {@code checkName}.
     */
    private static Run once(BenchContext ctx, Wakeup w, double rate, long measureNanos, String checkName) throws Exception {
        PersistentBroker broker = ctx.broker();
        ctx.db.reset();
        ctx.db.notifyTrigger(w == Wakeup.NOTIFY);
        PublishLog log = new PublishLog();
        JmsPublisher jms = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
        Producers.Outcome o;
        long[] batchTimes;
        double perBatch;
        Duration poll;
        try (RelayInstance relay = new RelayInstance(ctx.db,
                RelayInstance.config("bench-latency", w == Wakeup.NOTIFY).build(), new TrackingPublisher(jms, log))) {
            relay.start();
            relay.awaitSettled(Duration.ofSeconds(10));
            poll = relay.relay().currentPollInterval();
            CommitHint.target(w == Wakeup.HINT ? relay.relay()::wakeUp : null);
            try {
                o = ctx.producers().paced(THREADS, rate, ctx.millis(ctx.settings.writeWarmupMs()), measureNanos);
            } finally {
                CommitHint.target(null);
            }
            long produced = o.eventIds().size();
            BenchContext.await("the relay to publish every event", 120_000, () -> log.distinct() >= produced);
            BenchContext.await("the relay to mark every event", 30_000, () -> ctx.db.pending() == 0);
            batchTimes = relay.batchTimes();
            perBatch = relay.batches() == 0 ? Double.NaN : (double) relay.completed() / relay.batches();
        } finally {
            jms.close();
            ctx.db.notifyTrigger(false);
        }
        long[] latencies = latencies(o, log);
        Map<UUID, Integer> delivered = broker.drainQueue(o.eventIds().size(), 500);
        ctx.check(checkName, o.eventIds(), delivered);
        return new Run(o, latencies, batchTimes, perBatch, poll);
    }

    /** Commit-to-publish of the events committed in the measured window, sorted. */
    private static long[] latencies(Producers.Outcome o, PublishLog log) {
        Samples s = new Samples();
        List<UUID> ids = o.eventIds();
        long[] commits = o.commitNanos();
        Map<UUID, Long> published = log.firstPublish();
        for (int i = 0; i < ids.size(); i++) {
            long commit = commits[i];
            if (commit < o.measureStartNanos() || commit >= o.measureEndNanos()) {
                continue;
            }
            Long p = published.get(ids.get(i));
            if (p != null) {
                s.add(Math.max(0, p - commit));
            }
        }
        return s.sorted();
    }
}
