package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/development.md's table of the relay's packages ("How the relay works inside") names every package of
 * outbox-ee-relay's main code, and only those: a newcomer finds each step there. A name in the first column is
 * relative to {@code io.eeoutbox.relay} unless written in full; one row may name several packages.
 */
class PackageTableTest {

    private static final String RELAY = "io.eeoutbox.relay";
    private static final Pattern NAME = Pattern.compile("`([a-z][a-z0-9_.]*)`");

    @Test
    void theTableListsEveryPackageOfTheRelay() throws IOException {
        assertThat(tablePackages()).as("packages in docs/development.md's table (left) against the relay's source"
                + " tree (right): add a row for a new package, remove the row of one that is gone")
                .containsExactlyInAnyOrderElementsOf(sourcePackages());
    }

    private static Path root() {
        return Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();
    }

    /** The first-column names of the table whose header is {@code | package | what it does |}. */
    static Set<String> tablePackages() throws IOException {
        List<String> lines = Files.readAllLines(root().resolve("docs/development.md"), StandardCharsets.UTF_8);
        Set<String> names = new TreeSet<>();
        int i = lines.indexOf("| package | what it does |");
        assertThat(i).as("the package table's header in docs/development.md").isNotNegative();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String first = lines.get(i).split("\\|")[1];
            Matcher m = NAME.matcher(first);
            while (m.find()) {
                String name = m.group(1);
                names.add(name.startsWith(RELAY) ? name : RELAY + "." + name);
            }
        }
        return names;
    }

    /** The packages of outbox-ee-relay's main sources (a folder holding at least one .java file). */
    static Set<String> sourcePackages() throws IOException {
        Path main = root().resolve("outbox-ee-relay/src/main/java");
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(main)) {
            files.filter(p -> p.toString().endsWith(".java"))
                    .forEach(p -> packages.add(main.relativize(p.getParent()).toString().replace('/', '.')));
        }
        return packages;
    }
}
