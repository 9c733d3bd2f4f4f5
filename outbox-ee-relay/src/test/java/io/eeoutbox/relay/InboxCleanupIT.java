package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The consumers' inbox is cleaned by the elected cleaner, in batches (issue 17, item 6). */
class InboxCleanupIT {

    private TestDatabase.Db db;
    private ScheduledExecutorService executor;
    private OutboxRelay relay;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("inbox_cleanup_it", false);
        executor = Executors.newScheduledThreadPool(1);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
    }

    /** {@code n} inbox records of {@code consumer}, recorded {@code age} ago by the database's clock. */
    private void inbox(String consumer, int n, Duration age) throws SQLException {
        try (Connection c = db.connect();
             PreparedStatement s = c.prepareStatement("INSERT INTO processed_events (consumer, event_id, processed_at)"
                     + " VALUES (?, ?, now() - ? * interval '1 second')")) {
            for (int i = 0; i < n; i++) {
                s.setString(1, consumer);
                s.setObject(2, UUID.randomUUID());
                s.setLong(3, age.getSeconds());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    private long inboxRows() {
        return db.queryLong("SELECT count(*) FROM processed_events");
    }

    @Test
    void recordsOlderThanTheInboxRetentionAreDeletedInBatchesByTheCleanerOnly() throws Exception {
        inbox("projection", 25, Duration.ofDays(31));
        inbox("projection", 5, Duration.ofDays(29));
        inbox("billing", 4, Duration.ofDays(40));
        relay = OutboxRelay.builder().config(RelayIt.config("inbox-cleaner").set(RelaySettings.CLEANUP_BATCH_SIZE, 7).build())
                .dataSource(db.dataSource()).executor(executor).publisher(new RecordingPublisher()).build();
        relay.start();
        relay.pause();

        // While another relay holds the maintenance lock, this one deletes nothing.
        try (Connection other = db.connect()) {
            other.setAutoCommit(false);
            assertThat(new OutboxEventJdbc(other).tryOutboxMaintenanceLock(OutboxCleaner.LOCK_KEY)).contains(true);
            new RelayOperations(relay).cleanUpNow();
            assertThat(inboxRows()).isEqualTo(34);
            other.rollback();
        }

        new RelayOperations(relay).cleanUpNow();
        assertThat(inboxRows()).as("the default inbox retention is 30 days").isEqualTo(5);
        assertThat(db.queryLong("SELECT count(*) FROM processed_events WHERE processed_at < now() - interval '30 days'"))
                .isZero();
    }

    /**
     * Issue 34: a consumer whose broker may redeliver much later keeps its records for a retention of its own, the
     * others keep the default; one with a shorter retention loses its records sooner. Batches span consumers.
     */
    @Test
    void aConsumerWithARetentionOfItsOwnKeepsItsRecordsForThatLongAndOnlyThose() throws Exception {
        inbox("projection", 9, Duration.ofDays(31));   // default 30 days: deleted
        inbox("projection", 2, Duration.ofDays(29));   // kept
        inbox("replay", 6, Duration.ofDays(60));       // 90 days of its own: kept
        inbox("replay", 3, Duration.ofDays(91));       // deleted
        inbox("audit", 4, Duration.ofDays(8));         // 7 days of its own: deleted
        inbox("audit", 1, Duration.ofDays(6));         // kept
        relay = OutboxRelay.builder().config(RelayIt.config("inbox-per-consumer").set(RelaySettings.CLEANUP_BATCH_SIZE, 5)
                        .set(RelaySettings.INBOX_RETENTION_PER_CONSUMER, RelaySettings.INBOX_RETENTION_PER_CONSUMER
                                .parse("replay=P90D, audit=P7D")).build())
                .dataSource(db.dataSource()).executor(executor).publisher(new RecordingPublisher()).build();
        relay.start();
        relay.pause();

        new RelayOperations(relay).cleanUpNow();

        assertThat(count("projection")).as("the default, 30 days").isEqualTo(2);
        assertThat(count("replay")).as("its own 90 days").isEqualTo(6);
        assertThat(count("audit")).as("its own 7 days").isEqualTo(1);
    }

    @Test
    void aBadPerConsumerRetentionIsRefusedNamingTheSettingAndTheLimit() {
        for (String bad : new String[] {"replay", "replay=90 days", "replay=PT1M", "=P1D", "a=P1D,a=P2D",
                "x".repeat(101) + "=P1D", "replay=P36501D"}) {
            assertThatThrownBy(() -> RelaySettings.INBOX_RETENTION_PER_CONSUMER.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outbox.relay.inbox.retention.per-consumer")
                    .hasMessageContaining("from PT1H to P36500D");
        }
    }

    private long count(String consumer) {
        return db.queryLong("SELECT count(*) FROM processed_events WHERE consumer = '" + consumer + "'");
    }

    @Test
    void theScheduledCleanupCleansTheInboxByItself() throws Exception {
        inbox("projection", 12, Duration.ofHours(3));
        inbox("projection", 3, Duration.ofMinutes(10));
        relay = OutboxRelay.builder().config(RelayIt.config("inbox-scheduled").set(RelaySettings.INBOX_RETENTION, Duration.ofHours(2))
                        .set(RelaySettings.CLEANUP_INTERVAL, Duration.ofMillis(200)).set(RelaySettings.CLEANUP_BATCH_SIZE, 5).build())
                .dataSource(db.dataSource()).executor(executor).publisher(new RecordingPublisher()).build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(10), "inbox records older than 2 h deleted", () -> inboxRows() == 3);
    }
}
