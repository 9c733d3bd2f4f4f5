package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's size rules (issue 20): no main source file over {@value #MAX_LINES} lines (counted as
 * {@code wc -l} does) and no constructor over {@value #MAX_PARAMETERS} parameters, in outbox-api,
 * outbox-codegen, outbox-jpa, outbox-ee-relay and outbox-wildfly. It reads the modules' sources by path, so it lives in
 * this plain-Java module without depending on the others.
 *
 * <p>The offenders of today are listed in {@link #ALLOWED}. The test fails for an offender not listed, and
 * for a listed one that is no longer an offender: take it off the list, so that the list only shrinks.
 */
class SourceShapeTest {

    static final int MAX_LINES = 400;
    static final int MAX_PARAMETERS = 6;

    static final List<String> MODULES = List.of("outbox-api", "outbox-codegen", "outbox-jpa", "outbox-ee-relay", "outbox-wildfly");

    /**
     * Today's offenders, as {@link #offenders()} names them: {@code <path>: long file} for a file over the line
     * limit, {@code <path>: <Type>(...)} for a type with a constructor over the parameter limit. Figures in the
     * comments are from when the entry was written; an entry holds while the file or constructor stays an
     * offender, whatever its size.
     */
    static final Set<String> ALLOWED = Set.of();

    @Test
    void noNewLongFileOrLongConstructor() throws IOException {
        Map<String, String> found = offenders();
        Map<String, String> added = new TreeMap<>(found);
        added.keySet().removeAll(ALLOWED);
        Set<String> fixed = new TreeSet<>(ALLOWED);
        fixed.removeAll(found.keySet());
        assertThat(added).as("main sources over %d lines or constructors over %d parameters: split them (the"
                + " allowlist in SourceShapeTest is for the offenders of issue 20 only)", MAX_LINES, MAX_PARAMETERS)
                .isEmpty();
        assertThat(fixed).as("allowlisted in SourceShapeTest but no longer an offender:"
                + " take them off the list").isEmpty();
    }

    /** Every offender of the library's main sources, named as at {@link #ALLOWED}, to its figure. */
    static Map<String, String> offenders() throws IOException {
        Path root = Path.of(System.getProperty("basedir", "."), "..").toAbsolutePath().normalize();
        Map<String, String> out = new TreeMap<>();
        for (String module : MODULES) {
            Path sources = root.resolve(module).resolve("src/main/java");
            assertThat(sources).as("main sources of %s", module).isDirectory();
            List<Path> files = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(sources)) {
                walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
            }
            for (Path file : files) {
                String name = root.relativize(file).toString().replace('\\', '/');
                String text = Files.readString(file, StandardCharsets.UTF_8);
                int lines = JavaShape.lines(text);
                if (lines > MAX_LINES) {
                    out.put(name + ": long file", lines + " lines");
                }
                for (JavaShape.Constructor c : JavaShape.constructors(text)) {
                    if (c.parameters() > MAX_PARAMETERS) {
                        out.merge(name + ": " + c.type() + "(...)", c.parameters() + " parameters (line " + c.line()
                                + ")", (a, b) -> a + ", " + b);
                    }
                }
            }
        }
        return out;
    }
}
