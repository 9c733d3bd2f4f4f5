package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.bench.Producers.Work;
import io.eeoutbox.relay.cdc.CdcFiles;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Section 8's second part: what logical decoding costs the producers. Section 1's transactions (a JPA insert of an
 * order and {@code OutboxService.record(...)} of its event, one JTA transaction each, back to back) on the same
 * server with {@code wal_level=logical}, in turns: with no replication slot (decoding off); with the setup file's slot
 * and the connector reading it while they write (decoding on: the WAL sender decodes every commit); and, for
 * comparison, with no slot and an ee-outbox relay draining into Kafka while they write (what the relay costs them).
 * The turns rotate from run to run; each starts on an emptied, vacuumed table. What the connector and the relay
 * published during their turns is read back from Kafka and checked.
 */
final class CdcWriteCost {

    static final int[] CLIENTS = {1, 8};
    /** A smoke run only checks the path works and loses nothing: one client count. */
    static final int[] SMOKE_CLIENTS = {8};

    /** What runs beside the producers. */
    enum Beside {
        NOTHING("no slot (logical decoding off)"),
        CONNECTOR("slot + connector reading (logical decoding on)"),
        RELAY("no slot, ee-outbox relay draining into Kafka");

        final String label;

        Beside(String label) {
            this.label = label;
        }
    }

    private final CdcSection section;
    private final Producers producers;
    private final BenchContext ctx;

    CdcWriteCost(CdcSection section, Producers producers) {
        this.section = section;
        this.producers = producers;
        this.ctx = section.ctx;
    }

    void run() throws Exception {
        BenchSettings s = ctx.settings;
        section.db.reset();
        producers.closedLoop(2, Work.OUTBOX, 0, ctx.millis(s.writeWarmupMs())); // Hibernate, the pools, the JIT
        Beside[] variants = Beside.values();
        for (int clients : s.size().equals("smoke") ? SMOKE_CLIENTS : CLIENTS) {
            Map<Beside, List<Double>> tx = new EnumMap<>(Beside.class);
            Map<Beside, List<Double>> p50 = new EnumMap<>(Beside.class);
            for (Beside b : variants) {
                tx.put(b, new ArrayList<>());
                p50.put(b, new ArrayList<>());
            }
            List<Double> decoding = new ArrayList<>();
            List<Double> relay = new ArrayList<>();
            for (int r = 0; r < s.runs(); r++) {
                for (int k = 0; k < variants.length; k++) {
                    Beside b = variants[(k + r) % variants.length];
                    String run = clients + (clients == 1 ? " client" : " clients") + ", run " + (r + 1);
                    Producers.Outcome o = turn(b, clients, run);
                    tx.get(b).add(o.perSecond());
                    p50.get(b).add(Samples.percentileMillis(o.latencies(), 50));
                }
                decoding.add(tx.get(Beside.CONNECTOR).get(r) / tx.get(Beside.NOTHING).get(r));
                relay.add(tx.get(Beside.RELAY).get(r) / tx.get(Beside.NOTHING).get(r));
                BenchContext.log(String.format(Locale.ROOT, "producers with logical decoding, %d clients, run %d/%d: off %.0f"
                        + " tx/s, on %.0f tx/s (ratio %.2f); relay draining %.0f tx/s (ratio %.2f)", clients, r + 1, s.runs(),
                        tx.get(Beside.NOTHING).get(r), tx.get(Beside.CONNECTOR).get(r), decoding.get(r),
                        tx.get(Beside.RELAY).get(r), relay.get(r)));
            }
            String c = clients + (clients == 1 ? " client" : " clients");
            for (Beside b : variants) {
                ctx.results.figure(CdcSection.SECTION, "producers, " + c + ": " + b.label, "throughput", "tx/s", tx.get(b));
                ctx.results.figure(CdcSection.SECTION, "producers, " + c + ": " + b.label, "p50", "ms", p50.get(b));
            }
            ctx.results.figure(CdcSection.SECTION, "producers, " + c + ": ratio decoding on / off", "throughput", "x",
                    decoding);
            ctx.results.figure(CdcSection.SECTION, "producers, " + c + ": ratio relay draining / nothing beside",
                    "throughput", "x", relay);
            if (clients == 8) {
                double kept = ctx.results.find(CdcSection.SECTION, "producers, " + c + ": ratio decoding on / off",
                        "throughput").median();
                ctx.results.target(new Results.Target("producers' throughput kept with logical decoding on, 8 clients",
                        kept, WriteOverheadSection.MIN_THROUGHPUT_KEPT_8, true, "x",
                        "tx/s with the slot and the connector reading / no slot, same run, same server"));
            }
        }
        ctx.results.note(CdcSection.SECTION, "Producers: section 1's transaction with record() (Narayana JTA, Agroal pool "
                + "of 8, Hibernate), closed loop, " + s.writeWarmupMs() + " ms untimed then " + s.writeMeasureMs()
                + " ms timed per turn, NOTIFY trigger off, on the same server (wal_level=logical in every turn). With the "
                + "slot, the connector was streaming before the producers started and wrote every event to Kafka before the"
                + " turn's check; with the relay, it published every event before its check.");
    }

    /** One turn of the producers with {@code beside} running; checks what it published. */
    private Producers.Outcome turn(Beside beside, int clients, String run) throws Exception {
        BenchSettings s = ctx.settings;
        section.db.reset();
        return switch (beside) {
            case NOTHING -> producers.closedLoop(clients, Work.OUTBOX, ctx.millis(s.writeWarmupMs()),
                    ctx.millis(s.writeMeasureMs()));
            case CONNECTOR -> withConnector(clients, run);
            case RELAY -> withRelay(clients, run);
        };
    }

    private Producers.Outcome withConnector(int clients, String run) throws Exception {
        BenchSettings s = ctx.settings;
        section.slot();
        try {
            String prefix = section.freshTopics("cdc-write");
            Producers.Outcome o;
            long t0 = System.nanoTime();
            long streaming;
            long caughtUp;
            try (CdcSection.Connector connector = section.connector(prefix)) {
                BenchContext.await("the connector to stream from the slot", 120_000, () -> section.db.db().queryLong(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ee_outbox_cdc' AND active") == 1);
                streaming = System.nanoTime();
                o = producers.closedLoop(clients, Work.OUTBOX, ctx.millis(s.writeWarmupMs()), ctx.millis(s.writeMeasureMs()));
                int n = o.eventIds().size();
                connector.await("the connector to write the " + n + " events of the turn", 300_000, n);
                caughtUp = System.nanoTime();
            }
            BenchContext.log(String.format(Locale.ROOT, "connector turn, %s: streaming after %.1f s, caught up %.1f s after "
                    + "the producers stopped, stopped in %.1f s", run, (streaming - t0) / 1e9,
                    (caughtUp - o.measureEndNanos()) / 1e9, (System.nanoTime() - caughtUp) / 1e9));
            ctx.check("cdc section, producers with the connector, " + run, o.eventIds(),
                    KafkaDrainSection.delivered(section.kafka, prefix + ".order"), 0);
            return o;
        } finally {
            CdcFiles.dropSlotAndRole(section.db.db());
        }
    }

    private Producers.Outcome withRelay(int clients, String run) throws Exception {
        BenchSettings s = ctx.settings;
        String prefix = section.freshTopics("relay-write");
        Producers.Outcome o;
        try (KafkaPublisher publisher = section.publisher(prefix);
             RelayInstance relay = new RelayInstance(section.db, RelayInstance.config("bench-cdc-write-relay", false)
                     .build(), publisher)) {
            relay.start();
            relay.awaitSettled(java.time.Duration.ofSeconds(60));
            o = producers.closedLoop(clients, Work.OUTBOX, ctx.millis(s.writeWarmupMs()), ctx.millis(s.writeMeasureMs()));
            int n = o.eventIds().size();
            BenchContext.await("the relay to publish the " + n + " events of the turn", 300_000, () -> relay.completed() >= n);
        }
        ctx.check("cdc section, producers with the relay, " + run, o.eventIds(),
                KafkaDrainSection.delivered(section.kafka, prefix + ".order"), section.db.pending());
        return o;
    }
}
