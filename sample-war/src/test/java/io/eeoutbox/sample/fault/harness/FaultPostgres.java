package io.eeoutbox.sample.fault.harness;

import io.eeoutbox.sample.it.db.Migrations;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The suite's own PostgreSQL: zonky's embedded binaries on a fixed data directory and a fixed port, so
 * it can be stopped and started again under the servers' feet (scenario 3) and the servers' JDBC URLs
 * stay valid. It never touches another PostgreSQL: the port is chosen free (never 5432) and the data
 * directory lies under target/fault.
 *
 * <p>The postmaster is a child of the test JVM; {@link #close()} stops it, and so does a shutdown hook.
 * A postmaster left behind by a test JVM that was itself killed (its pid file in our data directory)
 * is stopped at the next start.
 */
public final class FaultPostgres implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FaultPostgres.class.getName());
    public static final String USER = "postgres";
    /** zonky trusts local connections; WildFly refuses an empty password in a datasource. */
    public static final String PASSWORD = "postgres";

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres pg;
    private final Thread hook = new Thread(this::stopQuietly, "fault-postgres-stop");

    private FaultPostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    /** A fresh cluster in {@code dataDir} (its old content is removed) on {@code port}. */
    public static FaultPostgres startFresh(Path dataDir, int port) throws IOException {
        stopLeftover(dataDir);
        deleteTree(dataDir);
        Files.createDirectories(dataDir.getParent());
        FaultPostgres p = new FaultPostgres(dataDir, port);
        Runtime.getRuntime().addShutdownHook(p.hook);
        p.start();
        return p;
    }

    public int port() {
        return port;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public synchronized boolean isRunning() {
        return pg != null;
    }

    /** Starts the postmaster on the existing data directory (initdb the first time). */
    public synchronized void start() throws IOException {
        if (pg != null) {
            return;
        }
        long t0 = System.nanoTime();
        pg = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir.toFile())
                .setCleanDataDirectory(false)
                .setPort(port)
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(180))
                // the servers' pools plus the suite's own connections, two servers at a time
                .setServerConfig("max_connections", "300")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(
                        dataDir.resolveSibling("postgres.log").toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(
                        dataDir.resolveSibling("postgres.log").toFile()))
                .start();
        LOG.info(() -> "PostgreSQL up on port " + port + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** A clean shutdown ({@code pg_ctl stop -m fast}): connections are closed, data stays. */
    public synchronized void stop() throws IOException {
        if (pg != null) {
            try {
                pg.close();
            } finally {
                pg = null;
            }
        }
    }

    /** A fresh database with ee-outbox's schema and the sample's tables. */
    public void createDatabase(String name) throws SQLException, IOException {
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        }
        try (Connection c = connect(name)) {
            Migrations.apply(c);
        }
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), USER, PASSWORD);
    }

    @Override
    public void close() throws IOException {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (IOException | RuntimeException e) {
            System.err.println("[fault] could not stop PostgreSQL: " + e);
        }
    }

    /** A postmaster still running on our data directory from a killed earlier run: SIGTERM (fast shutdown). */
    private static void stopLeftover(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        try {
            String first = Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).trim();
            long pid = Long.parseLong(first);
            ProcessHandle.of(pid)
                    .filter(h -> h.info().command().orElse("").endsWith("postgres"))
                    .ifPresent(h -> {
                        LOG.warning(() -> "stopping a PostgreSQL left running on " + dataDir + " (pid " + pid + ")");
                        h.destroy();
                        h.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
                    });
        } catch (IOException | RuntimeException e) {
            LOG.warning(() -> "could not check " + pidFile + ": " + e);
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
