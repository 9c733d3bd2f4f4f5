package io.eeoutbox.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The project's real sql/ folder, beside this module. */
final class TestFiles {

    private TestFiles() {
    }

    static Path sqlDirectory() {
        return Path.of(System.getProperty("basedir", "."), "..", "sql").normalize();
    }

    static Map<String, String> migrations() {
        return read(sqlDirectory().resolve("schema"));
    }

    static Map<String, String> queries() {
        return read(sqlDirectory().resolve("queries"));
    }

    private static Map<String, String> read(Path dir) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : list.toList()) {
                files.put(p.getFileName().toString(), Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
