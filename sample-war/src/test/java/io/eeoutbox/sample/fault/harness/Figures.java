package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The suite's figures: one row per scenario, printed as soon as the scenario ends and kept as a
 * Markdown table in {@code target/fault/results.md} (rewritten after each row, so a run that dies
 * midway still leaves the rows it had).
 */
public final class Figures {

    /** One scenario's outcome. */
    public record Row(int number, String scenario, String servers, boolean passed, String figures, Duration took) {
    }

    private final Path file;
    private final String header;
    private final List<Row> rows = new ArrayList<>();

    public Figures(Path file, String header) {
        this.file = file;
        this.header = header;
    }

    /** Figures in the order given: {@code key=value key=value}. */
    public static final class Line {
        private final Map<String, String> values = new LinkedHashMap<>();

        public Line put(String key, Object value) {
            values.put(key, value instanceof Duration d ? seconds(d) : String.valueOf(value));
            return this;
        }

        public String get(String key) {
            return values.get(key);
        }

        @Override
        public String toString() {
            StringJoiner j = new StringJoiner(" ");
            values.forEach((k, v) -> j.add(k + "=" + v));
            return j.toString();
        }
    }

    /** "4.2s". */
    public static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }

    public synchronized void add(Row row) {
        rows.removeIf(r -> r.number() == row.number() && r.servers().equals(row.servers()));
        rows.add(row);
        rows.sort(Comparator.comparingInt(Row::number).thenComparing(Row::servers));
        System.out.println("[fault] S" + row.number() + " " + row.scenario() + " on " + row.servers() + ": "
                + (row.passed() ? "PASS " : "FAIL ") + row.figures() + " (" + seconds(row.took()) + ")");
        write();
    }

    public synchronized List<Row> rows() {
        return List.copyOf(rows);
    }

    /** The Markdown table. */
    public synchronized String table() {
        StringBuilder b = new StringBuilder();
        b.append("# ee-outbox fault suite\n\n").append(header).append("\n\n");
        b.append("| # | scenario | server(s) | result | figures | time |\n");
        b.append("| --- | --- | --- | --- | --- | --- |\n");
        for (Row r : rows) {
            b.append("| ").append(r.number()).append(" | ").append(r.scenario()).append(" | ").append(r.servers())
                    .append(" | ").append(r.passed() ? "pass" : "**FAIL**").append(" | ")
                    .append(r.figures().replace("|", "\\|")).append(" | ").append(seconds(r.took())).append(" |\n");
        }
        return b.toString();
    }

    private void write() {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, table(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
