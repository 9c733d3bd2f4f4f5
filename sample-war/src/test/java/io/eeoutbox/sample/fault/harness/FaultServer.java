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
