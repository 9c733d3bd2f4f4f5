package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.relay.store.OutboxStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The drain's one-statement step (outbox_complete_and_claim, V6): it completes one batch and claims the
 * next in one transaction, so either both happen or neither; the claim sees the completion; and a relay
 * that drains this way publishes every row and marks every one. Against a real PostgreSQL.
 */
class CompleteAndClaimIT {

    private TestDatabase.Db db;
    private JdbcOutboxStore store;
    private ScheduledExecutorService executor;
    private final List<OutboxRelay> relays = new ArrayList<>();

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("complete_claim_it", false);
        store = new JdbcOutboxStore(db.dataSource());
        executor = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executor.shutdownNow();
    }

    private static OutboxStore.Claim claim(int batchSize, boolean ordered) {
        Instant now = Instant.now();
        return new OutboxStore.Claim(UUID.randomUUID(), now, now.plus(Duration.ofMinutes(1)),
                new OutboxStore.ClaimLimits(10, batchSize, 1 << 20, ordered));
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }

    private long count(String where) {
        return db.queryLong("SELECT count(*) FROM outbox_events WHERE " + where);
    }

    @Test
    void completesOneBatchAndLeasesTheNextInOneStep() throws Exception {
        RelayIt.writeCommitted(db, 25, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        try (OutboxStore.Session s = store.open()) {
            OutboxStore.Claim first = claim(10, false);
            List<OutboxMessage> a = s.claim(first).messages();
            assertThat(a).hasSize(10);

            OutboxStore.Claim second = claim(10, false);
            OutboxStore.CompletedAndClaimed both = s.completeAndClaim(CompletionMode.MARK, ids(a), first.token(), second);

            assertThat(both.completed()).isEqualTo(10);
            assertThat(both.claimed()).hasSize(10).extracting(OutboxMessage::id).doesNotContainAnyElementsOf(ids(a));
            assertThat(count("processed_at IS NOT NULL AND claim_token IS NULL")).isEqualTo(10);
            assertThat(count("claim_token = '" + second.token() + "' AND processed_at IS NULL")).isEqualTo(10);

            OutboxStore.Claim third = claim(10, false);
            List<OutboxMessage> c = s.completeAndClaim(CompletionMode.MARK, ids(both.claimed()), second.token(), third)
                    .claimed();
            assertThat(c).hasSize(5);
            // The last batch, completed with delete-on-publish: nothing is left to claim.
            OutboxStore.CompletedAndClaimed last = s.completeAndClaim(CompletionMode.DELETE, ids(c), third.token(),
                    claim(10, false));
            assertThat(last.completed()).isEqualTo(5);
            assertThat(last.claimed()).isEmpty();
            assertThat(count("true")).isEqualTo(20);
            assertThat(count("processed_at IS NULL")).isZero();
        }
    }

    @Test
    void whenTheClaimFailsTheCompletionIsUndoneToo() throws Exception {
        RelayIt.writeCommitted(db, 20, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        UUID poisoned = UUID.randomUUID();
        // A failure inside the claim part of the statement, after the completion part has run.
        db.execute("CREATE FUNCTION refuse_token() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.claim_token = '" + poisoned + "' THEN RAISE EXCEPTION 'claim refused'; END IF;"
                + " RETURN NEW; END $$;"
                + " CREATE TRIGGER refuse_token BEFORE UPDATE ON outbox_events FOR EACH ROW EXECUTE FUNCTION refuse_token();");
        try (OutboxStore.Session s = store.open()) {
            OutboxStore.Claim first = claim(10, false);
            List<OutboxMessage> a = s.claim(first).messages();
            Instant now = Instant.now();
            OutboxStore.Claim refused = new OutboxStore.Claim(poisoned, now, now.plusSeconds(60),
                    new OutboxStore.ClaimLimits(10, 10, 1 << 20, false));

            assertThatThrownBy(() -> s.completeAndClaim(CompletionMode.MARK, ids(a), first.token(), refused))
                    .isInstanceOf(SQLException.class).hasMessageContaining("claim refused");

            // Neither half happened: batch A is still leased and unpublished, nothing else is leased.
            assertThat(count("processed_at IS NOT NULL")).isZero();
            assertThat(count("claim_token = '" + first.token() + "'")).isEqualTo(10);
            assertThat(count("claim_token IS NOT NULL")).isEqualTo(10);

            // The session is usable afterwards, and the same step then succeeds.
            OutboxStore.CompletedAndClaimed both = s.completeAndClaim(CompletionMode.MARK, ids(a), first.token(),
                    claim(10, false));
            assertThat(both.completed()).isEqualTo(10);
            assertThat(both.claimed()).hasSize(10);
        }
    }

    @Test
    void rowsNoLongerLeasedToTheTokenAreNotCompleted() throws Exception {
        RelayIt.writeCommitted(db, 10, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        try (OutboxStore.Session s = store.open()) {
            OutboxStore.Claim first = claim(10, false);
            List<OutboxMessage> a = s.claim(first).messages();
            // Three rows' lease ran out and another relay holds them now.
            UUID other = UUID.randomUUID();
            db.execute("UPDATE outbox_events SET claim_token = '" + other + "' WHERE id IN ('"
                    + a.get(0).id() + "','" + a.get(1).id() + "','" + a.get(2).id() + "')");
            OutboxStore.CompletedAndClaimed both = s.completeAndClaim(CompletionMode.MARK, ids(a), first.token(),
                    claim(10, false));
            assertThat(both.completed()).isEqualTo(7);
            assertThat(count("claim_token = '" + other + "' AND processed_at IS NULL")).isEqualTo(3);
        }
    }

    @Test
    void inOrderedModeTheClaimSeesTheCompletionOfTheSameStep() throws Exception {
        // Two events of one aggregate: the second is due only once the first is published.
        RelayIt.writeCommitted(db, 2, i -> new RelayIt.Event("order", "same", "order.e" + i));
        try (OutboxStore.Session s = store.open()) {
            OutboxStore.Claim first = claim(10, true);
            List<OutboxMessage> a = s.claim(first).messages();
            assertThat(a).extracting(OutboxMessage::eventType).containsExactly("order.e0");
            OutboxStore.CompletedAndClaimed both = s.completeAndClaim(CompletionMode.MARK, ids(a), first.token(),
                    claim(10, true));
            assertThat(both.completed()).isEqualTo(1);
            assertThat(both.claimed()).extracting(OutboxMessage::eventType).containsExactly("order.e1");
        }
    }

    @Test
    void aClaimStopsOnceItsRowsHoldTheByteBudgetAndTakesAnOversizedRowAlone() throws Exception {
        db.execute("INSERT INTO outbox_events (aggregate_type, aggregate_id, event_type, payload)"
                + " SELECT 'order', 'o' || g, 'order.created', jsonb_build_object('pad', repeat('x', 1000))"
                + " FROM generate_series(1, 10) g");
        long rowBytes = db.queryLong("SELECT max(pg_column_size(payload)) FROM outbox_events");
        assertThat(db.queryLong("SELECT min(pg_column_size(payload)) FROM outbox_events")).isEqualTo(rowBytes);
        Instant now = Instant.now();
        try (OutboxStore.Session s = store.open()) {
            // Two rows fit below the budget, the third crosses it: three rows, and the claim counts as full.
            OutboxStore.Claimed three = s.claim(new OutboxStore.Claim(UUID.randomUUID(), now, now.plusSeconds(60),
                    new OutboxStore.ClaimLimits(10, 100, (int) (2 * rowBytes + 1), false)));
            assertThat(three.messages()).hasSize(3);
            assertThat(three.full()).as("cut by bytes, so more may be due").isTrue();
            assertThat(sorted(three.messages())).extracting(OutboxMessage::aggregateId).containsExactly("o1", "o2", "o3");

            // A budget below one row still takes the oldest due row, alone (ordered mode too).
            OutboxStore.Claimed one = s.claim(new OutboxStore.Claim(UUID.randomUUID(), now, now.plusSeconds(60),
                    new OutboxStore.ClaimLimits(10, 100, 1, true)));
            assertThat(one.messages()).extracting(OutboxMessage::aggregateId).containsExactly("o4");
            assertThat(one.full()).isTrue();

            // The rest fits the budget and the row limit: not full, the drain may stop.
            OutboxStore.Claimed rest = s.claim(claim(100, false));
            assertThat(rest.messages()).hasSize(6);
            assertThat(rest.full()).isFalse();
        }
        assertThat(count("claim_token IS NULL")).as("every row leased once, none left locked or skipped").isZero();
    }

    private static List<OutboxMessage> sorted(List<OutboxMessage> messages) {
        return messages.stream().sorted(java.util.Comparator.comparingLong(OutboxMessage::seq)).toList();
    }

    @Test
    void twoFusedRelaysPublishEveryRowOnceAndMarkThemAll() throws Exception {
        List<UUID> all = RelayIt.writeCommitted(db, 3000, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        RecordingPublisher a = new RecordingPublisher();
        RecordingPublisher b = new RecordingPublisher();
        for (RecordingPublisher p : List.of(a, b)) {
            OutboxRelay r = OutboxRelay.builder().config(RelayIt.config("fused-" + relays.size()).set(RelaySettings.BATCH_SIZE, 50).build())
                    .dataSource(db.dataSource()).executor(executor).publisher(p).pipelined(false).build();
            relays.add(r);
            r.start();
        }
        RelayIt.await(Duration.ofSeconds(60), "all rows marked", () -> count("processed_at IS NULL") == 0);

        Set<UUID> byA = new HashSet<>(ids(a.published));
        Set<UUID> byB = new HashSet<>(ids(b.published));
        assertThat(a.published).hasSize(byA.size());
        assertThat(b.published).hasSize(byB.size());
        assertThat(byA).doesNotContainAnyElementsOf(byB);
        Set<UUID> union = new HashSet<>(byA);
        union.addAll(byB);
        assertThat(union).isEqualTo(new HashSet<>(all));
        assertThat(count("claim_token IS NOT NULL OR locked_until IS NOT NULL")).isZero();
    }
}
