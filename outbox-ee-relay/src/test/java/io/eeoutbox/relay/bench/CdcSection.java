package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.cdc.CdcFiles;
import io.eeoutbox.relay.cdc.EmbeddedConnector;
import io.eeoutbox.relay.cdc.LogicalPostgres;
import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import io.eeoutbox.relay.kafka.KafkaSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Section 8 (issue 33): the change-data-capture path of docs/cdc.md against the relay's {@link KafkaPublisher}, on a
 * PostgreSQL with {@code wal_level=logical} ({@link LogicalPostgres}: the tests' server when it has it, else an
 * embedded one of this section's own) and one Kafka broker ({@link EmbeddedKafka}). A backlog of the size section 6
 * drains is drained twice into fresh topics of the same broker: by an ee-outbox relay with its KafkaPublisher, and,
 * written after the setup file made the slot, by Debezium's connector as docs/cdc/ee-outbox-connector.json configures
 * it ({@link EmbeddedConnector}, which writes to Kafka as a Connect worker does). Both topics are read back whole:
 * every event must be there at least once. The connector's rate is timed from its start to the last record Kafka
 * acknowledged, and again from its first batch to that record (the steady rate, without the start).
 * {@link CdcWriteCost} then measures what logical decoding costs the producers.
 */
final class CdcSection {

    static final int SECTION = 8;
    static final String RELAY = "ee-outbox relay (KafkaPublisher)";
    static final String FROM_START = "Debezium connector, from its start to the last record acknowledged";
    static final String STEADY = "Debezium connector, first batch to last record (steady)";

    final BenchContext ctx;
    final BenchDatabase db;
    final EmbeddedKafka kafka;
    private final CdcFiles.Connector file = CdcFiles.connector();
    private int topics;

    private CdcSection(BenchContext ctx, BenchDatabase db, EmbeddedKafka kafka) {
        this.ctx = ctx;
        this.db = db;
        this.kafka = kafka;
    }

    /** One connector drain: events/s from the connector's start, and from its first batch. */
    private record Cdc(double fromStart, double steady) {
    }

    static void run(BenchContext ctx) throws Exception {
        long started = System.nanoTime();
        ctx.closeProducers(); // one JTA environment at a time: this section's producers write to its own database
        try (LogicalPostgres pg = LogicalPostgres.start("bench_cdc");
             BenchDatabase db = new BenchDatabase(pg.server());
             EmbeddedKafka kafka = EmbeddedKafka.start()) {
            ctx.results.note(SECTION, "Database: " + db.describe() + ", wal_level=" + db.queryText("SHOW wal_level")
                    + "; Kafka: " + kafka.source() + ", one node, " + KafkaDrainSection.PARTITIONS + " partitions per topic.");
            // Debezium's heartbeats (docs/cdc/ee-outbox-connector.json: heartbeat.interval.ms) need their topic: the
            // broker creates none by itself.
            kafka.createTopic(CdcFiles.heartbeatTopic(), 1, Map.of());
            CdcSection section = new CdcSection(ctx, db, kafka);
            long t0 = System.nanoTime();
            section.drains();
            long t1 = System.nanoTime();
            try (Producers producers = new Producers(db)) {
                new CdcWriteCost(section, producers).run();
            }
            BenchContext.log(String.format(Locale.ROOT, "section 8: servers and topics %.0f s, drains %.0f s, producers %.0f s",
                    (t0 - started) / 1e9, (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9));
        }
    }

    private void drains() throws Exception {
        BenchSettings s = ctx.settings;
        db.notifyTrigger(false);
        if (!s.size().equals("smoke")) {
            // warm-up: JIT, the broker's first topics, Debezium's classes and first engine (a first full run with
            // 3,000 events each saw both rates climb by half from run 1 to run 3)
            int warm = Math.min(s.backlog(), 20_000);
            relayDrain("warm-up", warm, false);
            connectorDrain("warm-up", warm, false);
        }
        List<Double> relay = new ArrayList<>();
        List<Double> fromStart = new ArrayList<>();
        List<Double> steady = new ArrayList<>();
        List<Double> ratioFromStart = new ArrayList<>();
        List<Double> ratioSteady = new ArrayList<>();
        for (int r = 0; r < s.runs(); r++) {
            String run = "run " + (r + 1);
            double e = Double.NaN;
            Cdc c = null;
            for (int turn = 0; turn < 2; turn++) {
                if ((turn == 0) == (r % 2 == 0)) {
                    e = relayDrain(run, s.backlog(), true);
                } else {
                    c = connectorDrain(run, s.backlog(), true);
                }
            }
            relay.add(e);
            fromStart.add(c.fromStart());
            steady.add(c.steady());
            ratioFromStart.add(c.fromStart() / e);
            ratioSteady.add(c.steady() / e);
            BenchContext.log(String.format(Locale.ROOT, "cdc drain %s: relay %.0f/s; connector %.0f/s from its start, %.0f/s"
                    + " steady; ratio %.2f (steady %.2f)", run, e, c.fromStart(), c.steady(), c.fromStart() / e,
                    c.steady() / e));
        }
        ctx.results.figure(SECTION, "Kafka (acks=all): " + RELAY, "drain rate", "events/s", relay);
        ctx.results.figure(SECTION, "Kafka (acks=all): " + FROM_START, "drain rate", "events/s", fromStart);
        ctx.results.figure(SECTION, "Kafka (acks=all): " + STEADY, "drain rate", "events/s", steady);
        ctx.results.figure(SECTION, "ratio connector (from its start) / relay", "drain rate", "x", ratioFromStart);
        ctx.results.figure(SECTION, "ratio connector (steady) / relay", "drain rate", "x", ratioSteady);
        ctx.results.note(SECTION, "Backlog: " + s.backlog() + " events (section 6's), one aggregate each, written with "
                + "the generated InsertOutboxEvent statement; each drain into fresh topics (" + KafkaDrainSection.PARTITIONS
                + " partitions) of the same broker, read back whole. Relay: one OutboxRelay, batch-size "
                + RelaySettings.RECOMMENDED_BATCH_SIZE + ", its KafkaPublisher (topic-pattern "
                + "<prefix>.{aggregate_type}, linger.ms=5, acks=all, idempotent). Connector: docs/cdc/ee-outbox-connector.json "
                + "as it is but route.topic.replacement (<prefix>.${routedByValue}); the slot made by docs/cdc/"
                + "ee-outbox-cdc-setup.sql before the backlog was written; the embedded engine's records sent as a Connect "
                + "worker sends them (acks=all, idempotent, the client's defaults otherwise), a batch at a time. The connector "
                + "leaves the rows in the table (in cdc mode the relay deletes them), so its checks count no pending rows.");
    }

    /** A fresh topic {@code <prefix>.order} (the backlog's aggregate type); returns the prefix. */
    String freshTopics(String what) {
        String prefix = "bench-" + what + "-" + (++topics);
        kafka.createTopic(prefix + ".order", KafkaDrainSection.PARTITIONS, Map.of());
        return prefix;
    }

    /** The relay's KafkaPublisher writing to {@code <prefix>.{aggregate_type}}. */
    KafkaPublisher publisher(String prefix) {
        Map<String, String> m = new HashMap<>();
        m.put(KafkaSettings.TOPIC_PATTERN, prefix + ".{aggregate_type}");
        m.put(KafkaSettings.PRODUCER_PREFIX + "bootstrap.servers", kafka.bootstrapServers());
        return new KafkaPublisher(KafkaSettings.load(ConfigLookups.of(m), m.keySet()));
    }

    /** The relay drains a fresh backlog of {@code n} events into fresh topics; returns events/s. */
    private double relayDrain(String run, int n, boolean check) throws Exception {
        db.reset();
        List<UUID> ids = Backlog.insert(db, n);
        db.settle();
        String prefix = freshTopics("relay");
        double rate;
        try (KafkaPublisher publisher = publisher(prefix);
             RelayInstance relay = new RelayInstance(db, RelayInstance.config("bench-cdc-relay", false).build(), publisher)) {
            long t0 = System.nanoTime();
            relay.start();
            BenchContext.await("the relay to drain " + n + " events into Kafka", Math.max(300_000, n / 50),
                    () -> relay.completed() >= n);
            rate = n / ((System.nanoTime() - t0) / 1e9);
        }
        if (check) {
            ctx.check("cdc section, relay drain " + run, ids, KafkaDrainSection.delivered(kafka, prefix + ".order"),
                    db.pending());
        }
        return rate;
    }

    /** The setup file's slot, then a fresh backlog of {@code n} events, read by the connector into fresh topics. */
    private Cdc connectorDrain(String run, int n, boolean check) throws Exception {
        db.reset();
        slot();
        String prefix;
        List<UUID> ids;
        long t0;
        long first;
        long last;
        try {
            ids = Backlog.insert(db, n);
            db.settle();
            prefix = freshTopics("cdc");
            t0 = System.nanoTime();
            try (Connector connector = connector(prefix)) {
                connector.await("the connector to write " + n + " records", Math.max(300_000, n / 20), n);
                first = connector.engine().firstBatchNanos();
                last = connector.engine().lastAckNanos();
            }
        } finally {
            CdcFiles.dropSlotAndRole(db.db());
        }
        if (check) {
            ctx.check("cdc section, connector drain " + run, ids, KafkaDrainSection.delivered(kafka, prefix + ".order"), 0);
        }
        return new Cdc(n / ((last - t0) / 1e9), n / ((last - first) / 1e9));
    }

    /** The setup file of docs/cdc.md: the connector's role, the publication and the slot. */
    void slot() {
        CdcFiles.setupStatements().forEach(db.db()::execute);
    }

    /** A started connector writing to {@code <prefix>.${routedByValue}}, with offsets of its own. */
    Connector connector(String prefix) throws Exception {
        Map<String, String> config = CdcFiles.configFor(file, db.db());
        config.put("transforms.outbox.route.topic.replacement", prefix + ".${routedByValue}");
        Path offsets = Files.createTempFile("ee-outbox-bench-cdc-offsets", ".dat");
        EmbeddedConnector engine = new EmbeddedConnector(file.name(), config, offsets, kafka.bootstrapServers());
        engine.start();
        return new Connector(engine, offsets);
    }

    /** A running connector and its offsets file, both gone on {@link #close()}. */
    record Connector(EmbeddedConnector engine, Path offsets) implements AutoCloseable {

        /** Waits until the connector wrote {@code n} outbox records; fails at once if it failed. */
        void await(String what, long timeoutMillis, int n) throws InterruptedException {
            BenchContext.await(what, timeoutMillis, () -> {
                if (engine.failure() != null) {
                    throw new IllegalStateException("the connector failed", engine.failure());
                }
                return engine.records() >= n;
            });
        }

        @Override
        public void close() throws Exception {
            try {
                engine.close();
            } finally {
                Files.deleteIfExists(offsets);
            }
        }
    }
}
