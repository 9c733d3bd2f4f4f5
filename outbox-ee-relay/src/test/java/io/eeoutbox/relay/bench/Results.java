package io.eeoutbox.relay.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a benchmark run found: figures (each the per-run values of one metric, reported as median and
 * min-max), the delivery checks (no event lost), the targets of issue 7 with how far each is missed,
 * and notes. Writes {@code results.md} and {@code results.csv}.
 */
final class Results {

    /** One metric of one scenario: the value of every run. */
    record Figure(int section, String scenario, String metric, String unit, double[] values) {

        double median() {
            double[] v = finite();
            if (v.length == 0) {
                return Double.NaN;
            }
            Arrays.sort(v);
            return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }

        double min() {
            return Arrays.stream(finite()).min().orElse(Double.NaN);
        }

        double max() {
            return Arrays.stream(finite()).max().orElse(Double.NaN);
        }

        private double[] finite() {
            return Arrays.stream(values).filter(Double::isFinite).toArray();
        }
    }

    /** A delivery check: every inserted event published at least once, nothing else published. */
    record Check(String run, long expected, long publishedDistinct, long missing, long unexpected, long duplicates,
                 long stillPending) {
        boolean passed() {
            return missing == 0 && unexpected == 0 && publishedDistinct == expected && stillPending == 0;
        }
    }

    /** A target of issue 7. {@code atLeast}: the measured value must be at least {@code required}; otherwise at most. */
    record Target(String name, double measured, double required, boolean atLeast, String unit, String basis) {
        boolean met() {
            return Double.isFinite(measured) && (atLeast ? measured >= required : measured <= required);
        }

        String status() {
            if (!Double.isFinite(measured)) {
                return "not measured";
            }
            if (met()) {
                return "met";
            }
            double by = atLeast ? (required - measured) / required * 100 : (measured - required) / required * 100;
            return String.format(Locale.ROOT, "MISSED by %.0f%%", by);
        }
    }

    static final Map<Integer, String> SECTIONS = Map.of(
            1, "Write overhead (JPA insert in a JTA transaction, with and without OutboxService.record)",
            2, "Drain rate of a backlog",
            3, "Commit-to-publish latency at about half the producer limit",
            4, "Idle cost and the price of the NOTIFY trigger",
            5, "Steady state: producers at full speed with the relay running",
            6, "Drain rate of a backlog into Kafka (acks=all)",
            7, "Ordered mode: drain rate by backlog layout, beside unordered mode",
            8, "CDC into Kafka: Debezium's connector against the relay, and logical decoding's cost to the producers");

    private final List<String> environment = new ArrayList<>();
    private final List<Figure> figures = new ArrayList<>();
    private final List<Check> checks = new ArrayList<>();
    private final List<Target> targets = new ArrayList<>();
    private final Map<Integer, List<String>> notes = new LinkedHashMap<>();
    private final List<String> statementProfiles = new ArrayList<>();

    synchronized void environment(String line) {
        environment.add(line);
    }

    synchronized void figure(int section, String scenario, String metric, String unit, double... values) {
        figures.add(new Figure(section, scenario, metric, unit, values.clone()));
    }

    synchronized void figure(int section, String scenario, String metric, String unit, List<Double> values) {
        figure(section, scenario, metric, unit, values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    synchronized Check check(Check check) {
        checks.add(check);
        return check;
    }

    synchronized void target(Target target) {
        targets.add(target);
    }

    synchronized void note(int section, String text) {
        notes.computeIfAbsent(section, s -> new ArrayList<>()).add(text);
    }

    synchronized void statementProfile(String title, String table) {
        statementProfiles.add("#### " + title + "\n\n" + table);
    }

    synchronized List<Figure> figures() {
        return List.copyOf(figures);
    }

    synchronized List<Check> checks() {
        return List.copyOf(checks);
    }

    synchronized List<Target> targets() {
        return List.copyOf(targets);
    }

    /** Sections that publish nothing, so have no delivery check: the write overhead (1) and the idle cost (4). */
    static final Set<Integer> WITHOUT_DELIVERY = Set.of(1, 4);

    private boolean deliveryExpected = true;

    /** Whether the sections asked for publish events, so that a run without a delivery check is a failure. */
    synchronized void expectDelivery(Set<Integer> sections) {
        deliveryExpected = !WITHOUT_DELIVERY.containsAll(sections);
    }

    synchronized boolean allChecksPassed() {
        return (!checks.isEmpty() || !deliveryExpected) && checks.stream().allMatch(Check::passed);
    }

    /** The figure of a scenario and metric, or null. */
    synchronized Figure find(int section, String scenario, String metric) {
        return figures.stream().filter(f -> f.section() == section && f.scenario().equals(scenario)
                && f.metric().equals(metric)).findFirst().orElse(null);
    }

    synchronized Set<Integer> sectionsWithFigures() {
        return figures.stream().map(Figure::section).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    // --- output ------------------------------------------------------------------------------

    synchronized String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# ee-outbox benchmark results\n\n");
        for (String e : environment) {
            md.append("- ").append(e).append('\n');
        }
        md.append("\nEach cell: median of the runs, and (min-max) when there were several.\n");
        for (int section = 1; section <= SECTIONS.size(); section++) {
            final int s = section;
            List<Figure> of = figures.stream().filter(f -> f.section() == s).toList();
            List<String> sectionNotes = notes.getOrDefault(s, List.of());
            if (of.isEmpty() && sectionNotes.isEmpty()) {
                continue;
            }
            md.append("\n## ").append(s).append(". ").append(SECTIONS.get(s)).append("\n\n");
            md.append(pivot(of));
            for (String n : sectionNotes) {
                md.append("\n- ").append(n);
            }
            if (!sectionNotes.isEmpty()) {
                md.append('\n');
            }
        }
        md.append("\n## Targets (issue 7)\n\n");
        md.append("| target | measured (median) | required | status | basis |\n|---|---|---|---|---|\n");
        for (Target t : targets) {
            md.append("| ").append(t.name()).append(" | ").append(format(t.measured(), t.unit())).append(' ').append(t.unit())
                    .append(" | ").append(t.atLeast() ? ">= " : "<= ").append(format(t.required(), t.unit())).append(' ')
                    .append(t.unit()).append(" | ").append(t.status()).append(" | ").append(t.basis()).append(" |\n");
        }
        md.append("\n## Delivery checks (every event published at least once, none lost)\n\n");
        md.append("| run | inserted | published (distinct) | missing | unexpected | duplicates | still pending | ok |\n");
        md.append("|---|---|---|---|---|---|---|---|\n");
        for (Check c : checks) {
            md.append("| ").append(c.run()).append(" | ").append(c.expected()).append(" | ").append(c.publishedDistinct())
                    .append(" | ").append(c.missing()).append(" | ").append(c.unexpected()).append(" | ")
                    .append(c.duplicates()).append(" | ").append(c.stillPending()).append(" | ")
                    .append(c.passed() ? "yes" : "**NO**").append(" |\n");
        }
        md.append("\nAll checks passed: ").append(allChecksPassed() ? "yes" : "**NO**")
                .append(checks.isEmpty() && !deliveryExpected ? " (these sections publish nothing: no delivery to check)" : "")
                .append('\n');
        if (!statementProfiles.isEmpty()) {
            md.append("\n## Statement profiles (client side: count and time per statement, from the counting data source)\n\n");
            for (String p : statementProfiles) {
                md.append(p).append('\n');
            }
        }
        return md.toString();
    }

    /** Rows: scenarios in order of appearance; columns: metrics in order of appearance. */
    private static String pivot(List<Figure> of) {
        if (of.isEmpty()) {
            return "";
        }
        Set<String> scenarios = new LinkedHashSet<>();
        Map<String, String> metrics = new LinkedHashMap<>();
        for (Figure f : of) {
            scenarios.add(f.scenario());
            metrics.putIfAbsent(f.metric(), f.unit());
        }
        StringBuilder md = new StringBuilder("| scenario |");
        for (Map.Entry<String, String> m : metrics.entrySet()) {
            md.append(' ').append(m.getKey()).append(m.getValue().isEmpty() ? "" : " (" + m.getValue() + ")").append(" |");
        }
        md.append("\n|---|");
        md.append("---|".repeat(metrics.size()));
        md.append('\n');
        for (String scenario : scenarios) {
            md.append("| ").append(scenario).append(" |");
            for (String metric : metrics.keySet()) {
                Figure f = of.stream().filter(x -> x.scenario().equals(scenario) && x.metric().equals(metric))
                        .findFirst().orElse(null);
                md.append(' ').append(f == null ? "" : cell(f)).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static String cell(Figure f) {
        String median = format(f.median(), f.unit());
        long finite = Arrays.stream(f.values()).filter(Double::isFinite).count();
        if (finite <= 1) {
            return median;
        }
        return median + " (" + format(f.min(), f.unit()) + "-" + format(f.max(), f.unit()) + ")";
    }

    static String format(double v, String unit) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        return switch (unit) {
            case "ms" -> v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : v >= 10
                    ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
            case "x" -> String.format(Locale.ROOT, "%.2f", v);
            case "%", "cores" -> String.format(Locale.ROOT, "%.1f", v);
            default -> String.format(Locale.ROOT, "%,.0f", v);
        };
    }

    synchronized String csv() {
        StringBuilder csv = new StringBuilder("section,scenario,metric,unit,median,min,max,runs,values\n");
        for (Figure f : figures) {
            csv.append(f.section()).append(',').append(quote(f.scenario())).append(',').append(quote(f.metric())).append(',')
                    .append(quote(f.unit())).append(',').append(num(f.median())).append(',').append(num(f.min())).append(',')
                    .append(num(f.max())).append(',').append(f.values().length).append(',')
                    .append(quote(Arrays.stream(f.values()).mapToObj(Results::num).collect(Collectors.joining(";"))))
                    .append('\n');
        }
        for (Target t : targets) {
            csv.append("target,").append(quote(t.name())).append(',').append(quote(t.status())).append(',')
                    .append(quote(t.unit())).append(',').append(num(t.measured())).append(',').append(num(t.required()))
                    .append(",,,\n");
        }
        for (Check c : checks) {
            csv.append("check,").append(quote(c.run())).append(',').append(c.passed() ? "ok" : "FAILED").append(",events,")
                    .append(c.publishedDistinct()).append(',').append(c.expected()).append(",,,\n");
        }
        return csv.toString();
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("results.csv"), csv(), StandardCharsets.UTF_8);
    }
}
