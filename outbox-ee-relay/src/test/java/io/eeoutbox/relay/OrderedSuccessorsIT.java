package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ordered mode's claim statement (V11, outbox_complete_and_claim_ordered; decision 0017) at the SQL level: it takes
 * the next event of each aggregate it completes by the aggregate index, never an event whose predecessor is still
 * pending, not even when that predecessor is locked by another claimer at that moment; and two claimers that drain
 * the same outbox with it never publish an aggregate's events out of write order.
 */
class OrderedSuccessorsIT {

    private TestDatabase.Db db;
    private JdbcOutboxStore store;
    private ExecutorService executor;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("ordered_successors_it", false);
        store = new JdbcOutboxStore(db.dataSource());
        executor = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    private static OutboxStore.Claim claim(int batchSize, long minSeq) {
        Instant now = Instant.now();
        return new OutboxStore.Claim(UUID.randomUUID(), now, now.plus(Duration.ofMinutes(1)),
                new OutboxStore.ClaimLimits(10, batchSize, 1 << 20, true), minSeq);
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }

    private static List<String> events(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::eventType).sorted().toList();
    }

    @Test
    void takesTheNextEventOfEachCompletedAggregateAndLeavesHalfTheBatchToTheWalk() throws Exception {
        // H0..H3: three events each, next to each other; then N0..N3, one event each.
        RelayIt.writeCommitted(db, 16, i -> i < 12
                ? new RelayIt.Event("acct", "H" + i / 3, "H" + i / 3 + "-" + i % 3)
                : new RelayIt.Event("acct", "N" + (i - 12), "N" + (i - 12)));
        try (OutboxStore.Session s = store.open()) {
            OutboxStore.Claim first = claim(4, 0);
            OutboxStore.Claimed heads = s.claim(first);
            assertThat(events(heads.messages())).containsExactly("H0-0", "H1-0", "H2-0", "H3-0");
            long walkNext = heads.walkNext();
            assertThat(walkNext).as("a walk that filled the batch goes on above its highest row")
                    .isEqualTo(heads.messages().stream().mapToLong(OutboxMessage::seq).max().orElseThrow() + 1);

            OutboxStore.CompletedAndClaimed next = s.completeAndClaim(CompletionMode.MARK, ids(heads.messages()),
                    first.token(), claim(4, walkNext));

            assertThat(next.completed()).isEqualTo(4);
            assertThat(events(next.claimed())).as("the two oldest successors (half the batch), then the walk from"
                    + " walkNext: H3's next event is a head there, and N0 the next one; H2-1 is left for a claim that"
                    + " starts below").containsExactly("H0-1", "H1-1", "H3-1", "N0");
        }
    }

    @Test
    void aLockedSuccessorIsSkippedNeverPassedOver() throws Exception {
        RelayIt.writeCommitted(db, 3, i -> new RelayIt.Event("acct", "A", "a" + (i + 1)));
        try (OutboxStore.Session s = store.open(); Connection other = db.connect()) {
            OutboxStore.Claim first = claim(10, 0);
            List<OutboxMessage> a1 = s.claim(first).messages();
            assertThat(events(a1)).containsExactly("a1");
            // Another claimer holds a2's row lock in the middle of its own claim statement.
            other.setAutoCommit(false);
            other.createStatement().execute("SELECT id FROM outbox_events WHERE event_type = 'a2' FOR UPDATE");

            OutboxStore.CompletedAndClaimed next = s.completeAndClaim(CompletionMode.MARK, ids(a1), first.token(),
                    claim(10, 0));

            assertThat(next.completed()).isEqualTo(1);
            assertThat(next.claimed()).as("a3 waits for a2, which is pending and locked: nothing of A is due").isEmpty();
            other.rollback();
            assertThat(events(s.claim(claim(10, 0)).messages())).containsExactly("a2");
        }
    }

    @Test
    void twoClaimersNeverPublishAnAggregatesEventsOutOfOrder() throws Exception {
        int aggregates = 12;
        int perAggregate = 40;
        // Interleaved, with a hot aggregate that holds a third of the events.
        List<UUID> written = RelayIt.writeCommitted(db, aggregates * perAggregate, i -> new RelayIt.Event("acct",
                i % 3 == 0 ? "hot" : "A" + i % aggregates, "e" + i));
        Map<UUID, String> predecessor = new HashMap<>(); // each event's previous event of its aggregate, by id
        Map<String, UUID> last = new HashMap<>();
        for (int i = 0; i < written.size(); i++) {
            String aggregate = i % 3 == 0 ? "hot" : "A" + i % aggregates;
            predecessor.put(written.get(i), String.valueOf(last.get(aggregate)));
            last.put(aggregate, written.get(i));
        }
        Map<String, UUID> lastPublished = new ConcurrentHashMap<>();
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<Future<Integer>> claimers = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            claimers.add(executor.submit(() -> {
                int published = 0;
                try (OutboxStore.Session s = store.open()) {
                    List<UUID> done = List.of();
                    UUID doneToken = null;
                    long minSeq = 0;
                    while (System.nanoTime() < deadline) {
                        OutboxStore.Claim next = claim(5, minSeq);
                        OutboxStore.CompletedAndClaimed step = s.completeAndClaim(CompletionMode.MARK, done, doneToken,
                                next);
                        if (step.claimed().isEmpty()) {
                            if (db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL") == 0) {
                                return published;
                            }
                            done = List.of();
                            minSeq = 0; // the other claimer holds the heads: look again from the start
                            continue;
                        }
                        for (OutboxMessage m : step.claimed()) { // publish: the previous event of its aggregate must be the last published
                            String expected = predecessor.get(m.id());
                            UUID before = lastPublished.put(m.aggregateId(), m.id());
                            if (!expected.equals(String.valueOf(before))) {
                                violations.add(m.eventType() + " of " + m.aggregateId() + " after " + before);
                            }
                            published++;
                        }
                        done = ids(step.claimed());
                        doneToken = next.token();
                        minSeq = Math.random() < 0.2 ? 0 : step.walkNext(); // sometimes a sweep from the start
                    }
                }
                return published;
            }));
        }
        int published = 0;
        for (Future<Integer> f : claimers) {
            published += f.get();
        }

        assertThat(violations).as("events published before their aggregate's previous one").isEmpty();
        assertThat(published).isEqualTo(aggregates * perAggregate);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL")).isZero();
    }
}
