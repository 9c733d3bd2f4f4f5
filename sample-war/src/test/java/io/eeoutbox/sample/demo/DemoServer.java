package io.eeoutbox.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One application server, provisioned by the sample-war build, started as a child process with a
 * server directory of its own (so the in-server test rig's configuration is never touched), the WAR
 * deployed as {@code orders.war} (context root /orders), and the database given through the
 * environment variables the server configuration reads ({@code OUTBOX_DB_URL}, {@code OUTBOX_DB_USER},
 * {@code OUTBOX_DB_PASSWORD}). The demo runs one; the fault suite ({@code io.eeoutbox.sample.fault})
 * runs several, kills them and starts them again.
 *
 * <ul>
 *   <li>{@link #start} lays out the directory afresh and starts the server; {@link #restart()} starts it
 *       again on the same directory (WildFly's Artemis journal and transaction log, Liberty's messaging
 *       store), as after a crash;</li>
 *   <li>{@link #close()} stops it cleanly (SIGTERM, then SIGKILL after a minute); {@link #kill()} sends
 *       SIGKILL to the server's JVM and its start script at once: no shutdown hook runs;</li>
 *   <li>{@link #awaitDeployed(Duration)} waits until the sample answers (or the deployment failed);</li>
 *   <li>every process a DemoServer started is also killed by a JVM shutdown hook, so a test JVM that
 *       fails or is interrupted leaves no server running. Processes are remembered when first seen, so
 *       a server JVM whose start script died is still found (a pid counts only with its start time).</li>
 * </ul>
 */
public abstract class DemoServer implements AutoCloseable {

    public static final String CONTEXT_ROOT = "orders";
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);
    private static final Set<DemoServer> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(DemoServer::killAll, "demo-server-reaper"));
    }

    protected final Path workDir;
    protected final int portOffset;
    private final Map<String, String> systemProperties = new LinkedHashMap<>();
    private String heap = "512m";
    private boolean addsApplicationElement = true;
    private List<String> command;
    private Map<String, String> environment;
    private final Map<String, String> extraEnvironment = new LinkedHashMap<>();
    private Process process;
    /** Every process seen in the server's tree, with its start time (a reused pid is never taken for it). */
    private final Map<Long, Optional<Instant>> seen = new ConcurrentHashMap<>();
    private int starts;
    private long logOffset;

    DemoServer(Path workDir, int portOffset) {
        this.workDir = workDir;
        this.portOffset = portOffset;
    }

    /** WildFly 39 with standalone-full.xml: deployed by the deployment scanner. */
    public static DemoServer wildfly(Path home, Path workDir, int portOffset) {
        return new WildFly(home, workDir, portOffset);
    }

    /** Open Liberty: a server "outbox-demo" made from the sample's server.xml, the WAR as an application. */
    public static DemoServer liberty(Path home, Path serverXml, Path workDir, int portOffset) {
        return liberty(home, serverXml, workDir, portOffset, Liberty.DEFAULT_SERVER);
    }

    /** Open Liberty as a server named {@code serverName} (its directory under the install's usr/servers). */
    public static DemoServer liberty(Path home, Path serverXml, Path workDir, int portOffset, String serverName) {
        return new Liberty(home, serverXml, workDir, portOffset, serverName);
    }

    /** "WildFly", "Open Liberty". */
    public abstract String name();

    /** The product and version: "WildFly 39.0.1.Final". */
    public abstract String product();

    public abstract int httpPort();

    /** The management port (WildFly's HTTP management API), or -1. */
    public abstract int managementPort();

    /** Ports that must be free before the server starts. */
    abstract List<Integer> ports();

    /** The server's log, where a failed deployment explains itself. */
    public abstract Path logFile();

    /** Lays out the server's directory with the WAR; returns the command that runs the server in the foreground. */
    protected abstract List<String> prepare(Path war) throws IOException;

    /** Environment for the server process besides the database. */
    protected abstract Map<String, String> environment();

    /** Whether the deployment has failed, by the server's own account (marker file, log message). */
    public abstract boolean deploymentFailed() throws IOException;

    /** Before a start on the existing directory: forget the previous run's deployment markers. */
    protected void beforeRestart() throws IOException {
    }

    /** The first port offset from {@code from} (steps of {@code step}) where all of this kind's ports are free. */
    public static int freeOffset(boolean wildfly, int from, int step) {
        for (int offset = from; offset < from + 200 * step; offset += step) {
            List<Integer> ports = wildfly ? WildFly.portsAt(offset) : Liberty.portsAt(offset);
            if (ports.stream().allMatch(DemoServer::isFree)) {
                return offset;
            }
        }
        throw new IllegalStateException("no free port offset from " + from);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + httpPort() + "/" + CONTEXT_ROOT;
    }

    /** System properties for the server's JVM (the relay's keys, {@code outbox.relay.*}); set before {@link #start}. */
    public DemoServer systemProperty(String key, String value) {
        systemProperties.put(key, value);
        return this;
    }

    /**
     * An environment variable for the server's next launch ({@link #start} or {@link #restart()}), such as a relay
     * setting under its MicroProfile Config name ({@code OUTBOX_RELAY_MODE} for {@code outbox.relay.mode}).
     */
    public synchronized DemoServer environment(String name, String value) {
        extraEnvironment.put(name, value);
        if (environment != null) {
            environment.put(name, value);
        }
        return this;
    }

    protected Map<String, String> systemProperties() {
        return Collections.unmodifiableMap(systemProperties);
    }

    /** The server JVM's maximum heap ({@code -Xmx}), 512m unless set. */
    public DemoServer heap(String maxHeap) {
        this.heap = maxHeap;
        return this;
    }

    protected String heap() {
        return heap;
    }

    /**
     * Open Liberty: the given server.xml declares the application itself (its location: {@code orders.war} in the
     * work directory), so no {@code <application>} element is added. The setup check uses it to try the shipped
     * fragment's own element. WildFly deploys through its deployment scanner either way.
     */
    public DemoServer applicationDeclaredInServerXml() {
        this.addsApplicationElement = false;
        return this;
    }

    protected boolean addsApplicationElement() {
        return addsApplicationElement;
    }

    public void start(Path war, DemoDatabase db) throws IOException {
        start(war, db.url(), db.user(), db.password());
    }

    /** Lays out the server's directory afresh (the WAR deployed) and starts the server on the database. */
    public synchronized void start(Path war, String dbUrl, String dbUser, String dbPassword) throws IOException {
        for (int port : ports()) {
            checkFree(port);
        }
        deleteRecursively(workDir);
        Files.createDirectories(workDir);
        command = prepare(war);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("OUTBOX_DB_URL", dbUrl);
        env.put("OUTBOX_DB_USER", dbUser);
        env.put("OUTBOX_DB_PASSWORD", dbPassword);
        env.putAll(environment());
        env.putAll(extraEnvironment);
        environment = env;
        launch();
    }

    /** Starts the server again on the directory of the last {@link #start} (after {@link #kill()} or {@link #close()}). */
    public synchronized void restart() throws IOException {
        if (command == null) {
            throw new IllegalStateException(name() + " was never started");
        }
        if (isAlive()) {
            throw new IllegalStateException(name() + " is running");
        }
        for (int port : ports()) {
            checkFree(port);
        }
        beforeRestart();
        launch();
    }

    private void launch() throws IOException {
        starts++;
        logOffset = Files.exists(logFile()) ? Files.size(logFile()) : 0;
        Path console = workDir.resolve(starts == 1 ? "console.log" : "console-" + starts + ".log");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(environment);
        seen.clear();
        process = pb.start();
        RUNNING.add(this);
    }

    /** The server log written since the last (re)start. */
    protected String logSinceStart() throws IOException {
        if (!Files.exists(logFile())) {
            return "";
        }
        byte[] all = Files.readAllBytes(logFile());
        int from = (int) Math.min(logOffset, all.length);
        return new String(all, from, all.length - from, StandardCharsets.ISO_8859_1);
    }

    /**
     * Waits until the sample answers its own 404 for an unknown order (JAX-RS, EJB and JPA are up).
     *
     * @throws IllegalStateException when the server exits, the deployment fails, or {@code patience} runs out
     */
    public void awaitDeployed(Duration patience) throws IOException, InterruptedException {
        String probe = baseUrl() + "/api/orders/" + new UUID(0, 0);
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            if (!isAlive()) {
                throw new IllegalStateException(name() + " exited during startup; see " + logFile());
            }
            if (deploymentFailed()) {
                throw new IllegalStateException("the sample failed to deploy on " + name() + "; see " + logFile());
            }
            try {
                DemoHttp.Answer r = DemoHttp.get(probe, Duration.ofSeconds(10));
                if (r.status() == 404 && r.body().contains("\"not_found\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name() + " did not serve the sample within " + patience.toSeconds()
                        + " s; see " + logFile());
            }
            Thread.sleep(250);
        }
    }

    public boolean isAlive() {
        Process p = process;
        return p != null && (p.isAlive() || !descendants(p).isEmpty());
    }

    /** SIGKILL to the server's JVM and its start script: nothing is flushed, no shutdown hook runs. */
    public synchronized void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        process = null;
        List<ProcessHandle> tree = tree(p);
        tree.forEach(ProcessHandle::destroyForcibly);
        awaitEnd(tree, Duration.ofSeconds(30));
        RUNNING.remove(this);
    }

    /** Stops the server and every process it started: SIGTERM first (a clean shutdown), then SIGKILL. */
    @Override
    public synchronized void close() {
        Process p = process;
        if (p == null) {
            return;
        }
        process = null;
        List<ProcessHandle> tree = tree(p);
        tree.forEach(ProcessHandle::destroy);
        if (!awaitEnd(tree, STOP_GRACE)) {
            tree.forEach(ProcessHandle::destroyForcibly);
            awaitEnd(tree, Duration.ofSeconds(30));
        }
        RUNNING.remove(this);
    }

    /** The server's processes, deepest first, the start script last. */
    private List<ProcessHandle> tree(Process p) {
        List<ProcessHandle> all = descendants(p);
        all.add(p.toHandle());
        return all;
    }

    private List<ProcessHandle> descendants(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        Collections.reverse(all);
        all.forEach(h -> seen.putIfAbsent(h.pid(), h.info().startInstant()));
        seen.forEach((pid, started) -> ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(h -> started.isPresent() && h.info().startInstant().equals(started))
                .filter(h -> all.stream().noneMatch(a -> a.pid() == pid))
                .ifPresent(h -> all.add(0, h)));
        return all;
    }

    private static boolean awaitEnd(List<ProcessHandle> handles, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle h : handles) {
            try {
                h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (java.util.concurrent.ExecutionException e) {
                // ended anyway
            }
        }
        return true;
    }

    /** Kills every server still running (the shutdown hook; the fault suite's end). */
    public static void killAll() {
        for (DemoServer s : List.copyOf(RUNNING)) {
            System.err.println("[server] killing " + s.name() + " in " + s.workDir + ", still running");
            s.kill();
        }
    }

    /** Servers started here that are still running. */
    public static List<String> stillRunning() {
        return RUNNING.stream().filter(DemoServer::isAlive).map(s -> s.name() + " in " + s.workDir).toList();
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void checkFree(int port) {
        if (!isFree(port)) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use; stop what uses it, or move the"
                    + " demo's ports with -Ddemo.port-offset=N");
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

    @Override
    public String toString() {
        return name() + " on " + baseUrl();
    }

    // ------------------------------------------------------------------ WildFly

    private static final class WildFly extends DemoServer {

        private final Path home;

        WildFly(Path home, Path workDir, int portOffset) {
            super(workDir, portOffset);
            this.home = home;
        }

        @Override
        public String name() {
            return "WildFly";
        }

        @Override
        public String product() {
            String dir = home.getFileName().toString();
            return "WildFly " + (dir.startsWith("wildfly-") ? dir.substring("wildfly-".length()) : dir);
        }

        @Override
        public int httpPort() {
            return 8080 + portOffset;
        }

        @Override
        public int managementPort() {
            return 9990 + portOffset;
        }

        /** http, https, management (http and https), ajp, IIOP (and its TLS port), transaction recovery and status. */
        static List<Integer> portsAt(int offset) {
            return List.of(8080 + offset, 8443 + offset, 9990 + offset, 9993 + offset, 8009 + offset,
                    3528 + offset, 3529 + offset, 4712 + offset, 4713 + offset);
        }

        @Override
        List<Integer> ports() {
            return portsAt(portOffset);
        }

        @Override
        public Path logFile() {
            return workDir.resolve("standalone/log/server.log");
        }

        private Path deployments() {
            return workDir.resolve("standalone/deployments");
        }

        @Override
        protected List<String> prepare(Path war) throws IOException {
            // a base directory of its own: the provisioned configuration (datasources, driver), fresh data and logs
            Path base = workDir.resolve("standalone");
            copyRecursively(home.resolve("standalone/configuration"), base.resolve("configuration"));
            deleteRecursively(base.resolve("configuration/standalone_xml_history"));
            Files.createDirectories(deployments());
            Files.copy(war, deployments().resolve(CONTEXT_ROOT + ".war"));
            List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                    "-c", "standalone-full.xml",
                    "-Djboss.server.base.dir=" + base,
                    "-Djboss.socket.binding.port-offset=" + portOffset,
                    "-Djboss.bind.address=127.0.0.1",
                    "-Djboss.bind.address.management=127.0.0.1",
                    // Narayana's node identifier must differ between servers that share resources
                    "-Djboss.tx.node.id=wf" + portOffset));
            systemProperties().forEach((k, v) -> command.add("-D" + k + "=" + v));
            return command;
        }

        @Override
        protected Map<String, String> environment() {
            // standalone.sh then forwards SIGTERM to the server's JVM
            return Map.of("JBOSS_HOME", home.toString(), "LAUNCH_JBOSS_IN_BACKGROUND", "1",
                    "JBOSS_JAVA_SIZING", "-Xms64m -Xmx" + heap());
        }

        @Override
        protected void beforeRestart() throws IOException {
            // the deployment scanner deploys the WAR again; the old markers would tell of the last run
            for (String marker : List.of(".deployed", ".failed", ".isdeploying", ".pending", ".undeployed")) {
                Files.deleteIfExists(deployments().resolve(CONTEXT_ROOT + ".war" + marker));
            }
        }

        @Override
        public boolean deploymentFailed() {
            return Files.exists(deployments().resolve(CONTEXT_ROOT + ".war.failed"));
        }
    }

    // ------------------------------------------------------------------ Open Liberty

    private static final class Liberty extends DemoServer {

        static final String DEFAULT_SERVER = "outbox-demo";

        private final Path home;
        private final Path serverXml;
        private final String server;

        Liberty(Path home, Path serverXml, Path workDir, int portOffset, String server) {
            super(workDir, portOffset);
            this.home = home;
            this.serverXml = serverXml;
            this.server = server;
        }

        @Override
        public String name() {
            return "Open Liberty";
        }

        @Override
        public String product() {
            try {
                for (String line : Files.readAllLines(home.resolve("lib/versions/openliberty.properties"))) {
                    if (line.startsWith("com.ibm.websphere.productVersion=")) {
                        return "Open Liberty " + line.substring(line.indexOf('=') + 1).trim();
                    }
                }
            } catch (IOException e) {
                // no version file
            }
            return "Open Liberty";
        }

        @Override
        public int httpPort() {
            return 9080 + portOffset;
        }

        @Override
        public int managementPort() {
            return -1;
        }

        static List<Integer> portsAt(int offset) {
            return List.of(9080 + offset, 9443 + offset);
        }

        @Override
        List<Integer> ports() {
            return portsAt(portOffset);
        }

        private Path serverDir() {
            return home.resolve("usr/servers/" + server);
        }

        @Override
        public Path logFile() {
            return serverDir().resolve("logs/messages.log");
        }

        @Override
        protected List<String> prepare(Path war) throws IOException {
            // a server of its own beside the test rig's, rebuilt on every start (the messaging engine's store too)
            Path dir = serverDir();
            deleteRecursively(dir);
            Files.createDirectories(dir.resolve("configDropins/overrides"));
            Files.copy(serverXml, dir.resolve("server.xml"));
            Path app = workDir.resolve(CONTEXT_ROOT + ".war");
            Files.copy(war, app);
            // the application, its class loader seeing Hibernate and the PostgreSQL driver (shared libraries)
            if (addsApplicationElement()) {
                Files.writeString(dir.resolve("configDropins/overrides/demo-application.xml"), """
                        <server>
                          <application id="orders" name="orders" type="war" context-root="/%s" location="%s">
                            <classloader commonLibraryRef="hibernate,postgresql"/>
                          </application>
                        </server>
                        """.formatted(CONTEXT_ROOT, app));
            }
            List<String> options = new ArrayList<>(List.of("-Xmx" + heap()));
            systemProperties().forEach((k, v) -> options.add("-D" + k + "=" + v));
            Files.write(dir.resolve("jvm.options"), options);
            // one messages.log across restarts: Liberty would otherwise roll it over on every start and keep only
            // the last two, and a check after a kill and a restart would not see what was logged before the kill
            Files.writeString(dir.resolve("bootstrap.properties"), "com.ibm.ws.logging.newLogsOnStart=false\n");
            return List.of(home.resolve("bin/server").toString(), "run", server);
        }

        @Override
        protected Map<String, String> environment() {
            return Map.of("OUTBOX_HTTP_PORT", String.valueOf(httpPort()),
                    "OUTBOX_HTTPS_PORT", String.valueOf(9443 + portOffset));
        }

        @Override
        public boolean deploymentFailed() throws IOException {
            // CWWKZ0002E: an exception occurred while starting the application (this run's log only)
            String log = logSinceStart();
            return log.contains("CWWKZ0002E") || log.contains("CWWKZ0004E");
        }
    }
}
