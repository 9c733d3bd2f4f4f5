package io.eeoutbox.sample.fault.harness;

import io.eeoutbox.sample.demo.DemoServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A server instance of the fault suite: the demo's {@link DemoServer} (the one class that starts,
 * stops and kills the sample's servers) with the instance's name (also its relay's name,
 * {@code outbox.relay.name}), its database, and the time each start took.
 */
public final class FaultServer implements AutoCloseable {

    private static final Duration DEPLOY_PATIENCE = Duration.ofMinutes(5);

    private final String instance;
    private final DemoServer server;
    private final Path war;
    private final String dbUrl;
    private Duration lastStart = Duration.ZERO;

    FaultServer(String instance, DemoServer server, Path war, String dbUrl) {
        this.instance = instance;
        this.server = server.systemProperty("outbox.relay.name", instance);
        this.war = war;
        this.dbUrl = dbUrl;
    }

    public String instance() {
        return instance;
    }

    public String product() {
        return server.product();
    }

    /** The application's root, ending in a slash: {@code http://127.0.0.1:10080/orders/}. */
    public URI baseUri() {
        return URI.create(server.baseUrl() + "/");
    }

    public Path serverLog() {
        return server.logFile();
    }

    public int managementPort() {
        return server.managementPort();
    }

    /** WildFly's HTTP management API (the build provisions the ManagementRealm user outbox-admin). */
    public WildFlyManagement management() {
        if (server.managementPort() < 0) {
            throw new UnsupportedOperationException(product() + " has no HTTP management API here");
        }
        return new WildFlyManagement(URI.create("http://127.0.0.1:" + server.managementPort() + "/management"),
                "outbox-admin", "outbox-admin-1");
    }

    /** First start: fresh directories, the WAR deployed; returns when the sample answers. */
    public FaultServer start() throws Exception {
        long t0 = System.nanoTime();
        server.start(war, dbUrl, FaultPostgres.USER, FaultPostgres.PASSWORD);
        server.awaitDeployed(DEPLOY_PATIENCE);
        lastStart = Duration.ofNanos(System.nanoTime() - t0);
        return this;
    }

    /** Starts again on the same directories (after a kill or a stop); returns when the sample answers. */
    public FaultServer restart() throws Exception {
        long t0 = System.nanoTime();
        server.restart();
        server.awaitDeployed(DEPLOY_PATIENCE);
        lastStart = Duration.ofNanos(System.nanoTime() - t0);
        return this;
    }

    /**
     * Heuristic outcomes this server holds or has logged: on WildFly the heuristic participants in its log store
     * (after a probe through the management API) plus the lines of its server log that report a heuristic; on
     * Open Liberty the heuristic lines of its log ({@link HeuristicLines}: which lines, and the log's older files
     * read too). What an operator would otherwise have to find and clean up by hand after a fault.
     */
    public Heuristics heuristics() throws java.io.IOException {
        long inStore = -1;
        if (server.managementPort() >= 0 && isAlive()) {
            WildFlyManagement m = management();
            m.run("probe", java.util.Map.of(), "subsystem", "transactions", "log-store", "log-store");
            // only heuristic participants: a transaction that waits for the next recovery pass after a kill is
            // also in the store, and is recovery's to finish, not an operator's
            String store = m.run("read-resource", java.util.Map.of("recursive", "true", "include-runtime", "true"),
                    "subsystem", "transactions", "log-store", "log-store");
            java.util.regex.Matcher heuristic = HEURISTIC_PARTICIPANT.matcher(store);
            inStore = 0;
            while (heuristic.find()) {
                inStore++;
            }
        }
        java.util.List<String> lines = HeuristicLines.read(serverLog());
        return new Heuristics(inStore, lines);
    }

    private static final java.util.regex.Pattern HEURISTIC_PARTICIPANT =
            java.util.regex.Pattern.compile("\"status\"\\s*:\\s*\"HEURISTIC");

    /** Heuristic participants in the log store (-1: no store to probe) and heuristic lines in the log. */
    public record Heuristics(long inLogStore, java.util.List<String> logLines) {
        public long count() {
            return Math.max(0, inLogStore) + logLines.size();
        }

        @Override
        public String toString() {
            return "log_store=" + (inLogStore < 0 ? "n/a" : String.valueOf(inLogStore)) + " log_lines=" + logLines.size()
                    + (logLines.isEmpty() ? "" : " first: " + logLines.get(0));
        }
    }

    public Duration lastStartDuration() {
        return lastStart;
    }

    /** SIGKILL to the server's JVM and start script. */
    public void kill() {
        server.kill();
    }

    public boolean isAlive() {
        return server.isAlive();
    }

    /** A clean stop. */
    @Override
    public void close() {
        server.close();
    }

    @Override
    public String toString() {
        return instance + " (" + product() + ", " + baseUri() + ")";
    }
}
