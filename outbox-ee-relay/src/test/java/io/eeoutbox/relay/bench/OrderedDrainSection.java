package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Section 7: ordered mode (issue 29, decision 0014). One relay drains a backlog into a no-op publisher (the database
 * side alone), at the same batch size, in unordered mode and in ordered mode, on three layouts of the same kind of
 * events: interleaved (the aggregate changes with every event), grouped (each aggregate's events next to each other,
 * as a burst per customer leaves them) and one hot aggregate among many others (an account after an outage). The
 * drains of one run take turns in that order. Targets: grouped and interleaved in ordered mode at half unordered
 * mode's rate of the same run or more; the hot aggregate is limited by one round trip per event, so its rate is
 * printed (its events over the whole drain's time), not held to a target.
 */
final class OrderedDrainSection {

    static final int SECTION = 7;
    static final double MIN_SHARE_OF_UNORDERED = 0.5;
    static final int EVENTS_PER_AGGREGATE = 10;

    private final BenchContext ctx;
    private final int events;
    private final int hotEvents;
    private double lastHotAloneRate = Double.NaN;

    private OrderedDrainSection(BenchContext ctx) {
        this.ctx = ctx;
        boolean smoke = ctx.settings.size().equals("smoke");
        this.events = smoke ? 5_000 : 50_000;
        this.hotEvents = smoke ? 200 : 1_000;
    }

    /** A backlog's layout: the aggregate of event {@code i}, and how many events there are. */
    private record Layout(String name, int events, IntFunction<String> aggregate) {
    }

    static void run(BenchContext ctx) throws Exception {
        new OrderedDrainSection(ctx).runAll();
    }

    private void runAll() throws Exception {
        int aggregates = events / EVENTS_PER_AGGREGATE;
        int others = hotEvents * 10;
        int every = others / hotEvents + 1; // every (others/hot + 1)-th event is the hot aggregate's
        Layout interleaved = new Layout("interleaved, " + aggregates + " aggregates x " + EVENTS_PER_AGGREGATE, events,
                i -> "a-" + i % aggregates);
        Layout grouped = new Layout("grouped, " + aggregates + " aggregates x " + EVENTS_PER_AGGREGATE, events,
                i -> "a-" + i / EVENTS_PER_AGGREGATE);
        Layout hot = new Layout("one hot aggregate of " + hotEvents + " events among " + others + " others",
                hotEvents + others, i -> i % every == 0 ? "hot" : "a-" + i);
        ctx.db.notifyTrigger(false);
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        List<Double> hotRates = new ArrayList<>();
        List<Double> aloneRates = new ArrayList<>();
        drain("warm-up", interleaved, true); // JIT, pool
        for (int r = 0; r < ctx.settings.runs(); r++) {
            String run = "run " + (r + 1);
            double unordered = drain(run, interleaved, false);
            rates.computeIfAbsent("unordered, " + interleaved.name(), k -> new ArrayList<>()).add(unordered);
            for (Layout layout : List.of(interleaved, grouped)) {
                double ordered = drain(run, layout, true);
                rates.computeIfAbsent("ordered, " + layout.name(), k -> new ArrayList<>()).add(ordered);
                rates.computeIfAbsent("ordered / unordered, " + layout.name(), k -> new ArrayList<>())
                        .add(ordered / unordered);
            }
            double all = drain(run, hot, true);
            rates.computeIfAbsent("ordered, " + hot.name(), k -> new ArrayList<>()).add(all);
            hotRates.add(all * hotEvents / hot.events());
            aloneRates.add(lastHotAloneRate);
        }
        for (Map.Entry<String, List<Double>> e : rates.entrySet()) {
            boolean ratio = e.getKey().startsWith("ordered / unordered");
            ctx.results.figure(SECTION, e.getKey(), ratio ? "share of unordered" : "drain rate", ratio ? "x" : "events/s",
                    e.getValue());
        }
        ctx.results.figure(SECTION, "ordered, the hot aggregate's events", "hot aggregate rate", "events/s", hotRates);
        ctx.results.figure(SECTION, "ordered, the hot aggregate's events once it is alone", "hot aggregate rate",
                "events/s", aloneRates);
        for (Layout layout : List.of(interleaved, grouped)) {
            double share = ctx.results.find(SECTION, "ordered / unordered, " + layout.name(), "share of unordered")
                    .median();
            ctx.results.target(new Results.Target("ordered mode's drain rate over unordered mode's, " + layout.name(),
                    share, MIN_SHARE_OF_UNORDERED, true, "x", "same run, same batch size, no-op publisher"));
        }
        ctx.results.note(SECTION, "One relay at the benchmark's settings (batch-size " + RelaySettings.RECOMMENDED_BATCH_SIZE
                + ", NOTIFY off, busy poll as configured) into a no-op publisher; each backlog inserted, vacuumed and "
                + "analyzed before its drain; the time runs from the relay's start until every row is published and "
                + "marked. Hot aggregate rate: its " + hotEvents + " events over the whole drain's time (the other "
                + "aggregates drain beside it); once it is alone: its events published after the last of the others, "
                + "over the time from that one to its last (one claim statement per event).");
    }

    /**
     * The events of aggregate "hot" published after the last event of any other aggregate, per second from that
     * publish to the hot aggregate's last; NaN when the layout has no such tail.
     */
    private static double hotAloneRate(Layout layout, List<UUID> ids, PublishLog log) {
        long lastOther = Long.MIN_VALUE;
        List<Long> hot = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            long at = log.firstPublish().get(ids.get(i));
            if (layout.aggregate().apply(i).equals("hot")) {
                hot.add(at);
            } else {
                lastOther = Math.max(lastOther, at);
            }
        }
        long from = lastOther;
        long alone = hot.stream().filter(t -> t > from).count();
        long last = hot.stream().mapToLong(Long::longValue).max().orElse(from);
        return alone < 2 || last <= from ? Double.NaN : alone / ((last - from) / 1e9);
    }

    /** Drains a fresh backlog of {@code layout} with one relay; returns its rate in events per second. */
    private double drain(String run, Layout layout, boolean ordered) throws Exception {
        ctx.db.reset();
        List<UUID> ids = Backlog.insert(ctx.db, layout.events(), layout.aggregate());
        ctx.db.settle();
        PublishLog log = new PublishLog();
        RelayConfig config = RelayInstance.config("bench-ordered", false).set(RelaySettings.ORDERED, ordered).build();
        long t0;
        long t1;
        try (RelayInstance relay = new RelayInstance(ctx.db, config, TrackingPublisher.noOp(log))) {
            t0 = System.nanoTime();
            relay.start();
            long n = ids.size();
            BenchContext.await("the relay to drain " + n + " events", Math.max(300_000, n / 20),
                    () -> relay.completed() >= n);
            t1 = System.nanoTime();
        }
        String what = (ordered ? "ordered, " : "unordered, ") + layout.name();
        ctx.check("drain " + what + ", " + run, ids, log);
        lastHotAloneRate = hotAloneRate(layout, ids, log);
        double rate = ids.size() / ((t1 - t0) / 1e9);
        BenchContext.log(String.format(Locale.ROOT, "drain %s, %s: %.0f events/s", what, run, rate));
        return rate;
    }
}
