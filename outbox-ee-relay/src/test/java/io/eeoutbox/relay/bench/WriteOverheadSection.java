package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.bench.Producers.Work;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Section 1: what recording an event adds to a business transaction. Clients insert an order
 * through JPA in a JTA transaction, back to back, without and with {@code OutboxService.record(...)}
 * of its event (the NOTIFY trigger off: its price is section 4's). A third, diagnostic variant gives
 * record() its payload as a {@code JsonValue}, which record() does not parse: the difference to the
 * JSON-text variant is the cost of checking the text. A fourth gives the transaction one more statement
 * that does nothing ({@code SELECT 1}): the price of the extra round trip alone, which no outbox that
 * writes its row with a statement of its own can avoid. A fifth records as the second does, on an outbox without
 * ordered mode's index (sql/options/unordered-only.sql, applied for its runs only): what an outbox whose relays all
 * run unordered pays. The variants take turns within a run, in an
 * order that rotates from run to run, so slow drift of the machine favours none; each run starts
 * on an empty, vacuumed table.
 *
 * <p>Every run, smoke size included, prints the write against the {@code SELECT 1} variant (p50 and throughput
 * ratios), so a write that grows dearer than one more round trip shows at once. Targets (issue 30, decision 0016):
 * producers keep at least {@link #MIN_THROUGHPUT_KEPT_8} of their throughput at 8 clients, and, when
 * {@code -Dbench.pgbench=true} runs the pgbench script in the same job ({@link PgAlone}), the write adds at most
 * {@link #MAX_TIMES_PG_ALONE} times what PostgreSQL alone adds for the row.
 */
final class WriteOverheadSection {

    static final int SECTION = 1;
    static final int[] CLIENTS = {1, 2, 8};
    static final double MIN_THROUGHPUT_KEPT_8 = 0.75;
    static final double MAX_TIMES_PG_ALONE = 1.3;
    private static final String UNORDERED_RATIO = "ratio record, without ordered mode's index / business only";

    private WriteOverheadSection() {
    }

    private static String label(Work w) {
        return switch (w) {
            case BUSINESS -> "business only";
            case OUTBOX -> "+ OutboxService.record (JSON text)";
            case OUTBOX_JSON_VALUE -> "+ record, payload as JsonValue (diagnostic)";
            case BUSINESS_ROUND_TRIP -> "+ one empty statement, SELECT 1 (diagnostic)";
            case OUTBOX_UNORDERED_ONLY -> "+ record (JSON text), without ordered mode's index";
        };
    }

    static void run(BenchContext ctx) throws Exception {
        BenchSettings s = ctx.settings;
        Producers producers = ctx.producers();
        ctx.db.notifyTrigger(false);
        // Warm up Hibernate, the pools and the JIT on every path before anything is timed.
        ctx.db.reset();
        for (Work w : Work.values()) {
            ctx.db.orderedIndex(w != Work.OUTBOX_UNORDERED_ONLY);
            producers.closedLoop(2, w, 0, ctx.millis(s.writeWarmupMs()));
        }
        double limit = Double.NaN;
        int limitClients = 0;
        Work[] works = Work.values();
        for (int clients : CLIENTS) {
            Map<Work, List<Double>> tx = new EnumMap<>(Work.class);
            Map<Work, List<Double>> p50 = new EnumMap<>(Work.class);
            Map<Work, List<Double>> p99 = new EnumMap<>(Work.class);
            for (Work w : works) {
                tx.put(w, new ArrayList<>());
                p50.put(w, new ArrayList<>());
                p99.put(w, new ArrayList<>());
            }
            List<Double> ratioTx = new ArrayList<>();
            List<Double> ratioP50 = new ArrayList<>();
            List<Double> ratioP99 = new ArrayList<>();
            List<Double> vsRoundTripP50 = new ArrayList<>();
            List<Double> vsRoundTripTx = new ArrayList<>();
            List<Double> unorderedTx = new ArrayList<>();
            List<Double> unorderedP50 = new ArrayList<>();
            for (int r = 0; r < s.runs(); r++) {
                for (int k = 0; k < works.length; k++) {
                    Work w = works[(k + r) % works.length];
                    ctx.db.orderedIndex(w != Work.OUTBOX_UNORDERED_ONLY);
                    ctx.db.reset();
                    Producers.Outcome o = producers.closedLoop(clients, w, ctx.millis(s.writeWarmupMs()),
                            ctx.millis(s.writeMeasureMs()));
                    tx.get(w).add(o.perSecond());
                    p50.get(w).add(Samples.percentileMillis(o.latencies(), 50));
                    p99.get(w).add(Samples.percentileMillis(o.latencies(), 99));
                }
                ratioTx.add(tx.get(Work.OUTBOX).get(r) / tx.get(Work.BUSINESS).get(r));
                ratioP50.add(p50.get(Work.OUTBOX).get(r) / p50.get(Work.BUSINESS).get(r));
                ratioP99.add(p99.get(Work.OUTBOX).get(r) / p99.get(Work.BUSINESS).get(r));
                vsRoundTripP50.add(p50.get(Work.OUTBOX).get(r) / p50.get(Work.BUSINESS_ROUND_TRIP).get(r));
                vsRoundTripTx.add(tx.get(Work.OUTBOX).get(r) / tx.get(Work.BUSINESS_ROUND_TRIP).get(r));
                unorderedTx.add(tx.get(Work.OUTBOX_UNORDERED_ONLY).get(r) / tx.get(Work.BUSINESS).get(r));
                unorderedP50.add(p50.get(Work.OUTBOX_UNORDERED_ONLY).get(r) / p50.get(Work.BUSINESS).get(r));
                BenchContext.log(String.format(Locale.ROOT, "write overhead, %d clients, run %d/%d: business %.0f tx/s p50 %.2f ms;"
                                + " + outbox %.0f tx/s p50 %.2f ms; JsonValue %.0f tx/s p50 %.2f ms; SELECT 1 %.0f tx/s p50 %.2f ms;"
                        + " + outbox without the ordered index %.0f tx/s p50 %.2f ms",
                        clients, r + 1, s.runs(), tx.get(Work.BUSINESS).get(r), p50.get(Work.BUSINESS).get(r),
                        tx.get(Work.OUTBOX).get(r), p50.get(Work.OUTBOX).get(r), tx.get(Work.OUTBOX_JSON_VALUE).get(r),
                        p50.get(Work.OUTBOX_JSON_VALUE).get(r), tx.get(Work.BUSINESS_ROUND_TRIP).get(r),
                        p50.get(Work.BUSINESS_ROUND_TRIP).get(r), tx.get(Work.OUTBOX_UNORDERED_ONLY).get(r),
                        p50.get(Work.OUTBOX_UNORDERED_ONLY).get(r)));
            }
            String c = clients + (clients == 1 ? " client" : " clients");
            for (Work w : works) {
                ctx.results.figure(SECTION, c + ": " + label(w), "throughput", "tx/s", tx.get(w));
                ctx.results.figure(SECTION, c + ": " + label(w), "p50", "ms", p50.get(w));
                ctx.results.figure(SECTION, c + ": " + label(w), "p99", "ms", p99.get(w));
            }
            ctx.results.figure(SECTION, c + ": ratio record (JSON text) / business only", "throughput", "x", ratioTx);
            ctx.results.figure(SECTION, c + ": ratio record (JSON text) / business only", "p50", "x", ratioP50);
            ctx.results.figure(SECTION, c + ": ratio record (JSON text) / business only", "p99", "x", ratioP99);
            ctx.results.figure(SECTION, c + ": write ratio, record (JSON text) / SELECT 1", "throughput", "x", vsRoundTripTx);
            ctx.results.figure(SECTION, c + ": " + UNORDERED_RATIO, "throughput", "x", unorderedTx);
            ctx.results.figure(SECTION, c + ": " + UNORDERED_RATIO, "p50", "x", unorderedP50);
            ctx.results.figure(SECTION, c + ": write ratio, record (JSON text) / SELECT 1", "p50", "x", vsRoundTripP50);
            double p50VsRoundTrip = ctx.results.find(SECTION, c + ": write ratio, record (JSON text) / SELECT 1", "p50").median();
            double txVsRoundTrip = ctx.results.find(SECTION, c + ": write ratio, record (JSON text) / SELECT 1", "throughput")
                    .median();
            BenchContext.log(String.format(Locale.ROOT, "write ratio against SELECT 1, %s: p50 %.2fx, throughput %.2fx", c,
                    p50VsRoundTrip, txVsRoundTrip));
            if (clients == 8) {
                double kept = ctx.results.find(SECTION, c + ": ratio record (JSON text) / business only", "throughput")
                        .median();
                ctx.results.target(new Results.Target("producers' throughput kept with record(), 8 clients", kept,
                        MIN_THROUGHPUT_KEPT_8, true, "x", "tx/s with record() / business only, same run"));
                double keptUnordered = ctx.results.find(SECTION, c + ": " + UNORDERED_RATIO, "throughput").median();
                ctx.results.target(new Results.Target("producers' throughput kept with record(), 8 clients, an outbox"
                        + " without ordered mode's index (sql/options/unordered-only.sql)", keptUnordered,
                        MIN_THROUGHPUT_KEPT_8, true, "x", "tx/s with record() / business only, same run"));
            }
            double business = ctx.results.find(SECTION, c + ": " + label(Work.BUSINESS), "p50").median();
            double roundTrip = ctx.results.find(SECTION, c + ": " + label(Work.BUSINESS_ROUND_TRIP), "p50").median();
            double outboxP50 = ctx.results.find(SECTION, c + ": " + label(Work.OUTBOX), "p50").median();
            ctx.results.note(SECTION, String.format(Locale.ROOT, "%s, p50 (medians): business only %.3f ms; one empty "
                    + "statement more %.3f ms (+%.0f%%: the extra round trip alone); with record() %.3f ms (+%.0f%%), so "
                    + "the outbox row's own work (validation, INSERT, its index entries) is %.3f ms of the %.3f ms.", c,
                    business, roundTrip, (roundTrip / business - 1) * 100, outboxP50, (outboxP50 / business - 1) * 100,
                    outboxP50 - roundTrip, outboxP50 - business));
            double withOutbox = ctx.results.find(SECTION, c + ": " + label(Work.OUTBOX), "throughput").median();
            if (Double.isNaN(limit) || withOutbox > limit) {
                limit = withOutbox;
                limitClients = clients;
            }
        }
        ctx.db.orderedIndex(true); // the other sections run on the schema as it ships
        if (PgAlone.wanted()) {
            comparePgAlone(ctx);
        }
        ctx.producerLimit = limit;
        ctx.producerLimitBasis = "section 1, " + limitClients + " clients";
        ctx.results.note(SECTION, String.format(Locale.ROOT, "Producer limit (highest median throughput with record(), JSON"
                + " text): %.0f tx/s at %d clients; sections 2 and 3 are measured against it.", limit, limitClients));
        ctx.results.note(SECTION, "Each transaction: Narayana JTA (one-phase commit), Agroal pool of 8, Hibernate "
                + "persist of one order; with the outbox also JpaOutboxService.record(...) of a ~200-byte JSON payload "
                + "(generated InsertOutboxEvent statement). NOTIFY trigger off.");
    }

    /** The pgbench script in the same job: the write's p50 overhead against PostgreSQL's own for the row. */
    private static void comparePgAlone(BenchContext ctx) throws Exception {
        Map<Integer, Double> pgAlone = PgAlone.measure(ctx.db.db().url(), ctx.db.db().user(), 1, 8);
        for (int clients : new int[] {1, 8}) {
            String c = clients + (clients == 1 ? " client" : " clients");
            Double pg = pgAlone.get(clients);
            double jvm = (ctx.results.find(SECTION, c + ": ratio record (JSON text) / business only", "p50").median() - 1) * 100;
            double times = pg == null || pg <= 0 ? Double.NaN : jvm / pg;
            ctx.results.target(new Results.Target("write overhead at p50 against PostgreSQL alone, " + c, times,
                    MAX_TIMES_PG_ALONE, false, "x", String.format(Locale.ROOT, "record() adds %+.0f%%, the pgbench script's "
                    + "business+outbox %s in the same job", jvm, pg == null ? "not measured" : String.format(Locale.ROOT,
                    "%+.0f%%", pg))));
        }
    }
}
