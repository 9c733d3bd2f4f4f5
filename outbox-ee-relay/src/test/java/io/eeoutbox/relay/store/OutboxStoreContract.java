package io.eeoutbox.relay.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.store.OutboxStore.Claim;
import io.eeoutbox.relay.store.OutboxStore.ClaimLimits;
import io.eeoutbox.relay.store.OutboxStore.Claimed;
import io.eeoutbox.relay.store.OutboxStore.CompletedAndClaimed;
import io.eeoutbox.relay.store.OutboxStore.Failure;
import io.eeoutbox.relay.store.OutboxStore.FailureOutcome;
import io.eeoutbox.relay.store.OutboxStore.Session;
import io.eeoutbox.relay.store.OutboxStore.Stats;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the relay relies on from an {@link OutboxStore}, run against every implementation: {@code JdbcOutboxStoreIT}
 * (the truth: the statements of sql/queries on a real PostgreSQL) and the in-memory fakes the unit tests drive the
 * relay with ({@code FakeOutboxStoreTest}, {@code ops.TinyStoreTest}). A subclass supplies the store and a way to
 * write a committed event; where a fake disagrees with the JDBC store, the fake is wrong.
 *
 * <p>Time is the caller's: every instant passed in is taken as the statement's now (the JDBC store is built
 * {@link JdbcOutboxStore#withStatementClock}), so a test moves time by passing a later instant. Creation times are
 * the store's own clock (PostgreSQL's now() at insert), read only against the wall clock.
 */
public abstract class OutboxStoreContract extends DelayedEventsContract {

    private static final int MAX_ATTEMPTS = 3;
    private static final Duration LEASE = Duration.ofMinutes(1);
    /** Now for the statements: the wall clock at the test's start, in microseconds as PostgreSQL keeps it. */
    private final Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);

    /** The store under test, on an empty outbox. */
    @Override
    protected abstract OutboxStore store();

    /** Writes and commits one pending event with this JSON payload; returns its id. */
    protected abstract UUID insert(String aggregateType, String aggregateId, String eventType, String payload)
            throws Exception;

    private UUID insert(String aggregateId) throws Exception {
        return insert("order", aggregateId, "order.created", "{\"n\":1}");
    }

    private List<UUID> insertMany(int n) throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(insert("o" + i));
        }
        return ids;
    }

    private Claim claim(Instant now, int batchSize) {
        return claim(now, batchSize, false);
    }

    private Claim claim(Instant now, int batchSize, boolean ordered) {
        return new Claim(UUID.randomUUID(), now, now.plus(LEASE), new ClaimLimits(MAX_ATTEMPTS, batchSize, 1 << 20, ordered));
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        return messages.stream().map(OutboxMessage::id).toList();
    }

    private static List<UUID> ids(Claimed claimed) {
        return ids(claimed.messages());
    }

    private static List<UUID> sorted(List<UUID> ids) {
        return ids.stream().sorted().toList();
    }

    @Test
    void aClaimLeasesDueRowsOldestFirstUpToTheBatchSizeAndNoOtherClaimTakesThem() throws Exception {
        List<UUID> written = insertMany(5);
        try (Session s = store().open()) {
            Claimed first = s.claim(claim(t0, 3));
            assertThat(sorted(ids(first))).isEqualTo(sorted(written.subList(0, 3)));
            assertThat(first.full()).isTrue();
            assertThat(first.messages()).allSatisfy(m -> {
                assertThat(m.attempt()).as("the first delivery").isEqualTo(1);
                assertThat(m.eventType()).isEqualTo("order.created");
                assertThat(m.aggregateType()).isEqualTo("order");
            });

            Claimed second = s.claim(claim(t0, 3));
            assertThat(sorted(ids(second))).isEqualTo(sorted(written.subList(3, 5)));
            assertThat(second.full()).isFalse();
            assertThat(s.claim(claim(t0, 3)).messages()).isEmpty();
        }
    }

    @Test
    void aLeaseEndsAtItsLockedUntilAndTheRowsCanBeClaimedAgain() throws Exception {
        List<UUID> written = insertMany(2);
        try (Session s = store().open()) {
            Claim first = claim(t0, 10);
            assertThat(s.claim(first).messages()).hasSize(2);
            assertThat(s.claim(claim(t0.plus(LEASE).minusSeconds(1), 10)).messages()).isEmpty();

            Claim after = claim(t0.plus(LEASE).plusSeconds(1), 10);
            assertThat(sorted(ids(s.claim(after)))).isEqualTo(sorted(written));
            assertThat(s.complete(CompletionMode.MARK, written, first.token(), after.now()))
                    .as("the first claim's token no longer holds the rows").isZero();
        }
    }

    @Test
    void completingMarksOnlyTheRowsStillLeasedToTheToken() throws Exception {
        insertMany(4);
        try (Session s = store().open()) {
            Claim c = claim(t0, 10);
            List<UUID> claimed = ids(s.claim(c));
            assertThat(s.complete(CompletionMode.MARK, claimed, UUID.randomUUID(), t0)).isZero();
            assertThat(s.complete(CompletionMode.MARK, claimed.subList(0, 3), c.token(), t0)).isEqualTo(3);
            assertThat(s.complete(CompletionMode.MARK, claimed.subList(0, 3), c.token(), t0))
                    .as("completed rows are leased to no one").isZero();
            assertThat(store().stats().pending()).isEqualTo(1);

            Claimed later = s.claim(claim(t0.plus(LEASE).plusSeconds(1), 10));
            assertThat(ids(later)).as("a completed row is never claimed again").containsExactly(claimed.get(3));
        }
    }

    @Test
    void deleteOnPublishRemovesTheRowsAndNothingIsLeftToCleanUp() throws Exception {
        insertMany(3);
        try (Session s = store().open()) {
            Claim c = claim(t0, 10);
            List<UUID> claimed = ids(s.claim(c));
            assertThat(s.complete(CompletionMode.DELETE, claimed, c.token(), t0)).isEqualTo(3);
            assertThat(store().stats()).isEqualTo(new Stats(0, 0, null));
            assertThat(s.claim(claim(t0.plus(LEASE).plusSeconds(1), 10)).messages()).isEmpty();
        }
        assertThat(store().cleanupBatch(1L, t0.plus(Duration.ofDays(30)), Duration.ofDays(1), 100)).hasValue(0);
    }

    @Test
    void completeAndClaimCompletesOneBatchAndLeasesTheNext() throws Exception {
        List<UUID> written = insertMany(5);
        try (Session s = store().open()) {
            Claim first = claim(t0, 2);
            List<UUID> a = ids(s.claim(first));
            Claim next = claim(t0, 2);
            CompletedAndClaimed both = s.completeAndClaim(CompletionMode.MARK, a, first.token(), next);
            assertThat(both.completed()).isEqualTo(2);
            assertThat(ids(both.claimed())).hasSize(2).doesNotContainAnyElementsOf(a);
            assertThat(both.full()).isTrue();
            assertThat(s.complete(CompletionMode.MARK, ids(both.claimed()), next.token(), t0)).isEqualTo(2);
            assertThat(store().stats().pending()).isEqualTo(1);
            assertThat(ids(s.claim(claim(t0, 2)))).containsExactly(written.get(4));
        }
    }

    @Test
    void releasedRowsAreDueAtOnceWithoutAnAttempt() throws Exception {
        insertMany(3);
        try (Session s = store().open()) {
            Claim c = claim(t0, 10);
            List<UUID> claimed = ids(s.claim(c));
            assertThat(s.release(claimed, UUID.randomUUID())).isZero();
            assertThat(s.release(claimed, c.token())).isEqualTo(3);
            Claimed again = s.claim(claim(t0, 10));
            assertThat(sorted(ids(again))).isEqualTo(sorted(claimed));
            assertThat(again.messages()).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
        }
    }

    @Test
    void deferredRowsWaitUntilTheirRetryTimeWithoutAnAttempt() throws Exception {
        insertMany(2);
        try (Session s = store().open()) {
            Claim c = claim(t0, 10);
            List<UUID> claimed = ids(s.claim(c));
            Instant retryAfter = t0.plusSeconds(30);
            assertThat(s.defer(claimed, c.token(), t0, retryAfter, "broker unreachable")).isEqualTo(2);
            assertThat(s.claim(claim(t0.plusSeconds(29), 10)).messages()).isEmpty();
            Claimed later = s.claim(claim(t0.plusSeconds(30), 10));
            assertThat(sorted(ids(later))).isEqualTo(sorted(claimed));
            assertThat(later.messages()).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
            assertThat(store().stats().dead()).isZero();
        }
    }

    @Test
    void failuresCountAttemptsWaitUntilTheRetryTimeAndEndAsDeadLetters() throws Exception {
        UUID id = insert("o1");
        try (Session s = store().open()) {
            Instant now = t0;
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                Claim c = claim(now, 10);
                List<OutboxMessage> claimed = s.claim(c).messages();
                assertThat(claimed).singleElement().satisfies(m -> assertThat(m.id()).isEqualTo(id));
                int delivery = attempt;
                assertThat(claimed.get(0).attempt()).isEqualTo(delivery);
                Instant retryAfter = now.plusSeconds(10);
                List<FailureOutcome> outcomes = s.recordFailures(UUID.randomUUID(), now, MAX_ATTEMPTS,
                        List.of(new Failure(id, retryAfter, "refused")));
                assertThat(outcomes).as("a token that does not hold the row records nothing").isEmpty();
                outcomes = s.recordFailures(c.token(), now, MAX_ATTEMPTS, List.of(new Failure(id, retryAfter, "refused")));
                assertThat(outcomes).singleElement().satisfies(o -> {
                    assertThat(o.id()).isEqualTo(id);
                    assertThat(o.attempts()).isEqualTo(delivery);
                });
                if (attempt < MAX_ATTEMPTS) {
                    assertThat(outcomes.get(0).dead()).isFalse();
                    assertThat(s.claim(claim(retryAfter.minusSeconds(1), 10)).messages()).isEmpty();
                    now = retryAfter;
                } else {
                    assertThat(outcomes.get(0).dead()).isTrue();
                    assertThat(outcomes.get(0).deadAt()).isEqualTo(now);
                }
            }
            assertThat(store().stats()).isEqualTo(new Stats(0, 1, null));
            assertThat(s.claim(claim(now.plus(Duration.ofDays(1)), 10)).messages()).as("a dead letter is never claimed")
                    .isEmpty();
        }
    }

    @Test
    void aDeadLetterRetriedIsDueAgainWithAFreshBudget() throws Exception {
        UUID id = insert("o1");
        UUID live = insert("o2");
        killed(id);
        assertThat(store().retryDeadLetter(live)).as("not a dead letter").isFalse();
        assertThat(store().retryDeadLetter(id)).isTrue();
        assertThat(store().retryDeadLetter(id)).as("no longer a dead letter").isFalse();
        assertThat(store().stats().dead()).isZero();
        try (Session s = store().open()) {
            Claimed again = s.claim(claim(t0, 10));
            assertThat(sorted(ids(again))).isEqualTo(sorted(List.of(id, live)));
            assertThat(again.messages()).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
        }
    }

    @Test
    void deadLettersAreRetriedByEveryFilterGiven() throws Exception {
        UUID created = insert("order", "o1", "order.created", "{}");
        UUID paid = insert("order", "o2", "order.paid", "{}");
        UUID customer = insert("customer", "c1", "order.created", "{}");
        killed(created, paid, customer);
        Instant before = Instant.now().minus(Duration.ofMinutes(10));
        Instant after = Instant.now().plus(Duration.ofMinutes(10));

        assertThat(retry(null, null, null, before.minusSeconds(60), before, null)).as("created before").isZero();
        assertThat(retry(null, null, null, after, null, null)).as("created after").isZero();
        assertThat(retry("order.created", "order", null, before, after, null)).isEqualTo(1);
        assertThat(store().stats().dead()).isEqualTo(2);
        assertThat(retry("order.created", null, null, null, null, null)).isEqualTo(1);
        assertThat(store().retryDeadLetters(DeadLetterFilter.ALL)).isEqualTo(1);
        assertThat(store().stats()).satisfies(st -> {
            assertThat(st.dead()).isZero();
            assertThat(st.pending()).isEqualTo(3);
        });
    }

    /** The aggregate id exactly; a piece of the last error, in any case, taken literally (no wildcards). */
    @Test
    void deadLettersAreRetriedByAggregateIdAndByAPieceOfTheLastError() throws Exception {
        UUID full = insert("order", "o1", "order.created", "{}");
        UUID refused = insert("order", "o10", "order.created", "{}");
        killed("Queue FULL: orders (100% of 50_000)", full);
        killed("refused by the broker", refused);

        assertThat(retry(null, null, "o", null, null, null)).as("an aggregate id is matched whole").isZero();
        assertThat(retry(null, null, null, null, null, "queue_full")).as("_ is no wildcard").isZero();
        assertThat(retry(null, null, null, null, null, "100%")).as("% is no wildcard").isEqualTo(1);
        assertThat(store().stats().dead()).isEqualTo(1);
        assertThat(retry(null, null, "o1", null, null, null)).as("o1 was retried already").isZero();
        assertThat(retry(null, "order", "o10", null, null, "REFUSED")).isEqualTo(1);
        assertThat(store().stats().dead()).isZero();
    }

    private int retry(String eventType, String aggregateType, String aggregateId, Instant from, Instant to,
                      String errorText) throws Exception {
        return store().retryDeadLetters(new DeadLetterFilter(eventType, aggregateType, aggregateId, from, to, errorText));
    }

    /** Makes these rows dead letters the way the relay does: MAX_ATTEMPTS failed publishes. */
    private void killed(UUID... ids) throws Exception {
        killed("refused", ids);
    }

    /** Fails these rows until they are dead letters, each attempt with {@code error}. */
    private void killed(String error, UUID... ids) throws Exception {
        List<UUID> wanted = List.of(ids);
        long deadBefore = store().stats().dead();
        Instant now = t0.minus(Duration.ofHours(1));
        try (Session s = store().open()) {
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                Claim c = claim(now, 100);
                List<UUID> claimed = ids(s.claim(c));
                List<Failure> failures = new ArrayList<>();
                for (UUID id : claimed) {
                    if (wanted.contains(id)) {
                        failures.add(new Failure(id, now, error));
                    }
                }
                s.recordFailures(c.token(), now, MAX_ATTEMPTS, failures);
                s.release(claimed, c.token());
                now = now.plusSeconds(1);
            }
        }
        assertThat(store().stats().dead()).isEqualTo(deadBefore + wanted.size());
    }

    @Test
    void theStatsCountPendingRowsAndDeadLettersAndGiveTheOldestPendingCreationTime() throws Exception {
        assertThat(store().stats()).isEqualTo(new Stats(0, 0, null));
        Instant before = Instant.now().minusSeconds(60);
        UUID dead = insert("o1");
        insertMany(2);
        killed(dead);
        Stats stats = store().stats();
        assertThat(stats.pending()).isEqualTo(2);
        assertThat(stats.dead()).isEqualTo(1);
        assertThat(stats.oldestPendingSince()).isNotNull().isBetween(before, Instant.now().plusSeconds(60));
    }

    /**
     * Cdc mode's gauges (docs/cdc.md, "What replaces pending"): the dead letters and the delayed events as the stats
     * count them, no oldest pending row. The rows kept are PostgreSQL's estimate in the JDBC store (CdcModeIT checks
     * it), so not compared here.
     */
    @Test
    void theCdcStatsCountTheDeadLettersAndTheDelayedEventsAsTheStatsDo() throws Exception {
        UUID dead = insert("o1");
        insertMany(2);
        killed(dead);
        Instant due = Instant.now().truncatedTo(ChronoUnit.MICROS).plus(Duration.ofHours(1));
        insertAt("order", "o9", "order.reminder", "{}", due);
        Stats stats = store().stats();
        Stats cdc = store().cdcStats();
        assertThat(cdc.dead()).isEqualTo(stats.dead()).isEqualTo(1);
        assertThat(cdc.scheduled()).isEqualTo(stats.scheduled()).isEqualTo(1);
        assertThat(cdc.nextDueAt()).isEqualTo(due);
        assertThat(cdc.oldestPendingSince()).isNull();
        store().retryDeadLetters(DeadLetterFilter.ALL);
        assertThat(store().cdcStats().dead()).as("a retried dead letter is no longer counted").isZero();
    }

    @Test
    void aClaimStopsOnceItsRowsHoldMaxBytesOfPayloadButAlwaysTakesOne() throws Exception {
        String payload = "{\"p\":\"" + "x".repeat(100) + "\"}"; // 108 bytes as written, 109 as jsonb prints it
        for (int i = 0; i < 5; i++) {
            insert("order", "o" + i, "order.created", payload);
        }
        try (Session s = store().open()) {
            Claimed three = s.claim(new Claim(UUID.randomUUID(), t0, t0.plus(LEASE), new ClaimLimits(MAX_ATTEMPTS, 10, 250, false)));
            assertThat(three.messages()).hasSize(3);
            assertThat(three.full()).as("stopped at the byte budget").isTrue();
            Claimed one = s.claim(new Claim(UUID.randomUUID(), t0, t0.plus(LEASE), new ClaimLimits(MAX_ATTEMPTS, 10, 10, false)));
            assertThat(one.messages()).as("the first row goes whatever its size").hasSize(1);
        }
    }

    @Test
    void anOrderedClaimTakesOnlyEachAggregatesOldestPendingEvent() throws Exception {
        UUID a1 = insert("order", "a", "order.created", "{}");
        UUID a2 = insert("order", "a", "order.paid", "{}");
        UUID b1 = insert("order", "b", "order.created", "{}");
        insert("order", "b", "order.paid", "{}");
        try (Session s = store().open()) {
            Claim first = claim(t0, 10, true);
            assertThat(sorted(ids(s.claim(first)))).isEqualTo(sorted(List.of(a1, b1)));
            assertThat(s.claim(claim(t0, 10, true)).messages()).as("a1 and b1 are leased, not done").isEmpty();

            assertThat(s.complete(CompletionMode.MARK, List.of(a1), first.token(), t0)).isEqualTo(1);
            assertThat(ids(s.claim(claim(t0, 10, true)))).containsExactly(a2);
            assertThat(s.release(List.of(b1), first.token())).isEqualTo(1);
            assertThat(ids(s.claim(claim(t0, 10, true)))).as("b2 waits for b1").containsExactly(b1);
        }
    }

    @Test
    void cleanupDeletesUpToABatchOfRowsProcessedBeforeTheRetention() throws Exception {
        insertMany(5);
        try (Session s = store().open()) {
            Claim c = claim(t0, 4);
            s.complete(CompletionMode.MARK, ids(s.claim(c)), c.token(), t0);
        }
        Duration retention = Duration.ofHours(1);
        assertThat(store().cleanupBatch(1L, t0.plus(retention).minusSeconds(1), retention, 100))
                .as("processed within the retention").hasValue(0);
        assertThat(store().cleanupBatch(1L, t0.plus(retention).plusSeconds(1), retention, 3)).hasValue(3);
        assertThat(store().cleanupBatch(1L, t0.plus(retention).plusSeconds(1), retention, 3)).hasValue(1);
        assertThat(store().cleanupBatch(1L, t0.plus(retention).plusSeconds(1), retention, 3)).hasValue(0);
        assertThat(store().stats().pending()).as("a pending row is never cleaned up").isEqualTo(1);
    }
}
