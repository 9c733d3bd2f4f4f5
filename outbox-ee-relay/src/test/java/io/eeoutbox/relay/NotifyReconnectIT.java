package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The LISTEN connection survives a database restart: it reconnects by itself and the relay catches
 * up. The test starts (and restarts) a PostgreSQL of its own, on a fixed port and data directory.
 */
class NotifyReconnectIT {

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private Path dataDir;
    private int port;
    private EmbeddedPostgres postgres;
    private OutboxRelay relay;

    @AfterEach
    void tearDown() throws IOException {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
        if (postgres != null) {
            postgres.close();
        }
        if (dataDir != null) {
            try (var files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    private EmbeddedPostgres startPostgres() throws IOException {
        return EmbeddedPostgres.builder().setPort(port).setDataDirectory(dataDir.toFile()).setCleanDataDirectory(false)
                .start();
    }

    private String url() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    @Test
    void theListenerReconnectsAfterTheDatabaseRestartsAndTheRelayCatchesUp() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        dataDir = Files.createTempDirectory("relay-reconnect-pg");
        postgres = startPostgres();
        try (Connection c = DriverManager.getConnection(url(), "postgres", null); Statement st = c.createStatement()) {
            for (String file : TestDatabase.migrations()) {
                st.execute(TestDatabase.readResource("db/ee-outbox/" + file));
            }
        }
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(url());
        dataSource.setUser("postgres");

        BlockingQueue<UUID> published = new LinkedBlockingQueue<>();
        RelayListener listener = new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                published.add(message.id());
            }
        };
        relay = OutboxRelay.builder()
                .config(RelayIt.config("reconnecting").set(RelaySettings.NOTIFY_ENABLED, true).set(RelaySettings.POLL_INTERVAL, Duration.ofSeconds(60))
                        .set(RelaySettings.NOTIFY_JDBC_URL, url()).set(RelaySettings.NOTIFY_USER, "postgres").build())
                .dataSource(dataSource).executor(executor).publisher(new RecordingPublisher()).listener(listener).build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(10), "the relay listens", relay::isListening);
        UUID before = insert(dataSource, "before");
        assertThat(published.poll(5, TimeUnit.SECONDS)).isEqualTo(before);

        postgres.close(); // the database goes away
        postgres = null;
        RelayIt.await(Duration.ofSeconds(10), "the relay notices", () -> !relay.isListening());

        postgres = startPostgres(); // and comes back
        RelayIt.await(Duration.ofSeconds(30), "the relay listens again", relay::isListening);
        UUID after = insert(dataSource, "after");
        assertThat(published.poll(10, TimeUnit.SECONDS)).as("delivered by NOTIFY, the poll is every 60 s")
                .isEqualTo(after);
    }

    private static UUID insert(PGSimpleDataSource dataSource, String aggregateId) throws Exception {
        UUID id = UUID.randomUUID();
        try (Connection c = dataSource.getConnection()) {
            new io.eeoutbox.jpa.generated.OutboxEventJdbc(c).insertOutboxEvent(new io.eeoutbox.jpa.generated
                    .InsertOutboxEventParams(id, "order", aggregateId, "order.created", "{}", null));
        }
        return id;
    }
}
