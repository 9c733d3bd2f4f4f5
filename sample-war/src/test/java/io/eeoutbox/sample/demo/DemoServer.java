package io.eeoutbox.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One application server, provisioned by the sample-war build, started as a child process for the
 * demo with a server directory of its own under {@code target/demo} (so the in-server test rig's
 * configuration is never touched), the WAR deployed as {@code orders.war} (context root /orders),
 * and the database given through the environment variables the server configuration reads
 * ({@code OUTBOX_DB_URL}, {@code OUTBOX_DB_USER}, {@code OUTBOX_DB_PASSWORD}).
 */
abstract class DemoServer implements AutoCloseable {

    static final String CONTEXT_ROOT = "orders";

    protected final Path workDir;
    protected final int portOffset;
    private Process process;

    DemoServer(Path workDir, int portOffset) {
        this.workDir = workDir;
        this.portOffset = portOffset;
    }

    /** WildFly 39 with standalone-full.xml: deployed by the deployment scanner. */
    static DemoServer wildfly(Path home, Path workDir, int portOffset) {
        return new WildFly(home, workDir, portOffset);
    }

    /** Open Liberty: a server "outbox-demo" made from the sample's server.xml, the WAR as an application. */
    static DemoServer liberty(Path home, Path serverXml, Path workDir, int portOffset) {
        return new Liberty(home, serverXml, workDir, portOffset);
    }

    abstract String name();

    abstract int httpPort();

    /** Ports that must be free before the server starts. */
    abstract List<Integer> ports();

    /** The server's log, where a failed deployment explains itself. */
    abstract Path logFile();

    /** Lays out the server's directory with the WAR; returns the command that runs the server in the foreground. */
    protected abstract List<String> prepare(Path war) throws IOException;

    /** Environment for the server process besides the database. */
    protected abstract Map<String, String> environment();

    /** Whether the deployment has failed, by the server's own account (marker file, log message). */
    abstract boolean deploymentFailed() throws IOException;

    String baseUrl() {
        return "http://127.0.0.1:" + httpPort() + "/" + CONTEXT_ROOT;
    }

    void start(Path war, DemoDatabase db) throws IOException {
        for (int port : ports()) {
            checkFree(port);
        }
        deleteRecursively(workDir);
        Files.createDirectories(workDir);
        List<String> command = prepare(war);
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("console.log").toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("OUTBOX_DB_URL", db.url());
        env.put("OUTBOX_DB_USER", db.user());
        env.put("OUTBOX_DB_PASSWORD", db.password());
        env.putAll(environment());
        process = pb.start();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Stops the server and every process it started: SIGTERM first (a clean shutdown), then SIGKILL. */
    @Override
    public synchronized void close() {
        Process p = process;
        if (p == null) {
            return;
        }
        process = null;
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.add(p.toHandle());
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (ProcessHandle h : tree) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                h.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
    }

    private static void checkFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", port));
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use (" + e.getMessage()
                    + "); stop what uses it, or move the demo's ports with -Ddemo.port-offset=N");
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(p -> {
                try {
                    Path target = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    // ------------------------------------------------------------------ WildFly

    private static final class WildFly extends DemoServer {

        private final Path home;

        WildFly(Path home, Path workDir, int portOffset) {
            super(workDir, portOffset);
            this.home = home;
        }

        @Override
        String name() {
            return "WildFly";
        }

        @Override
        int httpPort() {
            return 8080 + portOffset;
        }

        @Override
        List<Integer> ports() {
            return List.of(httpPort(), 9990 + portOffset);
        }

        @Override
        Path logFile() {
            return workDir.resolve("standalone/log/server.log");
        }

        @Override
        protected List<String> prepare(Path war) throws IOException {
            // a base directory of its own: the provisioned configuration (datasources, driver), fresh data and logs
            Path base = workDir.resolve("standalone");
            copyRecursively(home.resolve("standalone/configuration"), base.resolve("configuration"));
            deleteRecursively(base.resolve("configuration/standalone_xml_history"));
            Files.createDirectories(base.resolve("deployments"));
            Files.copy(war, base.resolve("deployments/" + CONTEXT_ROOT + ".war"));
            return List.of(home.resolve("bin/standalone.sh").toString(),
                    "-c", "standalone-full.xml",
                    "-Djboss.server.base.dir=" + base,
                    "-Djboss.socket.binding.port-offset=" + portOffset,
                    "-Djboss.bind.address=127.0.0.1",
                    "-Djboss.bind.address.management=127.0.0.1");
        }

        @Override
        protected Map<String, String> environment() {
            // standalone.sh then forwards SIGTERM to the server's JVM
            return Map.of("JBOSS_HOME", home.toString(), "LAUNCH_JBOSS_IN_BACKGROUND", "1");
        }

        @Override
        boolean deploymentFailed() {
            return Files.exists(workDir.resolve("standalone/deployments/" + CONTEXT_ROOT + ".war.failed"));
        }
    }

    // ------------------------------------------------------------------ Open Liberty

    private static final class Liberty extends DemoServer {

        private static final String SERVER = "outbox-demo";

        private final Path home;
        private final Path serverXml;

        Liberty(Path home, Path serverXml, Path workDir, int portOffset) {
            super(workDir, portOffset);
            this.home = home;
            this.serverXml = serverXml;
        }

        @Override
        String name() {
            return "Open Liberty";
        }

        @Override
        int httpPort() {
            return 9080 + portOffset;
        }

        @Override
        List<Integer> ports() {
            return List.of(httpPort(), 9443 + portOffset);
        }

        private Path serverDir() {
            return home.resolve("usr/servers/" + SERVER);
        }

        @Override
        Path logFile() {
            return serverDir().resolve("logs/messages.log");
        }

        @Override
        protected List<String> prepare(Path war) throws IOException {
            // a server of its own beside the test rig's, rebuilt on every run (the messaging engine's store too)
            Path dir = serverDir();
            deleteRecursively(dir);
            Files.createDirectories(dir.resolve("configDropins/overrides"));
            Files.copy(serverXml, dir.resolve("server.xml"));
            Path app = workDir.resolve(CONTEXT_ROOT + ".war");
            Files.copy(war, app);
            // the application, its class loader seeing Hibernate and the PostgreSQL driver (shared libraries)
            Files.writeString(dir.resolve("configDropins/overrides/demo-application.xml"), """
                    <server>
                      <application id="orders" name="orders" type="war" context-root="/%s" location="%s">
                        <classloader commonLibraryRef="hibernate,postgresql"/>
                      </application>
                    </server>
                    """.formatted(CONTEXT_ROOT, app));
            return List.of(home.resolve("bin/server").toString(), "run", SERVER);
        }

        @Override
        protected Map<String, String> environment() {
            return Map.of("OUTBOX_HTTP_PORT", String.valueOf(httpPort()),
                    "OUTBOX_HTTPS_PORT", String.valueOf(9443 + portOffset));
        }

        @Override
        boolean deploymentFailed() throws IOException {
            if (!Files.exists(logFile())) {
                return false;
            }
            try (Stream<String> lines = Files.lines(logFile())) {
                // CWWKZ0002E: an exception occurred while starting the application
                return lines.anyMatch(l -> l.contains("CWWKZ0002E") || l.contains("CWWKZ0004E"));
            }
        }
    }
}
