package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Applies the Flyway-named migrations on the class path, ee-outbox's ({@code db/ee-outbox}, from the
 * outbox-sql artifact) and then the sample's ({@code db/sample}), each in version order, one file per
 * batch. (The in-server rig's {@code it.db.Migrations} does the same but is package-private there.)
 */
final class SchemaMigrations {

    static final List<String> LOCATIONS = List.of("db/ee-outbox", "db/sample");
    private static final Pattern NAME = Pattern.compile("V(\\d+)__[^/]*\\.sql");

    private SchemaMigrations() {
    }

    static void apply(Connection connection) throws SQLException, IOException {
        for (String location : LOCATIONS) {
            List<String> files = list(location);
            if (files.isEmpty()) {
                throw new IllegalStateException("no migrations found under classpath:" + location);
            }
            for (String file : files) {
                try (Statement s = connection.createStatement()) {
                    s.execute(read(location + "/" + file));
                } catch (SQLException e) {
                    throw new SQLException("migration " + location + "/" + file + " failed: " + e.getMessage(), e);
                }
            }
        }
    }

    static List<String> list(String location) throws IOException {
        List<String> names = new ArrayList<>();
        Enumeration<URL> roots = SchemaMigrations.class.getClassLoader().getResources(location);
        while (roots.hasMoreElements()) {
            URL root = roots.nextElement();
            if ("file".equals(root.getProtocol())) {
                try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
                    files.map(p -> p.getFileName().toString()).forEach(names::add);
                } catch (URISyntaxException e) {
                    throw new IOException(e);
                }
            } else if ("jar".equals(root.getProtocol())) {
                String spec = root.getPath();
                String jar = spec.substring("file:".length(), spec.indexOf("!/"));
                try (JarFile jf = new JarFile(URLDecoder.decode(jar, StandardCharsets.UTF_8))) {
                    Enumeration<JarEntry> entries = jf.entries();
                    while (entries.hasMoreElements()) {
                        String name = entries.nextElement().getName();
                        if (name.startsWith(location + "/") && name.indexOf('/', location.length() + 1) < 0) {
                            names.add(name.substring(location.length() + 1));
                        }
                    }
                }
            } else {
                throw new IOException("cannot list " + root);
            }
        }
        return names.stream()
                .filter(n -> NAME.matcher(n).matches())
                .distinct()
                .sorted(Comparator.comparingInt(SchemaMigrations::version))
                .toList();
    }

    private static int version(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException(name);
        }
        return Integer.parseInt(m.group(1));
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = SchemaMigrations.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
