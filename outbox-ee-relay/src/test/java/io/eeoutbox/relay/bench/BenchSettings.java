package io.eeoutbox.relay.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Sizes and durations of a benchmark run. {@code -Dbench.size=smoke|full} picks a preset; single
 * values can be overridden with {@code -Dbench.runs}, {@code -Dbench.backlog}, {@code -Dbench.sections}
 * (e.g. {@code 2,3}), {@code -Dbench.out} (the output directory) and {@code -Dbench.jfr=true} (one JFR
 * recording per section, with the "profile" settings, under {@code <out>/jfr/}).
 *
 * @param runs             runs per figure (each figure is their median, with min-max)
 * @param backlog          events in a drain backlog
 * @param writeWarmupMs    untimed start of each producer run
 * @param writeMeasureMs   timed part of each producer run
 * @param latencyMeasureMs timed part of each latency run
 * @param idleWindowMs     one idle-cost window
 * @param idleRuns         idle windows per variant
 * @param steadyAloneMs    producers alone, before the steady-state run
 * @param steadyMeasureMs  producers and relay together
 * @param baselineCapMs    longest a baseline drain is timed; the rest of its backlog is then
 *                         published by an untimed ee-outbox relay (so every event is still checked)
 * @param steadyClients    producer clients in the steady-state run
 */
record BenchSettings(String size, int runs, int backlog, long writeWarmupMs, long writeMeasureMs,
                     long latencyMeasureMs, long idleWindowMs, int idleRuns, long steadyAloneMs, long steadyMeasureMs,
                     long baselineCapMs, int steadyClients, Set<Integer> sections, Path out, boolean jfr) {

    static BenchSettings smoke(Path out) {
        return new BenchSettings("smoke", 1, 5_000, 200, 600, 1_500, 2_000, 1, 800, 2_000, 1_500, 8,
                Set.of(1, 2, 3, 4, 5, 6, 7, 8), out, false);
    }

    static BenchSettings full(Path out) {
        return new BenchSettings("full", 3, 200_000, 2_000, 10_000, 20_000, 30_000, 3, 20_000, 60_000, 30_000, 8,
                Set.of(1, 2, 3, 4, 5, 6, 7, 8), out, false);
    }

    static BenchSettings fromSystemProperties() {
        String size = property("bench.size", "full").toLowerCase(Locale.ROOT);
        Path out = Path.of(property("bench.out", "target/benchmark"));
        BenchSettings s = switch (size) {
            case "smoke" -> smoke(out);
            case "full" -> full(out);
            default -> throw new IllegalArgumentException("bench.size=" + size + " (allowed: smoke, full)");
        };
        int runs = Integer.parseInt(property("bench.runs", String.valueOf(s.runs())));
        int backlog = Integer.parseInt(property("bench.backlog", String.valueOf(s.backlog())));
        String sectionList = property("bench.sections", "all");
        Set<Integer> sections = sectionList.equals("all") ? s.sections()
                : Arrays.stream(sectionList.split(",")).map(String::trim).filter(x -> !x.isEmpty())
                        .map(Integer::parseInt).collect(Collectors.toCollection(TreeSet::new));
        boolean jfr = Boolean.parseBoolean(property("bench.jfr", "false"));
        return new BenchSettings(s.size(), runs, backlog, s.writeWarmupMs(), s.writeMeasureMs(), s.latencyMeasureMs(),
                s.idleWindowMs(), s.idleRuns(), s.steadyAloneMs(), s.steadyMeasureMs(), s.baselineCapMs(), s.steadyClients(),
                sections, out, jfr);
    }

    private static String property(String key, String fallback) {
        String v = System.getProperty(key);
        return v == null || v.isBlank() ? fallback : v.trim();
    }
}
