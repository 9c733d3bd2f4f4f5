package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.bench.Producers.Work;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Section 1's transactions by CPU instead of by clock: for each variant, one client runs transactions back to back
 * and the probe reads the CPU time the benchmark JVM and the PostgreSQL server's processes spent on them (from
 * {@code /proc}; the server must run on this machine, as a cluster of its own, with nothing else on it). CPU per
 * transaction hardly moves with the machine's load where latency does, so it compares builds on a shared machine
 * (docs/benchmark.md, "What the write costs"). {@code -Dprobe.seconds} (5) per variant and round,
 * {@code -Dprobe.rounds} (3); the variants rotate from round to round.
 *
 * <pre>java -cp &lt;test classpath&gt; -Doutbox.test.jdbc-url=... io.eeoutbox.relay.bench.WriteCostProbe</pre>
 */
final class WriteCostProbe {

    private static final double TICK_MICROS = 10_000; // USER_HZ 100

    private WriteCostProbe() {
    }

    public static void main(String[] args) throws Exception {
        Benchmark.quietLogging();
        long seconds = Long.getLong("probe.seconds", 5);
        int rounds = Integer.getInteger("probe.rounds", 3);
        try (BenchDatabase db = new BenchDatabase(); Producers producers = new Producers(db)) {
            long postmaster = Long.parseLong(Files.readAllLines(Path.of(db.queryText("SHOW data_directory"),
                    "postmaster.pid")).get(0).trim());
            db.reset();
            for (Work w : Work.values()) {
                db.orderedIndex(w != Work.OUTBOX_UNORDERED_ONLY);
                producers.closedLoop(1, w, 0, seconds * 700_000_000L);
            }
            Work[] works = Work.values();
            System.out.println("| round | transaction | tx | JVM CPU µs/tx | PostgreSQL CPU µs/tx | p50 ms |");
            System.out.println("|---|---|---|---|---|---|");
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < works.length; k++) {
                    Work w = works[(k + r) % works.length];
                    db.orderedIndex(w != Work.OUTBOX_UNORDERED_ONLY);
                    db.reset();
                    long jvm0 = jvmCpuNanos();
                    long pg0 = serverTicks(postmaster);
                    Producers.Outcome o = producers.closedLoop(1, w, 0, seconds * 1_000_000_000L);
                    long jvm = jvmCpuNanos() - jvm0;
                    long pg = serverTicks(postmaster) - pg0;
                    System.out.printf(Locale.ROOT, "| %d | %s | %d | %.1f | %.1f | %.3f |%n", r + 1, w, o.measured(),
                            jvm / 1e3 / o.measured(), pg * TICK_MICROS / o.measured(), Samples.percentileMillis(o.latencies(), 50));
                }
            }
            db.orderedIndex(true);
        }
    }

    private static long jvmCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** utime + stime of every child of the postmaster (backends and background processes), in clock ticks. */
    private static long serverTicks(long postmaster) throws Exception {
        long sum = 0;
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs.filter(x -> x.getFileName().toString().matches("\\d+"))::iterator) {
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (java.io.IOException gone) {
                    continue;
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (Long.parseLong(f[1]) == postmaster) {
                    sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                }
            }
        }
        return sum;
    }
}
