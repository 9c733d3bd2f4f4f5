package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The relay's package rules (issue 20), read from the library modules' main sources: the engine's steps
 * ({@link #ENGINE}) are plain Java, free of any {@code jakarta.*} API, so they run and are tested without a
 * container; and no two packages of the library depend on each other in a cycle, so each package can be
 * read (and replaced) knowing only the ones below it.
 */
class PackageRulesTest {

    static final Set<String> ENGINE = Set.of("io.eeoutbox.relay.drain", "io.eeoutbox.relay.claim",
            "io.eeoutbox.relay.complete", "io.eeoutbox.relay.counters", "io.eeoutbox.relay.wake",
            "io.eeoutbox.relay.store", "io.eeoutbox.relay.backoff", "io.eeoutbox.relay.cleanup",
            "io.eeoutbox.relay.config", "io.eeoutbox.relay.fleet");

    /**
     * Which relay packages each relay package may use (relative to {@code io.eeoutbox.relay}; {@code ""} is that
     * package itself): the steps in layers, the lower knowing nothing of the higher. The drain runs a claim, a
     * publish and a completion; completion settles rows through the store, with the backoff's decisions and the
     * counters; the relay ({@code ""}) wires the steps; {@code ee} wires the relay into a container. The operations
     * service ({@code ops}) sits over the relay; its EE glue ({@code ops.ee}) over it and the metrics and health
     * adapters; the console over the service.
     */
    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            Map.entry("config", Set.of()),
            Map.entry("counters", Set.of()),
            Map.entry("claim", Set.of()),
            Map.entry("store", Set.of("config")),
            Map.entry("backoff", Set.of("config")),
            Map.entry("wake", Set.of("config", "store")),
            Map.entry("cleanup", Set.of("config", "store")),
            Map.entry("complete", Set.of("config", "store", "backoff", "counters")),
            Map.entry("drain", Set.of("config", "store", "backoff", "counters", "claim", "complete")),
            Map.entry("fleet", Set.of("store")),
            Map.entry("", Set.of("config", "store", "backoff", "counters", "cleanup", "drain", "wake", "fleet")),
            Map.entry("jms", Set.of()),
            Map.entry("kafka", Set.of("config")),
            Map.entry("trace", Set.of()),
            Map.entry("ee", Set.of("", "config", "store", "jms", "kafka", "trace")),
            Map.entry("ops", Set.of("", "config", "store", "backoff", "counters", "cleanup", "fleet")),
            Map.entry("ops.micrometer", Set.of("ops")),
            Map.entry("ops.mpmetrics", Set.of("ops")),
            Map.entry("ops.mphealth", Set.of("ops", "ops.ee")),
            Map.entry("ops.ee", Set.of("", "ee", "store", "backoff", "ops", "ops.micrometer", "ops.mpmetrics",
                    "ops.mphealth")),
            Map.entry("console", Set.of("", "config", "store", "ee", "ops", "ops.ee")));

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+);", Pattern.MULTILINE);
    /** A type named by its full name in code: {@code io.eeoutbox.x.y.Type}. */
    private static final Pattern QUALIFIED = Pattern.compile("\\b(io\\.eeoutbox(?:\\.[a-z]\\w*)+)\\.[A-Z]");

    @Test
    void engineStepsImportNoJakartaApi() throws IOException {
        Map<String, List<String>> offenders = new TreeMap<>();
        for (Source s : sources()) {
            if (ENGINE.contains(s.pkg())) {
                Matcher m = IMPORT.matcher(s.text());
                while (m.find()) {
                    if (m.group(1).startsWith("jakarta.")) {
                        offenders.computeIfAbsent(s.path(), k -> new ArrayList<>()).add(m.group(1));
                    }
                }
            }
        }
        assertThat(offenders).as("engine packages %s must not import jakarta.*: move the EE glue to"
                + " io.eeoutbox.relay.ee or io.eeoutbox.relay.ops.ee", ENGINE).isEmpty();
    }

    /**
     * One road to SQL (issue 31): of the relay, only {@code store} runs statements, the generated DAO's or its
     * own ({@code store.OperatorQueries} holds the console's).
     */
    @Test
    void onlyTheStoreRunsSqlInTheRelay() throws IOException {
        Set<String> allowed = Set.of("io.eeoutbox.relay.store");
        Pattern runsSql = Pattern.compile("\\b(?:createStatement|prepareStatement|prepareCall|createNativeQuery)\\(");
        Map<String, List<String>> offenders = new TreeMap<>();
        for (Source s : sources()) {
            if (s.pkg().startsWith("io.eeoutbox.relay") && !allowed.contains(s.pkg())) {
                if (referencedPackages(s.text()).contains("io.eeoutbox.jpa.generated")) {
                    offenders.computeIfAbsent(s.path(), k -> new ArrayList<>()).add("uses io.eeoutbox.jpa.generated");
                }
                if (runsSql.matcher(s.text()).find()) {
                    offenders.computeIfAbsent(s.path(), k -> new ArrayList<>()).add("runs a statement");
                }
            }
        }
        assertThat(offenders).as("only io.eeoutbox.relay.store runs SQL: add a method to OutboxStore (or"
                + " ListenStatements for the LISTEN connection)").isEmpty();
    }

    @Test
    void relayPackagesUseOnlyThePackagesBelowThem() throws IOException {
        String relay = "io.eeoutbox.relay";
        Map<String, Set<String>> offenders = new TreeMap<>();
        for (Source s : sources()) {
            if (!s.pkg().equals(relay) && !s.pkg().startsWith(relay + ".")) {
                continue;
            }
            String own = s.pkg().equals(relay) ? "" : s.pkg().substring(relay.length() + 1);
            Set<String> allowed = MAY_USE.get(own);
            if (allowed == null) {
                offenders.computeIfAbsent(s.path(), k -> new TreeSet<>()).add("(a package without rules: add "
                        + s.pkg() + " to PackageRulesTest.MAY_USE)");
                continue;
            }
            for (String used : referencedPackages(s.text())) {
                if (used.equals(relay) || used.startsWith(relay + ".")) {
                    String other = used.equals(relay) ? "" : used.substring(relay.length() + 1);
                    if (!other.equals(own) && !allowed.contains(other)) {
                        offenders.computeIfAbsent(s.path(), k -> new TreeSet<>()).add(used);
                    }
                }
            }
        }
        assertThat(offenders).as("relay packages using packages PackageRulesTest.MAY_USE does not allow them:"
                + " move the shared type down, or pass a callback").isEmpty();
    }

    @Test
    void noPackagesDependOnEachOtherInACycle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        Set<String> ours = new TreeSet<>();
        List<Source> all = sources();
        all.forEach(s -> ours.add(s.pkg()));
        for (Source s : all) {
            Set<String> targets = uses.computeIfAbsent(s.pkg(), k -> new TreeSet<>());
            for (String used : referencedPackages(s.text())) {
                if (ours.contains(used) && !used.equals(s.pkg())) {
                    targets.add(used);
                }
            }
        }
        assertThat(cycles(uses)).as("packages that depend on each other in a cycle (each line: one cycle);"
                + " move the shared type down, or pass a callback instead of calling back up").isEmpty();
    }

    /** Packages of the types a source imports or names in full. */
    static Set<String> referencedPackages(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = IMPORT.matcher(text);
        while (m.find()) {
            String name = m.group(1);
            out.add(packageOf(name));
        }
        // Names in comments (Javadoc links) and in strings (classes looked up by name) are no dependency.
        String code = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "")
                .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"").replaceAll("(?m)^(package|import) .*$", "");
        Matcher q = QUALIFIED.matcher(code);
        while (q.find()) {
            out.add(q.group(1));
        }
        return out;
    }

    /** The package of an imported name: everything before its first capitalised part. */
    static String packageOf(String name) {
        String[] parts = name.split("\\.");
        StringBuilder pkg = new StringBuilder();
        for (String part : parts) {
            if (!part.isEmpty() && Character.isUpperCase(part.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(part);
        }
        return pkg.toString();
    }

    /** The strongly connected components of more than one package (Tarjan), each as "a -> b -> a" text. */
    static List<String> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<String> found = new ArrayList<>();
        int[] counter = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, found, counter);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<String> found,
                                int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, found, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(String.join(" <-> ", new TreeSet<>(component)));
            }
        }
    }

    record Source(String path, String pkg, String text) {
    }

    static List<Source> sources() throws IOException {
        List<Source> out = new ArrayList<>();
        Path root = Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();
        for (String module : SourceShapeTest.MODULES) {
            Path main = root.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(main)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    String text = Files.readString(f, StandardCharsets.UTF_8);
                    Matcher m = PACKAGE.matcher(text);
                    if (m.find()) {
                        out.add(new Source(root.relativize(f).toString(), m.group(1), text));
                    }
                }
            }
        }
        return out;
    }
}
