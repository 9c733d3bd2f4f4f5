package io.eeoutbox.sample.fault.harness;

import io.eeoutbox.sample.demo.DemoServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * What the scenarios share in one test JVM: the suite's PostgreSQL (started on first use, one database
 * per scenario), the servers they start (each stopped at the end of its scenario, and all of them at
 * the end of the run whatever happened), the random seed, and the figures table, printed when the
 * last scenario is done.
 *
 * <p>Registered as a JUnit extension ({@code @ExtendWith(FaultSession.Extension.class)} on
 * {@link FaultScenario}, which every scenario extends): it lives in the root context's store, which
 * JUnit closes after all test classes, and a scenario's {@code @BeforeAll}/{@code @Test} methods take
 * it as a parameter.
 */
public final class FaultSession implements ExtensionContext.Store.CloseableResource {

    private static final Logger LOG = Logger.getLogger(FaultSession.class.getName());
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(FaultSession.class);

    private final FaultSettings.Size size = FaultSettings.size();
    private final long seed = FaultSettings.seed();
    private final Path dir = FaultSettings.dir();
    private final Figures figures;
    private final List<FaultServer> servers = new ArrayList<>();
    private final long startedNanos = System.nanoTime();
    private FaultPostgres postgres;
    private int nextWildFlyOffset = FaultSettings.intProperty("fault.wildfly.port-offset", 2000);
    /** Liberty: http 9080 + offset, https 9443 + offset. */
    private int nextLibertyOffset = FaultSettings.intProperty("fault.liberty.port-offset", 1300);

    private FaultSession() {
        figures = new Figures(dir.resolve("results.md"), "size: " + size.name().toLowerCase() + ", seed: " + seed
                + ", commit: " + commit() + ", started: " + Figures.now() + ", machine: "
                + Runtime.getRuntime().availableProcessors() + " cores");
        System.out.println("[fault] fault suite, size " + size.name().toLowerCase() + ", seed " + seed
                + " (rerun with -Dfault.seed=" + seed + "), output in " + dir);
    }

    /** The JUnit side: one session per run, handed to methods that ask for it. */
    public static final class Extension implements BeforeAllCallback, ParameterResolver {
        @Override
        public void beforeAll(ExtensionContext context) {
            of(context);
        }

        @Override
        public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
            return p.getParameter().getType() == FaultSession.class;
        }

        @Override
        public Object resolveParameter(ParameterContext p, ExtensionContext c) {
            return of(c);
        }

        private static FaultSession of(ExtensionContext context) {
            return context.getRoot().getStore(NS)
                    .getOrComputeIfAbsent(FaultSession.class, k -> new FaultSession(), FaultSession.class);
        }
    }

    public FaultSettings.Size size() {
        return size;
    }

    public long seed() {
        return seed;
    }

    public Path dir() {
        return dir;
    }

    public Figures figures() {
        return figures;
    }

    /**
     * The suite's PostgreSQL, started on first use, on a fixed port below the ephemeral range (so no
     * client socket takes it between a restart's stop and start): {@code fault.pg.port}, else the first
     * free one from 25432; another one is tried when the chosen port is taken at the last moment.
     */
    public synchronized FaultPostgres postgres() throws IOException {
        if (postgres == null) {
            int given = FaultSettings.intProperty("fault.pg.port", 0);
            if (given == 5432) {
                throw new IllegalArgumentException("fault.pg.port=5432: the suite never uses the machine's PostgreSQL port");
            }
            int candidate = given != 0 ? given : Ports.first(25432, 1, Ports::isFree);
            for (int attempt = 1; ; attempt++) {
                try {
                    postgres = FaultPostgres.startFresh(dir.resolve("pgdata"), candidate);
                    break;
                } catch (IOException | RuntimeException e) {
                    if (given != 0 || attempt == 3) {
                        throw e;
                    }
                    LOG.warning("PostgreSQL did not start on port " + candidate + " (" + e + "); trying another port");
                    candidate = Ports.first(candidate + 1, 1, Ports::isFree);
                }
            }
        }
        return postgres;
    }

    /** A fresh database {@code name} with the schema; returns its JDBC URL. */
    public String database(String name) throws IOException, SQLException {
        postgres().createDatabase(name);
        return postgres().jdbcUrl(name);
    }

    /** A WildFly instance on free ports, to run {@code war} against {@code dbUrl}; not started. */
    public synchronized FaultServer wildfly(String instance, Path war, String dbUrl, Map<String, String> properties) {
        int offset = DemoServer.freeOffset(true, nextWildFlyOffset, 100);
        nextWildFlyOffset = offset + 100;
        DemoServer server = DemoServer.wildfly(FaultSettings.wildflyHome(), dir.resolve("servers").resolve(instance), offset)
                .heap("768m");
        properties.forEach(server::systemProperty);
        FaultServer s = new FaultServer(instance, server, war, dbUrl);
        servers.add(s);
        return s;
    }

    /** A server of the kind named ({@code wildfly} or {@code liberty}); fails when Liberty is not provisioned. */
    public FaultServer server(String kind, String instance, Path war, String dbUrl, Map<String, String> properties) {
        return switch (kind) {
            case "wildfly" -> wildfly(instance, war, dbUrl, properties);
            case "liberty" -> {
                FaultServer s = libertyOrNull(instance, war, dbUrl, properties);
                if (s == null) {
                    throw new IllegalStateException("fault.servers names liberty, but the build did not provision it"
                            + " (the profile liberty is off)");
                }
                yield s;
            }
            default -> throw new IllegalArgumentException("fault.servers: " + kind + " (allowed: wildfly, liberty)");
        };
    }

    /** An Open Liberty server on free ports running {@code war}; null when the build did not provision Liberty. */
    public synchronized FaultServer libertyOrNull(String instance, Path war, String dbUrl, Map<String, String> properties) {
        Path home = FaultSettings.libertyHomeOrNull();
        if (home == null) {
            return null;
        }
        int offset = DemoServer.freeOffset(false, nextLibertyOffset, 10);
        nextLibertyOffset = offset + 10;
        DemoServer server = DemoServer.liberty(home, FaultSettings.libertyServerXml(), dir.resolve("servers").resolve(instance),
                offset, "fault-" + instance).heap("768m");
        properties.forEach(server::systemProperty);
        FaultServer s = new FaultServer(instance, server, war, dbUrl);
        servers.add(s);
        return s;
    }

    /**
     * The suite's copy of the sample WAR with the observing hooks (publish log, delivery log) and the
     * given extra hook classes; built once per set of extras.
     */
    public synchronized Path observedWar(String name, List<Class<?>> extraHooks) throws IOException {
        List<Class<?>> hooks = new ArrayList<>(List.of(io.eeoutbox.sample.fault.hook.PublishLog.class,
                io.eeoutbox.sample.fault.hook.DeliveryLog.class));
        hooks.addAll(extraHooks);
        return FaultWar.build(FaultSettings.war(), dir.resolve("wars").resolve(name + ".war"), hooks,
                List.of(io.eeoutbox.sample.fault.hook.DeliveryLog.class));
    }

    /** Stops every server this session started ({@link FaultScenario} calls it after each scenario class). */
    public synchronized void stopServers() {
        for (FaultServer s : servers) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.warning(() -> "stopping " + s.instance() + " failed: " + e + "; killing it");
                s.kill();
            }
        }
        servers.clear();
    }

    /** After the last scenario: stop everything, print the table, check that nothing is left running. */
    @Override
    public void close() {
        stopServers();
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                System.err.println("[fault] stopping PostgreSQL failed: " + e);
            }
        }
        DemoServer.killAll();
        List<String> left = DemoServer.stillRunning();
        System.out.println();
        System.out.println(figures.table());
        System.out.println("[fault] whole suite: " + Figures.seconds(Duration.ofNanos(System.nanoTime() - startedNanos))
                + "; table in " + dir.resolve("results.md")
                + (left.isEmpty() ? "; nothing left running" : "; STILL RUNNING: " + left));
    }

    private static String commit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
