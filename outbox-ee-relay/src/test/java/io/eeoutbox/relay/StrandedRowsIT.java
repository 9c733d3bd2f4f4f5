package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rows that used more attempts than the relay now allows (issue 17, item 3): before, they were neither
 * claimed nor dead letters, pending forever and invisible; now they become dead letters, visible and
 * retryable, and in ordered mode no longer block their aggregate without anyone seeing why.
 */
class StrandedRowsIT {

    private TestDatabase.Db db;
    private final List<ScheduledExecutorService> executors = new ArrayList<>();
    private final List<OutboxRelay> relays = new ArrayList<>();

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("stranded_rows_it", false);
    }

    @AfterEach
    void tearDown() {
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executors.forEach(ScheduledExecutorService::shutdownNow);
    }

    private OutboxRelay relay(RelayConfig config, RecordingPublisher publisher) {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
        executors.add(executor);
        OutboxRelay r = OutboxRelay.builder().config(config).dataSource(db.dataSource()).executor(executor)
                .publisher(publisher).build();
        relays.add(r);
        return r;
    }

    /** What a relay with max-attempts=10 left behind: three failed attempts, the row due again. */
    private void failedThreeTimes(List<UUID> ids) throws SQLException {
        try (Connection c = db.connect();
             PreparedStatement s = c.prepareStatement(
                     "UPDATE outbox_events SET attempts = 3, last_error = 'broker refused' WHERE id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            assertThat(s.executeUpdate()).isEqualTo(ids.size());
        }
    }

    private long deadLetters() {
        return db.queryLong("SELECT count(*) FROM outbox_dead_letters");
    }

    @Test
    void rowsOverTheLoweredLimitBecomeDeadLettersThatCanBeRetried() throws Exception {
        List<UUID> exhausted = RelayIt.write(db, List.of(
                new RelayIt.Event("order", "o1", "order.created"),
                new RelayIt.Event("order", "o2", "order.created"),
                new RelayIt.Event("order", "o3", "order.created")), true);
        failedThreeTimes(exhausted);
        List<UUID> fresh = RelayIt.write(db, List.of(new RelayIt.Event("order", "o4", "order.created")), true);

        RecordingPublisher publisher = new RecordingPublisher();
        OutboxRelay relay = relay(RelayIt.config("restarted").set(RelaySettings.MAX_ATTEMPTS, 2).set(RelaySettings.ORDERED, true).build(), publisher);
        relay.start();

        RelayIt.await(Duration.ofSeconds(10), "the three rows are dead letters", () -> deadLetters() == 3);
        RelayIt.await(Duration.ofSeconds(10), "the fresh row published", () -> publisher.published.size() == 1);
        assertThat(publisher.published.get(0).id()).isEqualTo(fresh.get(0));
        // the publisher sees the row before the relay marks it: wait for the mark, not only the publish
        RelayIt.await(Duration.ofSeconds(10), "nothing left pending out of sight", () -> RelayIt.pending(db) == 0);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_dead_letters WHERE last_error LIKE"
                + " 'broker refused (attempts 3 reached max-attempts 2)'")).isEqualTo(3);

        assertThat(new RelayOperations(relay).retryDeadLetter(exhausted.get(0))).isTrue();
        RelayIt.await(Duration.ofSeconds(10), "the retried dead letter published", () -> publisher.published.size() == 2);
        assertThat(publisher.published.get(1).id()).isEqualTo(exhausted.get(0));
        assertThat(deadLetters()).isEqualTo(2);
    }

    @Test
    void aRowLeasedToALiveRelayIsLeftToIt() throws Exception {
        List<UUID> ids = RelayIt.write(db, List.of(new RelayIt.Event("order", "o1", "order.created")), true);
        failedThreeTimes(ids);
        try (Connection c = db.connect();
             PreparedStatement s = c.prepareStatement("UPDATE outbox_events SET claim_token = ?,"
                     + " locked_until = now() + interval '1 minute' WHERE id = ?")) {
            s.setObject(1, UUID.randomUUID());
            s.setObject(2, ids.get(0));
            s.executeUpdate();
        }
        int dead = new JdbcOutboxStore(db.dataSource()).deadLetterExhausted(2, java.time.Instant.now());
        assertThat(dead).isZero();
        assertThat(deadLetters()).isZero();
    }
}
