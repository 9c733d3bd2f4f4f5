package io.eeoutbox.relay.bench;

import io.agroal.api.AgroalDataSource;
import io.eeoutbox.MessageHeaders;
import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import io.eeoutbox.relay.kafka.KafkaSettings;
import io.eeoutbox.spi.Publisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Section 6: a backlog drained into a real Kafka broker ({@link EmbeddedKafka}: a KRaft node in this JVM, or
 * Testcontainers' Kafka), {@code acks=all} and an idempotent producer on both sides. The baseline is the reference
 * article's algorithm ({@link ReferenceRelay}) with one synchronous send per event ({@code send(..).get()}, the
 * article's {@code publisher.Publish}), on a producer with {@code linger.ms=0} so that no send waits for a batch
 * that never comes; ee-outbox is its relay with the shipped {@link KafkaPublisher} (a batch handed over whole, then
 * all futures awaited). Each drain writes to a fresh topic of 6 partitions, which is then read back whole: every
 * event must be there at least once.
 */
final class KafkaDrainSection {

    static final int SECTION = 6;
    static final double MIN_RATIO = 5;
    static final double MIN_OVER_PRODUCERS = 2;
    static final int PARTITIONS = 6;

    private final BenchContext ctx;
    private final EmbeddedKafka kafka;
    private int topics;

    private KafkaDrainSection(BenchContext ctx, EmbeddedKafka kafka) {
        this.ctx = ctx;
        this.kafka = kafka;
    }

    private record Drain(double rate, CpuMeter.Usage cpu, boolean capped) {
    }

    static void run(BenchContext ctx) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            ctx.results.environment("Kafka: " + kafka.source() + " (org.apache.kafka 4.1.1), one node, "
                    + PARTITIONS + " partitions per topic, replication factor 1");
            new KafkaDrainSection(ctx, kafka).runAll();
        }
    }

    private void runAll() throws Exception {
        BenchSettings s = ctx.settings;
        ctx.db.notifyTrigger(false);
        // warm-up: JIT, pools, the broker's first topics
        int warm = Math.min(s.backlog(), s.size().equals("smoke") ? 1_000 : 3_000);
        baseline("warm-up", 1, warm, false);
        relay("warm-up", 1, warm, false);
        for (int instances : new int[] {1, 2}) {
            String scenario = "Kafka (acks=all), " + instances + (instances == 1 ? " instance" : " instances");
            List<Double> base = new ArrayList<>();
            List<Double> relay = new ArrayList<>();
            List<Double> ratio = new ArrayList<>();
            List<Double> baseJvm = new ArrayList<>();
            List<Double> baseMachine = new ArrayList<>();
            List<Double> relayJvm = new ArrayList<>();
            List<Double> relayMachine = new ArrayList<>();
            boolean anyCapped = false;
            for (int r = 0; r < s.runs(); r++) {
                String run = scenario + ", run " + (r + 1);
                Drain b = null;
                Drain e = null;
                for (int turn = 0; turn < 2; turn++) {
                    if ((turn == 0) == (r % 2 == 0)) {
                        b = baseline(run, instances, s.backlog(), true);
                    } else {
                        e = relay(run, instances, s.backlog(), true);
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
                BenchContext.log(String.format(Locale.ROOT, "drain %s: baseline %.0f/s%s, ee-outbox %.0f/s, ratio %.2f",
                        run, b.rate(), b.capped() ? " (capped)" : "", e.rate(), e.rate() / b.rate()));
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
                        + " s only (its rate is steady); an untimed ee-outbox relay published the rest before the check.");
            }
            double relayMedian = ctx.results.find(SECTION, scenario + ": ee-outbox relay", "drain rate").median();
            double ratioMedian = ctx.results.find(SECTION, scenario + ": ratio ee-outbox / baseline", "drain rate").median();
            if (instances == 1) {
                ctx.results.target(new Results.Target("drain into Kafka vs producer limit, 1 relay",
                        relayMedian / ctx.producerLimit, MIN_OVER_PRODUCERS, true, "x",
                        Double.isNaN(ctx.producerLimit) ? "producer limit not measured (section 1 skipped)"
                                : String.format(Locale.ROOT, "%.0f events/s vs %.0f tx/s (%s)", relayMedian,
                                        ctx.producerLimit, ctx.producerLimitBasis)));
            }
            ctx.results.target(new Results.Target("drain into Kafka vs baseline, " + instances + " instance(s)",
                    ratioMedian, MIN_RATIO, true, "x", "same run, same broker"));
        }
        ctx.results.note(SECTION, "Backlog: " + s.backlog() + " events as in section 2. Both sides: an idempotent producer, "
                + "acks=all, the same record (key = aggregate id, the outbox headers, the JSON payload). Baseline: "
                + "ReferenceRelay (LIMIT " + DrainSection.BASELINE_BATCH + ", one MarkOutboxProcessed per row) with one "
                + "synchronous send per event (linger.ms=0). ee-outbox: OutboxRelay, batch-size "
                + RelaySettings.RECOMMENDED_BATCH_SIZE + ", its KafkaPublisher (linger.ms=5, the rest the client's defaults). "
                + "Each instance has its own producer. The broker runs in the benchmark's JVM when no Docker engine "
                + "answers, so its CPU counts in \"JVM CPU\".");
    }

    private KafkaPublisher publisher(String topic, boolean baseline) {
        Map<String, String> m = new HashMap<>();
        m.put(KafkaSettings.TOPIC, topic);
        m.put(KafkaSettings.PRODUCER_PREFIX + "bootstrap.servers", kafka.bootstrapServers());
        if (baseline) {
            m.put(KafkaSettings.PRODUCER_PREFIX + "linger.ms", "0");
        }
        return new KafkaPublisher(KafkaSettings.load(ConfigLookups.of(m), m.keySet()));
    }

    private String freshTopic() {
        String topic = "bench-" + (++topics);
        kafka.createTopic(topic, PARTITIONS, Map.of());
        return topic;
    }

    private List<UUID> freshBacklog(int n) throws Exception {
        ctx.db.reset();
        List<UUID> ids = Backlog.insert(ctx.db, n);
        ctx.db.settle();
        return ids;
    }

    /** One synchronous send per event: the article's publisher.Publish. */
    private static Publisher oneByOne(KafkaPublisher kafka) {
        return kafka::publish;
    }

    private Drain baseline(String run, int instances, int n, boolean check) throws Exception {
        List<UUID> ids = freshBacklog(n);
        String topic = freshTopic();
        PublishLog log = new PublishLog();
        List<KafkaPublisher> producers = new ArrayList<>();
        AgroalDataSource pool = ctx.db.pool(instances);
        try {
            List<ReferenceRelay> workers = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                KafkaPublisher p = publisher(topic, true);
                producers.add(p);
                workers.add(new ReferenceRelay(pool, new TrackingPublisher(oneByOne(p), log), DrainSection.BASELINE_BATCH,
                        DrainSection.MAX_ATTEMPTS));
            }
            ReferenceRelay.Run together = ReferenceRelay.drainTogether(workers,
                    System.nanoTime() + ctx.millis(ctx.settings.baselineCapMs()), "bench-kafka-baseline");
            CpuMeter.Usage usage = together.usage();
            long left = ctx.db.pending();
            long done = ids.size() - left;
            if (left > 0) {
                KafkaPublisher finisher = publisher(topic, false);
                producers.add(finisher);
                try (RelayInstance r = new RelayInstance(ctx.db, RelayInstance.config("bench-kafka-finisher", false).build(),
                        new TrackingPublisher(finisher, log))) {
                    r.start();
                    BenchContext.await("the finishing relay to drain the rest", 600_000, () -> ctx.db.pending() == 0);
                }
            }
            if (check) {
                verify("drain Kafka baseline " + run, ids, topic);
            }
            return new Drain(done / together.seconds(), usage, left > 0);
        } finally {
            producers.forEach(KafkaPublisher::close);
            ctx.db.closePool(pool);
        }
    }

    private Drain relay(String run, int instances, int n, boolean check) throws Exception {
        List<UUID> ids = freshBacklog(n);
        String topic = freshTopic();
        PublishLog log = new PublishLog();
        List<KafkaPublisher> producers = new ArrayList<>();
        List<RelayInstance> relays = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                KafkaPublisher p = publisher(topic, false);
                producers.add(p);
                RelayConfig config = RelayInstance.config("bench-kafka-relay-" + (i + 1), false)
                        .set(RelaySettings.BATCH_SIZE, RelaySettings.RECOMMENDED_BATCH_SIZE).build();
                relays.add(new RelayInstance(ctx.db, config, new TrackingPublisher(p, log)));
            }
            CpuMeter cpu = new CpuMeter();
            long t0 = System.nanoTime();
            for (RelayInstance r : relays) {
                r.start();
            }
            BenchContext.await("the relay to drain " + n + " events into Kafka", Math.max(300_000, n / 50), () ->
                    relays.stream().mapToLong(RelayInstance::completed).sum() >= n);
            long t1 = System.nanoTime();
            CpuMeter.Usage usage = cpu.stop();
            for (RelayInstance r : relays) {
                r.close();
            }
            relays.clear();
            if (check) {
                verify("drain Kafka ee-outbox " + run, ids, topic);
            }
            return new Drain(n / ((t1 - t0) / 1e9), usage, false);
        } finally {
            for (RelayInstance r : relays) {
                r.close();
            }
            producers.forEach(KafkaPublisher::close);
        }
    }

    /** Reads the topic back whole and checks every event is in it. */
    private void verify(String run, List<UUID> ids, String topic) {
        ctx.check(run, ids, delivered(kafka, topic));
    }

    /** Reads a topic back whole: how many records each event id (the outbox header) has in it. */
    static Map<UUID, Integer> delivered(EmbeddedKafka kafka, String topic) {
        long expected = kafka.count(topic);
        List<ConsumerRecord<String, byte[]>> read = kafka.readAll(topic, Duration.ofMinutes(5), r -> r.size() >= expected);
        Map<UUID, Integer> delivered = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : read) {
            var h = r.headers().lastHeader(MessageHeaders.EVENT_ID);
            if (h != null) {
                delivered.merge(UUID.fromString(new String(h.value(), StandardCharsets.UTF_8)), 1, Integer::sum);
            }
        }
        return delivered;
    }
}
