package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The schema options of sql/options (issue 30; docs/schema.md, "Schema options"): an outbox whose relays all run
 * unordered may drop ordered mode's index, which every insert pays for. Unordered relays deliver without it; an ordered
 * relay without it publishes nothing and says why, and goes on by itself once ordered-mode.sql has put the index back
 * (the same definition as V1's); an index left invalid by a failed concurrent build counts as missing.
 */
class OrderedIndexOptionIT {

    private static final String UNORDERED_ONLY = TestDatabase.readResource("db/options/ee-outbox/unordered-only.sql");
    private static final String ORDERED_MODE = TestDatabase.readResource("db/options/ee-outbox/ordered-mode.sql");
    private static final String INDEX_DEF = "SELECT pg_get_indexdef(to_regclass('idx_outbox_aggregate_pending'))";

    private TestDatabase.Db db;
    private ScheduledExecutorService executor;
    private OutboxRelay relay;
    private final RecordingPublisher publisher = new RecordingPublisher();

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("ordered_index_option_it", false);
        executor = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
    }

    @Test
    void theOptionsDropTheIndexAndCreateV1sAgain() throws Exception {
        String v1 = text(INDEX_DEF);
        assertThat(v1).contains("(aggregate_type, aggregate_id, seq)").contains("WHERE (processed_at IS NULL)");

        db.execute(UNORDERED_ONLY);
        assertThat(text(INDEX_DEF)).as("the index after unordered-only.sql").isNull();
        assertThat(new JdbcOutboxStore(db.dataSource()).orderedIndexReady()).isFalse();
        db.execute(UNORDERED_ONLY); // a second run changes nothing and does not fail

        db.execute(ORDERED_MODE);
        assertThat(text(INDEX_DEF)).as("ordered-mode.sql creates V1's index").isEqualTo(v1);
        assertThat(new JdbcOutboxStore(db.dataSource()).orderedIndexReady()).isTrue();
        db.execute(ORDERED_MODE);
    }

    @Test
    void anUnorderedRelayDeliversEveryEventWithoutTheIndex() throws Exception {
        db.execute(UNORDERED_ONLY);
        List<UUID> ids = RelayIt.writeCommitted(db, 60, i -> new RelayIt.Event("order", "o" + i % 6, "order.created"));
        relay = relay(false);
        relay.start();
        RelayIt.await(Duration.ofSeconds(20), "all 60 published and marked", () -> RelayIt.pending(db) == 0);
        assertThat(publisher.published).extracting(OutboxMessage::id).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(relay.counters().lastError()).isNull();
    }

    @Test
    void anOrderedRelayWithoutTheIndexPublishesNothingSaysWhyAndGoesOnOnceItIsBack() throws Exception {
        db.execute(UNORDERED_ONLY);
        RelayIt.writeCommitted(db, 30, i -> new RelayIt.Event("account", "a" + i % 3, "account.changed-" + i));
        relay = relay(true);
        relay.start();
        RelayIt.await(Duration.ofSeconds(10), "the relay says why it publishes nothing",
                () -> relay.counters().lastError() != null);
        String why = relay.counters().lastError();
        assertThat(why).contains("ordered mode", "idx_outbox_aggregate_pending", "sql/options/ordered-mode.sql");
        // It keeps looking (a poll every 100 ms) and keeps claiming nothing.
        var first = relay.counters().lastErrorAt();
        RelayIt.await(Duration.ofSeconds(10), "a later drain looks again",
                () -> relay.counters().lastErrorAt().isAfter(first));
        assertThat(publisher.published).isEmpty();
        assertThat(RelayIt.pending(db)).isEqualTo(30);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE claim_token IS NOT NULL")).isZero();

        db.execute(ORDERED_MODE);
        RelayIt.await(Duration.ofSeconds(20), "all 30 published and marked once the index is back",
                () -> RelayIt.pending(db) == 0);
        Map<String, List<Long>> seqs = publisher.published.stream().collect(Collectors.groupingBy(
                OutboxMessage::aggregateId, Collectors.mapping(OutboxMessage::seq, Collectors.toList())));
        assertThat(publisher.published).hasSize(30);
        assertThat(seqs).hasSize(3);
        seqs.forEach((aggregate, published) -> assertThat(published).as("aggregate %s in write order", aggregate)
                .isSortedAccordingTo(Comparator.naturalOrder()));
    }

    /**
     * A concurrent build that times out while an earlier transaction still uses the table leaves an INVALID index of
     * that name; ordered-mode.sql's IF NOT EXISTS then keeps it. No claim can use it: it counts as missing.
     */
    @Test
    void anIndexLeftInvalidByAFailedBuildCountsAsMissing() throws Exception {
        db.execute(UNORDERED_ONLY);
        RelayIt.writeCommitted(db, 3, i -> new RelayIt.Event("account", "a", "account.changed"));
        try (Connection open = db.connect(); Connection builder = db.connect()) {
            open.setAutoCommit(false);
            try (Statement s = open.createStatement()) {
                s.executeQuery("SELECT count(*) FROM outbox_events").close(); // a transaction with a snapshot
            }
            try (Statement s = builder.createStatement()) {
                s.execute("SET statement_timeout = '1s'");
                assertThatThrownBy(() -> s.execute(ORDERED_MODE)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("statement timeout");
            }
            open.rollback();
        }
        assertThat(db.queryLong("SELECT count(*) FROM pg_index WHERE indexrelid = to_regclass('idx_outbox_aggregate_pending')"
                + " AND NOT indisvalid")).as("an invalid index is left behind").isEqualTo(1);
        assertThat(new JdbcOutboxStore(db.dataSource()).orderedIndexReady()).isFalse();
    }

    private OutboxRelay relay(boolean ordered) {
        return OutboxRelay.builder().config(RelayIt.config("ordered-index-" + ordered)
                        .set(RelaySettings.ORDERED, ordered).build())
                .dataSource(db.dataSource()).executor(executor).publisher(publisher).build();
    }

    private String text(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
