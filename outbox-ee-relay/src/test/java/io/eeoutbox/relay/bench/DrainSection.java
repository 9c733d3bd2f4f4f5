package io.eeoutbox.relay.bench;

import io.agroal.api.AgroalDataSource;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.spi.Publisher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Section 2: how fast a backlog drains. The same backlog (N committed, pending events, vacuumed and
 * analyzed, as autovacuum leaves a table after an outage) is drained by the reference article's
 * algorithm ({@link ReferenceRelay}) and by ee-outbox's relay, into a no-op publisher (the database
 * side alone) and into a persistent Artemis queue, with one and two instances. Within a run the
 * baseline and the relay take turns, alternating which goes first. The time runs from the start
 * of the drain until every row is published and marked.
 */
final class DrainSection {

    static final int SECTION = 2;
    static final int BASELINE_BATCH = 100;
    static final int MAX_ATTEMPTS = 10;
    static final double MIN_NOOP_RATE = 25_000;
    static final double MIN_NOOP_RATIO = 3;
    static final double MIN_JMS_RATIO = 5;
    static final double MIN_JMS_OVER_PRODUCERS = 2;

    private final BenchContext ctx;
    private boolean profiledBaseline;
    private boolean profiledRelay;
    private boolean notedBaselineBroker;
    private boolean notedRelayBroker;

    private DrainSection(BenchContext ctx) {
        this.ctx = ctx;
    }

    /** One drain's figures. */
    private record Drain(double rate, CpuMeter.Usage cpu, boolean capped) {
    }

    static void run(BenchContext ctx) throws Exception {
        new DrainSection(ctx).runAll();
    }

    private void runAll() throws Exception {
        BenchSettings s = ctx.settings;
        ctx.db.notifyTrigger(false);
        warmUp();
        for (boolean jms : new boolean[] {false, true}) {
            for (int instances : new int[] {1, 2}) {
                String scenario = (jms ? "persistent JMS" : "no-op") + ", " + instances + (instances == 1 ? " instance" : " instances");
                List<Double> base = new ArrayList<>();
                List<Double> relay = new ArrayList<>();
                List<Double> ratio = new ArrayList<>();
                List<Double> baseJvm = new ArrayList<>();
                List<Double> baseMachine = new ArrayList<>();
                List<Double> relayJvm = new ArrayList<>();
                List<Double> relayMachine = new ArrayList<>();
                boolean anyCapped = false;
                for (int r = 0; r < s.runs(); r++) {
                    Drain b = null;
                    Drain e = null;
                    boolean baselineFirst = r % 2 == 0;
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn == 0) == baselineFirst) {
                            b = baseline(scenario + ", run " + (r + 1), jms, instances);
                        } else {
                            e = relay(scenario + ", run " + (r + 1), jms, instances, RelaySettings.RECOMMENDED_BATCH_SIZE,
                                    CompletionMode.MARK, null, true);
                        }
                    }
                    anyCapped |= b.capped();
                    base.add(b.rate());
                    relay.add(e.rate());
                    ratio.add(e.rate() / b.rate());
                    baseJvm.add(b.cpu().jvmCores());
                    baseMachine.add(b.cpu().machineCores());
                    relayJvm.add(e.cpu().jvmCores());
                    relayMachine.add(e.cpu().machineCores());
                    BenchContext.log(String.format(Locale.ROOT, "drain %s, run %d/%d: baseline %.0f/s%s, ee-outbox %.0f/s, ratio %.2f",
                            scenario, r + 1, s.runs(), b.rate(), b.capped() ? " (capped)" : "", e.rate(), e.rate() / b.rate()));
                }
                ctx.results.figure(SECTION, scenario + ": reference algorithm (baseline)", "drain rate", "events/s", base);
                ctx.results.figure(SECTION, scenario + ": reference algorithm (baseline)", "JVM CPU", "cores", baseJvm);
                ctx.results.figure(SECTION, scenario + ": reference algorithm (baseline)", "machine CPU", "cores", baseMachine);
                ctx.results.figure(SECTION, scenario + ": ee-outbox relay", "drain rate", "events/s", relay);
                ctx.results.figure(SECTION, scenario + ": ee-outbox relay", "JVM CPU", "cores", relayJvm);
                ctx.results.figure(SECTION, scenario + ": ee-outbox relay", "machine CPU", "cores", relayMachine);
                ctx.results.figure(SECTION, scenario + ": ratio ee-outbox / baseline", "drain rate", "x", ratio);
                if (anyCapped) {
                    ctx.results.note(SECTION, "Baseline \"" + scenario + "\": timed for its first " + s.baselineCapMs() / 1000
                            + " s only (its rate is steady); an untimed ee-outbox relay published the rest of the backlog "
                            + "into the same broker before the delivery check.");
                }
                double relayMedian = ctx.results.find(SECTION, scenario + ": ee-outbox relay", "drain rate").median();
                double ratioMedian = ctx.results.find(SECTION, scenario + ": ratio ee-outbox / baseline", "drain rate").median();
                if (!jms) {
                    if (instances == 1) {
                        ctx.results.target(new Results.Target("drain into no-op, 1 relay", relayMedian, MIN_NOOP_RATE, true,
                                "events/s", "backlog " + s.backlog()));
                    }
                    ctx.results.target(new Results.Target("drain into no-op vs baseline, " + instances + " instance(s)",
                            ratioMedian, MIN_NOOP_RATIO, true, "x", "same run, same backlog"));
                } else {
                    if (instances == 1) {
                        ctx.results.target(new Results.Target("drain into persistent JMS vs producer limit, 1 relay",
                                relayMedian / ctx.producerLimit, MIN_JMS_OVER_PRODUCERS, true, "x",
                                Double.isNaN(ctx.producerLimit) ? "producer limit not measured (section 1 skipped)"
                                        : String.format(Locale.ROOT, "%.0f events/s vs %.0f tx/s (%s)", relayMedian,
                                                ctx.producerLimit, ctx.producerLimitBasis)));
                    }
                    ctx.results.target(new Results.Target("drain into persistent JMS vs baseline, " + instances + " instance(s)",
                            ratioMedian, MIN_JMS_RATIO, true, "x", "same run, same broker"));
                }
            }
        }
        // Settings the pgbench figures point at (bigger batches, delete-on-publish), and a
        // diagnostic: the relay's connections not waiting for the WAL flush at each commit.
        record Extra(String label, int batch, CompletionMode mode, String serverOptions, boolean pipelined) {
        }
        // Diagnostics only in full runs: a smoke run checks that drains work, not why they are fast or slow.
        // -Dbench.diagnostics=false leaves them out of a full run too (they take a third of section 2).
        boolean diagnostics = !s.size().equals("smoke")
                && Boolean.parseBoolean(System.getProperty("bench.diagnostics", "true"));
        List<Extra> extras = !diagnostics ? List.of() : List.of(
                new Extra("batch-size 500, pipelined(false) (diagnostic)", 500, CompletionMode.MARK, null, false),
                new Extra("batch-size 100", 100, CompletionMode.MARK, null, true),
                new Extra("batch-size 1000", 1000, CompletionMode.MARK, null, true),
                new Extra("batch-size 500, completion=delete", 500, CompletionMode.DELETE, null, true),
                new Extra("batch-size 500, synchronous_commit=off on its connections (diagnostic)", 500,
                        CompletionMode.MARK, "-c synchronous_commit=off", true));
        for (Extra x : extras) {
            String scenario = "no-op, 1 instance: ee-outbox relay, " + x.label();
            List<Double> rates = new ArrayList<>();
            List<Double> jvm = new ArrayList<>();
            List<Double> machine = new ArrayList<>();
            for (int r = 0; r < s.runs(); r++) {
                Drain d = relay(scenario + ", run " + (r + 1), false, 1, x.batch(), x.mode(), x.serverOptions(), x.pipelined());
                rates.add(d.rate());
                jvm.add(d.cpu().jvmCores());
                machine.add(d.cpu().machineCores());
                BenchContext.log(String.format(Locale.ROOT, "drain %s, run %d/%d: %.0f/s", scenario, r + 1, s.runs(), d.rate()));
            }
            ctx.results.figure(SECTION, scenario, "drain rate", "events/s", rates);
            ctx.results.figure(SECTION, scenario, "JVM CPU", "cores", jvm);
            ctx.results.figure(SECTION, scenario, "machine CPU", "cores", machine);
        }
        ctx.results.note(SECTION, "Backlog: " + s.backlog() + " events of ~200 bytes, one aggregate each, inserted before each "
                + "drain, then VACUUM ANALYZE and CHECKPOINT. Baseline: FetchOutboxBatch (LIMIT " + BASELINE_BATCH
                + ", FOR UPDATE SKIP LOCKED) in a transaction held across the sends, one MarkOutboxProcessed per row, "
                + "sequential publish; into JMS one non-transacted persistent send per message on a kept connection. "
                + "ee-outbox: OutboxRelay with its defaults (batch-size " + RelaySettings.RECOMMENDED_BATCH_SIZE + ", within "
                + RelaySettings.BATCH_MAX_BYTES.defaultValue() / (1 << 20) + " MiB of payload), mark, pipelined; a pool of its own per instance; into "
                + "JMS its JmsPublisher (one broker transaction per batch). Instances run in this JVM, each with its own "
                + "connection(s) and broker connection. Machine CPU: all cores busy (2 = saturated); the part not in the JVM "
                + "is mostly PostgreSQL.");
    }

    /** Untimed drains of a small backlog by both algorithms into both publishers: JIT, pools, broker warm. */
    private void warmUp() throws Exception {
        int warm = ctx.settings.size().equals("smoke") ? 1_000 : 3_000;
        for (boolean jms : new boolean[] {false, true}) {
            List<UUID> ids = freshBacklog(Math.min(ctx.settings.backlog(), warm));
            PublishLog log = new PublishLog();
            List<AutoCloseable> toClose = new ArrayList<>();
            AgroalDataSource pool = ctx.db.pool(1);
            try {
                new ReferenceRelay(pool, publisher(jms, log, toClose, true), BASELINE_BATCH, MAX_ATTEMPTS)
                        .drain(() -> true);
                freshBacklog(Math.min(ctx.settings.backlog(), warm));
                finishWithRelay(jms, log, toClose);
            } finally {
                closeAll(toClose);
                ctx.db.closePool(pool);
            }
            if (jms) {
                ctx.broker().drainQueue(2L * ids.size(), 300);
            }
        }
    }

    private Publisher publisher(boolean jms, PublishLog log, List<AutoCloseable> toClose, boolean baseline) throws Exception {
        if (!jms) {
            return TrackingPublisher.noOp(log);
        }
        PersistentBroker broker = ctx.broker();
        if (baseline) {
            OneByOneJmsPublisher p = new OneByOneJmsPublisher(broker.connectionFactory(), broker.queue());
            toClose.add(p);
            return new TrackingPublisher(p, log);
        }
        JmsPublisher p = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
        toClose.add(p);
        return new TrackingPublisher(p, log);
    }

    private List<UUID> freshBacklog() throws Exception {
        return freshBacklog(ctx.settings.backlog());
    }

    private List<UUID> freshBacklog(int n) throws Exception {
        ctx.db.reset();
        List<UUID> ids = Backlog.insert(ctx.db, n);
        ctx.db.settle();
        return ids;
    }

    private Drain baseline(String run, boolean jms, int instances) throws Exception {
        List<UUID> ids = freshBacklog();
        PublishLog log = new PublishLog();
        List<AutoCloseable> toClose = new ArrayList<>();
        AgroalDataSource pool = ctx.db.pool(instances);
        CountingDataSource counting = new CountingDataSource(pool);
        try {
            List<ReferenceRelay> workers = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                workers.add(new ReferenceRelay(counting.dataSource(), publisher(jms, log, toClose, true), BASELINE_BATCH,
                        MAX_ATTEMPTS));
            }
            ReferenceRelay.Run together = ReferenceRelay.drainTogether(workers,
                    System.nanoTime() + ctx.millis(ctx.settings.baselineCapMs()), "bench-baseline");
            CpuMeter.Usage usage = together.usage();
            long left = ctx.db.pending();
            long done = ids.size() - left;
            boolean capped = left > 0;
            if (jms && !notedBaselineBroker && instances == 1) {
                notedBaselineBroker = true;
                ctx.results.note(SECTION, String.format(Locale.ROOT, "Broker time, baseline into JMS, 1 instance (%s): %d sends, "
                        + "%.2f ms per send, %.0f%% of the drain's time.", run, log.calls(), log.meanCallMillis(),
                        log.callSeconds() / together.seconds() * 100));
            }
            if (!profiledBaseline && !jms && instances == 1) {
                profiledBaseline = true;
                ctx.results.statementProfile("Baseline drain, no-op, 1 instance (" + run + ")", counting.table(done, "events"));
            }
            if (capped) {
                finishWithRelay(jms, log, toClose);
            }
            verify("drain baseline " + run, ids, log, jms);
            return new Drain(done / together.seconds(), usage, capped);
        } finally {
            closeAll(toClose);
            ctx.db.closePool(pool);
        }
    }

    /** Publishes what a capped baseline left, untimed, so the delivery check covers the whole backlog. */
    private void finishWithRelay(boolean jms, PublishLog log, List<AutoCloseable> toClose) throws Exception {
        try (RelayInstance finisher = new RelayInstance(ctx.db, RelayInstance.config("bench-finisher", false).build(),
                publisher(jms, log, toClose, false))) {
            finisher.start();
            BenchContext.await("the finishing relay to drain the rest", 600_000, () -> ctx.db.pending() == 0);
        }
    }

    private Drain relay(String run, boolean jms, int instances, int batchSize, CompletionMode mode, String serverOptions,
                        boolean pipelined) throws Exception {
        List<UUID> ids = freshBacklog();
        PublishLog log = new PublishLog();
        List<AutoCloseable> toClose = new ArrayList<>();
        List<RelayInstance> relays = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                RelayConfig config = RelayInstance.config("bench-relay-" + (i + 1), false).set(RelaySettings.BATCH_SIZE, batchSize)
                        .set(RelaySettings.COMPLETION, mode).build();
                relays.add(new RelayInstance(ctx.db, config, publisher(jms, log, toClose, false), serverOptions,
                        pipelined));
            }
            CpuMeter cpu = new CpuMeter();
            long t0 = System.nanoTime();
            for (RelayInstance r : relays) {
                r.start();
            }
            long n = ids.size();
            BenchContext.await("the relay to drain " + n + " events", Math.max(300_000, n / 50), () ->
                    relays.stream().mapToLong(RelayInstance::completed).sum() >= n);
            long t1 = System.nanoTime();
            CpuMeter.Usage usage = cpu.stop();
            if (jms && !notedRelayBroker && instances == 1) {
                notedRelayBroker = true;
                ctx.results.note(SECTION, String.format(Locale.ROOT, "Broker time, ee-outbox relay into JMS, 1 instance (%s): "
                        + "%d batches, %.2f ms per batch (one broker transaction), %.0f%% of the drain's time.", run, log.calls(),
                        log.meanCallMillis(), log.callSeconds() / ((t1 - t0) / 1e9) * 100));
                ctx.results.statementProfile("ee-outbox relay drain, persistent JMS, 1 instance (" + run + ")",
                        relays.get(0).counting().table(n, "events"));
            }
            if (!profiledRelay && !jms && instances == 1 && batchSize == RelaySettings.RECOMMENDED_BATCH_SIZE && serverOptions == null && pipelined) {
                profiledRelay = true;
                ctx.results.statementProfile("ee-outbox relay drain, no-op, 1 instance (" + run + ")",
                        relays.get(0).counting().table(n, "events"));
            }
            for (RelayInstance r : relays) {
                r.close();
            }
            relays.clear();
            verify("drain ee-outbox " + run, ids, log, jms);
            return new Drain(n / ((t1 - t0) / 1e9), usage, false);
        } finally {
            for (RelayInstance r : relays) {
                r.close();
            }
            closeAll(toClose);
        }
    }

    private void verify(String run, List<UUID> ids, PublishLog log, boolean jms) throws Exception {
        if (jms) {
            Map<UUID, Integer> delivered = ctx.broker().drainQueue(ids.size(), 500);
            ctx.check(run, ids, delivered);
        } else {
            ctx.check(run, ids, log);
        }
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable c : resources) {
            try {
                c.close();
            } catch (Exception e) {
                BenchContext.log("closing " + c + " failed: " + e);
            }
        }
        resources.clear();
    }
}
