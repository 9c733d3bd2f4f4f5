package io.eeoutbox.relay.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What PostgreSQL alone adds for the outbox row: runs {@code bench/pgbench/write-overhead.sh} (psql and pgbench on
 * the PATH) against the benchmark's server, in the same job as section 1, and reads its {@code business+outbox}
 * line per client count (p50 added to the business-only transaction, in percent). Section 1 holds the event write
 * to at most {@link WriteOverheadSection#MAX_TIMES_PG_ALONE} times that (docs/benchmark.md, "What the write costs").
 * Asked for with {@code -Dbench.pgbench=true}; {@code -Dbench.pgbench.seconds} and {@code -Dbench.pgbench.rounds}
 * (default 10 and 3) size it.
 */
final class PgAlone {

    static final Path SCRIPT = Path.of("src/test/resources/bench/pgbench/write-overhead.sh");
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| business\\+outbox \\| [^|]+\\| [^|]+\\| ([+-]\\d+)% \\|$");

    private PgAlone() {
    }

    static boolean wanted() {
        return Boolean.getBoolean("bench.pgbench");
    }

    /** Client count -> percent added at p50 by the outbox row; empty when the script failed (logged). */
    static Map<Integer, Double> measure(String jdbcUrl, String user, int... clients) throws Exception {
        Map<Integer, Double> added = new TreeMap<>();
        if (!Files.isRegularFile(SCRIPT)) {
            BenchContext.log("pgbench: no " + SCRIPT.toAbsolutePath() + "; PostgreSQL alone not measured");
            return added;
        }
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        StringBuilder list = new StringBuilder();
        for (int c : clients) {
            list.append(list.length() == 0 ? "" : " ").append(c);
        }
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), System.getProperty("bench.pgbench.seconds", "10"),
                System.getProperty("bench.pgbench.rounds", "3")).redirectErrorStream(true);
        pb.environment().put("PGHOST", uri.getHost() == null ? "127.0.0.1" : uri.getHost());
        pb.environment().put("PGPORT", String.valueOf(uri.getPort() < 0 ? 5432 : uri.getPort()));
        if (user != null && !user.isBlank()) {
            pb.environment().put("PGUSER", user);
        }
        pb.environment().put("CLIENTS", list.toString());
        Process p = pb.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                BenchContext.log("pgbench: " + line);
                Matcher m = ROW.matcher(line.trim());
                if (m.matches()) {
                    added.put(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)));
                }
            }
        }
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            BenchContext.log("pgbench: the script failed; PostgreSQL alone not measured");
            added.clear();
        }
        return added;
    }
}
