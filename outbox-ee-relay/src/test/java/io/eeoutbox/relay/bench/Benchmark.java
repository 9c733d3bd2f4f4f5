package io.eeoutbox.relay.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * ee-outbox's benchmark (issue 7): write overhead, drain rate against the reference article's
 * algorithm, commit-to-publish latency, idle cost and steady state, on a real PostgreSQL and a
 * persistent Artemis broker; then the drain into Kafka, ordered mode, and Debezium's CDC path against
 * the relay (section 8). Prints a table and writes {@code results.md} and {@code results.csv}
 * (default under {@code target/benchmark/}). Every run checks that every event was published at
 * least once and none was lost; the exit status is 1 when a check failed (a missed speed target
 * is reported, not fatal).
 *
 * <p>Run from the repository root (see {@code docs/benchmark.md}):
 * <pre>
 * mvn -B -ntp -pl outbox-ee-relay -am verify -Pbenchmark -DskipTests \
 *     -Doutbox.test.jdbc-url=jdbc:postgresql://127.0.0.1:5432/postgres -Doutbox.test.jdbc-user=postgres
 * </pre>
 */
public final class Benchmark {

    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        quietLogging();
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Results results = run(settings);
        System.out.println();
        System.out.println(results.markdown());
        System.out.println("[bench] written: " + settings.out().resolve("results.md").toAbsolutePath() + " and results.csv");
        System.exit(results.allChecksPassed() ? 0 : 1);
    }

    /** Runs the sections the settings ask for and writes the results; failures of a section are recorded, not thrown. */
    static Results run(BenchSettings settings) throws Exception {
        Results results = new Results();
        results.expectDelivery(settings.sections());
        long started = System.nanoTime();
        Files.createDirectories(settings.out());
        results.environment("size: " + settings.size() + ", runs per figure: " + settings.runs() + ", backlog: "
                + settings.backlog() + " events, sections: " + new java.util.TreeSet<>(settings.sections()));
        results.environment("source: " + sourceVersion());
        results.environment("machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB heap; JVM " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.version") + "; started " + Instant.now());
        try (BenchDatabase db = new BenchDatabase()) {
            results.environment("database: " + db.describe());
            db.checkpoints(settings.size().equals("full"));
            try (BenchContext ctx = new BenchContext(settings, results, db)) {
                for (int section = 1; section <= Results.SECTIONS.size(); section++) {
                    if (!settings.sections().contains(section)) {
                        continue;
                    }
                    BenchContext.log("section " + section + ": " + Results.SECTIONS.get(section));
                    long t0 = System.nanoTime();
                    String loadBefore = loadAverage();
                    try (Recording jfr = settings.jfr() ? startJfr() : null) {
                        try {
                            switch (section) {
                                case 1 -> WriteOverheadSection.run(ctx);
                                case 2 -> DrainSection.run(ctx);
                                case 3 -> LatencySection.run(ctx);
                                case 4 -> IdleSection.run(ctx);
                                case 5 -> SteadyStateSection.run(ctx);
                                case 6 -> KafkaDrainSection.run(ctx);
                                case 7 -> OrderedDrainSection.run(ctx);
                                case 8 -> CdcSection.run(ctx);
                                default -> throw new IllegalStateException("no section " + section);
                            }
                        } catch (Exception | AssertionError e) {
                            e.printStackTrace();
                            results.note(section, "SECTION FAILED: " + e);
                            results.check(new Results.Check("section " + section + " completed", 1, 0, 1, 0, 0, 0));
                        }
                        if (jfr != null) {
                            Path file = settings.out().resolve("jfr").resolve("section-" + section + ".jfr");
                            Files.createDirectories(file.getParent());
                            jfr.dump(file);
                            BenchContext.log("JFR recording: " + file);
                        }
                    }
                    double took = (System.nanoTime() - t0) / 1e9;
                    BenchContext.log(String.format(Locale.ROOT, "section %d took %.0f s", section, took));
                    results.note(section, String.format(Locale.ROOT, "Section took %.0f s; machine load average (1 min) "
                            + "before / after: %s / %s (2 cores; other work on the machine adds noise).", took, loadBefore,
                            loadAverage()));
                    results.write(settings.out());
                }
            }
        }
        results.environment(String.format(Locale.ROOT, "benchmark took %.0f s", (System.nanoTime() - started) / 1e9));
        results.write(settings.out());
        return results;
    }

    /**
     * The code measured: {@code -Dbench.commit} when given (a build from an exported tree), otherwise
     * the git commit of the working tree and whether main code or SQL had uncommitted changes.
     */
    static String sourceVersion() {
        String given = System.getProperty("bench.commit", "").trim();
        if (!given.isEmpty()) {
            return "commit " + given;
        }
        String head = git("rev-parse", "--short", "HEAD");
        if (head.isEmpty()) {
            return "unknown (no git)";
        }
        String dirty = git("status", "--porcelain", "--", "../outbox-api/src/main", "../outbox-jpa/src/main",
                "../outbox-ee-relay/src/main", "../sql");
        return "commit " + head + (dirty.isEmpty() ? ", main code and SQL as committed"
                : ", WITH uncommitted changes in main code or SQL: " + dirty.replace('\n', ';'));
    }

    private static String git(String... args) {
        try {
            String[] command = new String[args.length + 1];
            command[0] = "git";
            System.arraycopy(args, 0, command, 1, args.length);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? out : "";
        } catch (IOException | RuntimeException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The 1-minute load average from /proc/loadavg, or "?". */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static Recording startJfr() throws IOException {
        try {
            Recording r = new Recording(Configuration.getConfiguration("profile"));
            r.start();
            return r;
        } catch (java.text.ParseException e) {
            throw new IOException(e);
        }
    }

    /** The benchmark prints its own progress; libraries only warn. */
    static void quietLogging() {
        Logger.getLogger("").setLevel(Level.WARNING);
        Logger.getLogger("org.hibernate").setLevel(Level.WARNING);
        Logger.getLogger("org.jboss").setLevel(Level.WARNING);
        Logger.getLogger("com.arjuna").setLevel(Level.WARNING);
    }
}
