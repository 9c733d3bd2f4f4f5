package io.eeoutbox.sample.readme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.OutboxService;
import io.eeoutbox.jpa.JpaOutboxService;
import io.eeoutbox.relay.OutboxRelay;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's minimal application {@code pom.xml}, copied as a new user copies it: taken from README.md itself (so
 * the two cannot drift), put into an empty project with an EJB that injects {@link OutboxService} and records an event
 * (and the README's producer of the persistence context and persistence unit), and packaged ({@code mvn package}) with
 * the {@code mvn} on the PATH (Debian's Maven 3.8.7 here, whose default compiler plugin ignores
 * {@code maven.compiler.release}) and with a Maven 3.9 that the build unpacked from Maven Central. ee-outbox's jars are
 * this build's, installed into a throwaway local repository as {@code mvn install} would lay them out; third-party
 * artifacts come from the repositories the user's settings configure (Maven 3.9 reads the user's local repository
 * too, as {@code maven.repo.local.tail}). The WAR must hold the three jars, byte for byte this build's, and the EJB
 * compiled for Java 17.
 *
 * <p>Run by the execution {@code readme} of the profile {@code readme} (sample-war/pom.xml), on unless -DskipITs.
 */
@Tag("readme")
class ReadmePomIT {

    private static final Pattern FENCED_XML = Pattern.compile("(?ms)^```xml\\n(.*?)^```");
    private static final Pattern OUTBOX_VERSION = Pattern.compile(
            "<artifactId>outbox-[a-z-]+</artifactId><version>([^<]+)</version>");
    private static final List<String> JARS = List.of("outbox-api", "outbox-jpa", "outbox-ee-relay");

    private static Path root;
    private static String version;
    private static Path work;
    private static Path repository;
    private static String pom;

    @BeforeAll
    static void installThisBuildsJars() throws IOException {
        root = Path.of(setting("readme.source-root"));
        version = setting("readme.project-version");
        work = Path.of(setting("readme.work-dir"));
        pom = fencedXml(Files.readString(root.resolve("README.md")), "<project");
        Matcher versions = OUTBOX_VERSION.matcher(pom);
        int outboxDependencies = 0;
        while (versions.find()) {
            assertEquals(version, versions.group(1), "the README's pom.xml names another version of ee-outbox than this build");
            outboxDependencies++;
        }
        assertEquals(JARS.size(), outboxDependencies, "ee-outbox dependencies in the README's pom.xml:\n" + pom);

        deleteRecursively(work);
        repository = work.resolve("repository");
        // what `mvn install` lays out: the parent POM, and each module's POM and jar
        install("ee-outbox-parent", root.resolve("pom.xml"), null);
        install("outbox-api", root.resolve("outbox-api/pom.xml"), jarOf(OutboxService.class));
        install("outbox-jpa", root.resolve("outbox-jpa/pom.xml"), jarOf(JpaOutboxService.class));
        install("outbox-ee-relay", root.resolve("outbox-ee-relay/pom.xml"), jarOf(OutboxRelay.class));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"the mvn on the PATH", "Maven 3.9 from Maven Central"})
    void theReadmesPomPackagesAnApplicationThatRecordsEvents(String which) throws Exception {
        boolean onPath = which.startsWith("the mvn");
        Optional<Path> maven = onPath ? onPath("mvn") : Optional.of(Path.of(setting("readme.maven-home"), "bin", "mvn"))
                .filter(Files::isRegularFile);
        Assumptions.assumeTrue(maven.isPresent(), () -> "skipped: no " + which + " (" + (onPath ? "PATH="
                + System.getenv("PATH") : "no " + setting("readme.maven-home") + "; the build's profile readme unpacks it") + ")");
        maven.get().toFile().setExecutable(true);

        Path project = work.resolve(onPath ? "path-maven" : "maven-3.9");
        writeProject(project);
        List<String> command = new ArrayList<>(List.of(maven.get().toString(), "-B", "-ntp", "--show-version",
                "-Dmaven.repo.local=" + repository));
        String userRepository = System.getProperty("readme.user-repository", "");
        if (!onPath && !userRepository.isBlank()) {
            command.add("-Dmaven.repo.local.tail=" + userRepository);
        }
        command.add("package");
        Path log = project.resolve("build.log");
        ProcessBuilder pb = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("MAVEN_ARGS");
        pb.environment().remove("MAVEN_OPTS");
        long started = System.nanoTime();
        Process build = pb.start();
        if (!build.waitFor(10, TimeUnit.MINUTES)) {
            build.destroyForcibly();
            throw new AssertionError(which + ": mvn package did not end within 10 minutes; see " + log);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        String mavenVersion = firstMatch(output, "Apache Maven (\\S+)").orElse("unknown");
        System.out.println("[readme-pom] " + which + ": Apache Maven " + mavenVersion + ", exit " + build.exitValue()
                + ", " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s; log " + log);
        assertEquals(0, build.exitValue(), () -> which + " (Maven " + mavenVersion + ") could not package the README's pom.xml:\n"
                + tail(output, 60));
        if (!onPath) {
            assertTrue(mavenVersion.startsWith("3.9."), "expected a Maven 3.9, ran " + mavenVersion);
        }

        Path war = project.resolve("target/orders-1.0.0-SNAPSHOT.war");
        assertTrue(Files.isRegularFile(war), "no " + war);
        try (ZipFile zip = new ZipFile(war.toFile())) {
            for (String artifact : JARS) {
                ZipEntry jar = zip.getEntry("WEB-INF/lib/" + artifact + "-" + version + ".jar");
                assertNotNull(jar, artifact + " is not in WEB-INF/lib of " + war);
                try (InputStream in = zip.getInputStream(jar)) {
                    assertArrayEquals(sha256(Files.readAllBytes(installed(artifact, "jar"))), sha256(in.readAllBytes()),
                            artifact + " in the WAR is not this build's jar");
                }
            }
            List<String> libraries = zip.stream().map(ZipEntry::getName).filter(n -> n.startsWith("WEB-INF/lib/")).toList();
            assertTrue(libraries.stream().noneMatch(n -> n.contains("jakartaee-api") || n.contains("postgresql")),
                    "provided or server libraries in the WAR: " + libraries);
            ZipEntry ejb = zip.getEntry("WEB-INF/classes/com/example/orders/OrderPlacement.class");
            assertNotNull(ejb, "the EJB is not in the WAR");
            try (DataInputStream in = new DataInputStream(zip.getInputStream(ejb))) {
                assertEquals(0xCAFEBABE, in.readInt());
                in.readUnsignedShort();
                assertEquals(61, in.readUnsignedShort(), "the EJB is not compiled for Java 17 (class file 61)");
            }
        }
    }

    /** The application a new user writes around the README's pom.xml: its snippets, and an EJB that records an event. */
    private static void writeProject(Path project) throws IOException {
        deleteRecursively(project);
        Path sources = project.resolve("src/main/java/com/example/orders");
        Files.createDirectories(sources);
        Files.writeString(project.resolve("pom.xml"), pom);
        Files.writeString(sources.resolve("OrderPlacement.java"), """
                package com.example.orders;

                import io.eeoutbox.OutboxService;
                import jakarta.ejb.Stateless;
                import jakarta.inject.Inject;
                import java.util.UUID;

                @Stateless
                public class OrderPlacement {

                    @Inject
                    OutboxService outbox;

                    public UUID place(String orderId) {
                        return outbox.record("order", orderId, "order.created", "{\\"orderId\\":\\"" + orderId + "\\"}");
                    }
                }
                """);
        String readme = Files.readString(root.resolve("README.md"));
        String producer = firstMatch(readme, "`(@ApplicationScoped class OutboxPersistence \\{[^`]*\\})`")
                .orElseThrow(() -> new AssertionError("the README no longer shows the OutboxPersistence producer"));
        Files.writeString(sources.resolve("OutboxPersistence.java"), """
                package com.example.orders;

                import jakarta.enterprise.context.ApplicationScoped;
                import jakarta.enterprise.inject.Produces;
                import jakarta.persistence.EntityManager;
                import jakarta.persistence.PersistenceContext;

                %s
                """.formatted(producer));
        Path meta = project.resolve("src/main/resources/META-INF");
        Files.createDirectories(meta);
        Files.writeString(meta.resolve("persistence.xml"), """
                <persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
                %s</persistence>
                """.formatted(fencedXml(readme, "<persistence-unit")));
    }

    /** The one fenced xml block of {@code markdown} that contains {@code marker}. */
    private static String fencedXml(String markdown, String marker) {
        List<String> blocks = FENCED_XML.matcher(markdown).results().map(m -> m.group(1)).filter(b -> b.contains(marker))
                .toList();
        assertEquals(1, blocks.size(), "fenced xml blocks in README.md with " + marker);
        return blocks.get(0);
    }

    private static void install(String artifact, Path pomFile, Path jar) throws IOException {
        Path dir = repository.resolve("io/eeoutbox/" + artifact + "/" + version);
        Files.createDirectories(dir);
        Files.copy(pomFile, dir.resolve(artifact + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifact + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static Path installed(String artifact, String extension) {
        return repository.resolve("io/eeoutbox/" + artifact + "/" + version + "/" + artifact + "-" + version + "." + extension);
    }

    /** The jar this build made of {@code type}'s module (the test class path holds the build's artifacts). */
    private static Path jarOf(Class<?> type) {
        try {
            Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertTrue(Files.isRegularFile(location) && location.toString().endsWith(".jar"),
                    type.getName() + " comes from " + location + ", not a jar: run the package phase first (mvn verify)");
            return location;
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isEmpty()).map(d -> Path.of(d, program))
                .filter(Files::isExecutable).findFirst();
    }

    private static Optional<String> firstMatch(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private static String setting(String property) {
        String value = System.getProperty(property);
        assertNotNull(value, property + " is not set: run this test through the build (sample-war's profile readme)");
        return value;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
