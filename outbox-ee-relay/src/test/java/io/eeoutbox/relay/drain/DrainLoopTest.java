package io.eeoutbox.relay.drain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.RecordingPublisher;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.FakeOutboxStore;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.RelayListener;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The drain's decisions, against an in-memory store with a fixed clock: no database, no sleeps. */
class DrainLoopTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private final MutableClock clock = new MutableClock(T0);
    private final FakeOutboxStore store = new FakeOutboxStore();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final RelayCounters counters = new RelayCounters();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final RelayListener listener = new RelayListener() {
        @Override
        public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
            events.add("failed " + message.eventType() + " attempt=" + message.attempt() + " retryAfter=" + retryAfter);
        }

        @Override
        public void deadLettered(OutboxMessage message, Throwable cause) {
            events.add("dead " + message.eventType());
        }

        @Override
        public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
            events.add("batch " + claimed + "/" + published + "/" + failed);
        }
    };

    /** Backoff without jitter: 1 s, 2 s, 4 s ... */
    private static final BackoffPolicy BACKOFF = BackoffPolicy.exponential(Duration.ofSeconds(1), 2.0,
            Duration.ofMinutes(5), 0.0, () -> 0.5);

    private DrainLoop loop(RelayConfig config) {
        return DrainLoop.builder().store(store).publisher(publisher).listener(listener).backoff(BACKOFF).config(config).clock(clock).counters(counters).mayClaim(() -> !stopping.get()).stopping(stopping::get).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).build();
    }

    private static RelayConfig config(int batchSize) {
        return RelayConfig.builder().set(RelaySettings.NAME, "test").set(RelaySettings.BATCH_SIZE, batchSize).set(RelaySettings.MAX_ATTEMPTS, 3).build();
    }

    @Test
    void theBatchBeingPublishedShowsItsLeaseEndUntilThePublishReturns() throws Exception {
        store.insert("order", "o1", "order.created");
        List<Duration> seen = new ArrayList<>();
        RelayConfig config = config(10);
        LongSupplier nanos = () -> clock.instant().toEpochMilli() * 1_000_000L;
        DrainLoop loop = DrainLoop.builder().store(store)
                .publisher(m -> seen.add(counters.publishingLeft(nanos.getAsLong())))
                .listener(listener).backoff(BACKOFF).config(config).clock(clock).counters(counters)
                .mayClaim(() -> !stopping.get()).stopping(stopping::get)
                .nanoTime(nanos).build();
        assertThat(counters.publishingLeft(nanos.getAsLong())).isNull();
        loop.drain();
        assertThat(seen).as("while publishing: what is left of the claim's lease").containsExactly(config.lease());
        assertThat(counters.publishingLeft(nanos.getAsLong())).as("after the publish").isNull();
    }

    @Test
    void publishesEverythingInWriteOrderAndCompletesEachBatchInOneStatement() throws Exception {
        for (int i = 0; i < 25; i++) {
            store.insert("order", "o" + (i % 4), "order.created");
        }
        int claimed = loop(config(10)).drain();

        assertThat(claimed).isEqualTo(25);
        assertThat(publisher.published).extracting(OutboxMessage::seq)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 25).boxed().toList());
        assertThat(publisher.calls).extracting(List::size).containsExactly(10, 10, 5);
        assertThat(store.calls).containsExactly("open", "claim", "complete:MARK:10", "claim", "complete:MARK:10",
                "claim", "complete:MARK:5", "close");
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(25);
        assertThat(publisher.published).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
        assertThat(counters.snapshot().published()).isEqualTo(25);
    }

    @Test
    void aBatchCutByTheByteBudgetIsFullSoTheDrainGoesOnAndABigEventGoesAlone() throws Exception {
        String kib = "{\"pad\":\"" + "x".repeat(1010) + "\"}"; // 1,020 bytes
        for (int i = 0; i < 7; i++) {
            store.insert("order", "o" + i, "order.created").payload = kib;
        }
        store.insert("order", "big", "order.created").payload = "{\"pad\":\"" + "y".repeat(5000) + "\"}";
        store.insert("order", "last", "order.created");
        RelayConfig config = RelayConfig.builder().set(RelaySettings.NAME, "test").set(RelaySettings.BATCH_SIZE, 100).set(RelaySettings.BATCH_MAX_BYTES, 2048).set(RelaySettings.MAX_ATTEMPTS, 3).build();

        int claimed = loop(config).drain();

        assertThat(claimed).isEqualTo(9);
        // 2,048 bytes: two rows of 1,020 (2,040) leave room for a third, which crosses the budget.
        assertThat(publisher.calls).extracting(List::size).containsExactly(3, 3, 2, 1);
        assertThat(publisher.calls.get(2)).extracting(OutboxMessage::aggregateId).containsExactly("o6", "big");
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(9);
    }

    private DrainLoop fusedLoop(RelayConfig config) {
        return DrainLoop.builder().store(store).publisher(publisher).listener(listener).backoff(BACKOFF).config(config).clock(clock).counters(counters).mayClaim(() -> !stopping.get()).stopping(stopping::get).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).fused(true).build();
    }

    @Test
    void fusedEachFullBatchIsCompletedByTheNextClaimAndTheLastOneByItself() throws Exception {
        for (int i = 0; i < 25; i++) {
            store.insert("order", "o" + (i % 4), "order.created");
        }
        int claimed = fusedLoop(config(10)).drain();

        assertThat(claimed).isEqualTo(25);
        assertThat(publisher.published).extracting(OutboxMessage::seq)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 25).boxed().toList());
        assertThat(store.calls).containsExactly("open", "claim", "complete+claim:MARK:10", "complete+claim:MARK:10",
                "complete:MARK:5", "close");
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(25);
        assertThat(store.count(r -> r.claimToken != null)).isZero();
        assertThat(events).containsExactly("batch 10/10/0", "batch 10/10/0", "batch 5/5/0");
        assertThat(counters.snapshot().published()).isEqualTo(25);
    }

    @Test
    void fusedABatchWithFailuresIsCompletedAtOnceAsBefore() throws Exception {
        for (int i = 0; i < 20; i++) {
            store.insert("order", "o" + i, i == 3 ? "order.poison" : "order.created");
        }
        publisher.failing(m -> m.eventType().equals("order.poison"));
        fusedLoop(config(10)).drain();

        // The first batch had a failure: completed at once. The second was full and published whole: the
        // next claim completes it (and finds nothing due).
        assertThat(store.calls).containsExactly("open", "claim", "complete:MARK:9", "fail:1", "claim",
                "complete+claim:MARK:10", "close");
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(19);
        assertThat(store.count(r -> r.attempts == 1)).isEqualTo(1);
    }

    @Test
    void fusedWhenTheCombinedStepFailsTheBatchStaysLeasedAndIsNotReportedDone() throws Exception {
        for (int i = 0; i < 20; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        DrainLoop loop = fusedLoop(config(10));
        // open and the first claim succeed; the combined step after the first publish fails.
        publisher.beforeBatch(b -> store.failNextStatements.set(1));
        assertThatThrownBy(loop::drain).isInstanceOf(SQLException.class);

        assertThat(store.calls).containsExactly("open", "claim", "complete+claim:MARK:10", "close");
        assertThat(store.count(r -> r.processedAt != null)).isZero();
        assertThat(store.count(r -> r.claimToken != null)).isEqualTo(10); // leased until the lease runs out
        assertThat(events).isEmpty();
    }

    @Test
    void aFullLastBatchIsFollowedByOneEmptyClaim() throws Exception {
        for (int i = 0; i < 10; i++) {
            store.insert("order", "o", "order.created");
        }
        loop(config(10)).drain();
        assertThat(store.calls).containsExactly("open", "claim", "complete:MARK:10", "claim", "close");
    }

    @Test
    void deleteModeDeletesPublishedRows() throws Exception {
        store.insert("order", "o1", "order.created");
        loop(config(10).toBuilder().set(RelaySettings.COMPLETION, CompletionMode.DELETE).build()).drain();
        assertThat(store.calls).contains("complete:DELETE:1");
        assertThat(store.count(r -> r.deleted)).isEqualTo(1);
    }

    @Test
    void failuresAreRecordedInOneStatementWithBackoffAndTheRestGoesOn() throws Exception {
        for (int i = 0; i < 6; i++) {
            store.insert("order", "o" + i, i % 3 == 0 ? "order.poison" : "order.created");
        }
        publisher.failing(m -> m.eventType().equals("order.poison"));
        loop(config(10)).drain();

        assertThat(store.calls).containsExactly("open", "claim", "complete:MARK:4", "fail:2", "close");
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(4);
        assertThat(store.count(r -> r.attempts == 1 && r.retryAfter.equals(T0.plusSeconds(1)))).isEqualTo(2);
        assertThat(store.rows.values()).filteredOn(r -> r.attempts == 1)
                .allSatisfy(r -> assertThat(r.lastError).isEqualTo("java.lang.IllegalStateException: rejected order.poison"));
        assertThat(events).contains("batch 6/4/2");
    }

    @Test
    void aPoisonEventBecomesADeadLetterAfterMaxAttemptsWhileHealthyEventsFlow() throws Exception {
        store.insert("order", "bad", "order.poison");
        publisher.failing(m -> m.eventType().equals("order.poison"));
        DrainLoop loop = loop(config(10));
        for (int attempt = 1; attempt <= 3; attempt++) {
            store.insert("order", "good" + attempt, "order.created");
            loop.drain();
            clock.advance(Duration.ofMinutes(10)); // past any backoff
        }
        store.insert("order", "good4", "order.created");
        loop.drain();

        assertThat(events).filteredOn(e -> e.startsWith("failed")).containsExactly(
                "failed order.poison attempt=1 retryAfter=" + T0.plusSeconds(1),
                "failed order.poison attempt=2 retryAfter=" + T0.plus(Duration.ofMinutes(10)).plusSeconds(2),
                "failed order.poison attempt=3 retryAfter=" + T0.plus(Duration.ofMinutes(20)).plusSeconds(4));
        assertThat(events).filteredOn(e -> e.startsWith("dead")).containsExactly("dead order.poison");
        assertThat(publisher.published).extracting(OutboxMessage::aggregateId)
                .containsExactly("good1", "good2", "good3", "good4");
        assertThat(store.count(r -> r.deadAt != null)).isEqualTo(1);
        assertThat(counters.snapshot().deadLettered()).isEqualTo(1);
        assertThat(counters.snapshot().failed()).isEqualTo(3);
    }

    @Test
    void aRowWaitsForItsBackoffBeforeTheNextAttempt() throws Exception {
        FakeOutboxStore.Row row = store.insert("order", "o", "order.created");
        publisher.failing(m -> true);
        DrainLoop loop = loop(config(10));
        loop.drain();
        clock.advance(Duration.ofMillis(999));
        loop.drain();
        assertThat(row.attempts).isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        loop.drain();
        assertThat(row.attempts).isEqualTo(2);
    }

    @Test
    void stoppingBeforePublishingReleasesTheWholeClaim() throws Exception {
        for (int i = 0; i < 5; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        DrainLoop loop = loop(config(10));
        try (OutboxStore.Session s = store.open()) {
            stopping.set(true);
            BatchOutcome outcome = loop.runBatch(s);
            assertThat(outcome.released()).isEqualTo(5);
        }
        assertThat(publisher.calls).isEmpty();
        assertThat(store.calls).contains("release:5").noneMatch(c -> c.startsWith("complete"));
        assertThat(store.count(r -> r.claimToken == null && r.processedAt == null)).isEqualTo(5);
    }

    @Test
    void stoppingDuringPublishCompletesWhatWasPublishedAndReleasesTheRest() throws Exception {
        for (int i = 0; i < 200; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        // lease 10 s: publishing may start until claim + 8 s; the publisher needs 100 ms per message
        RelayConfig config = config(100).toBuilder().set(RelaySettings.LEASE, Duration.ofSeconds(10)).build();
        publisher.beforeBatch(batch -> clock.advance(Duration.ofMillis(100L * batch.size())));
        DrainLoop loop = loop(config);
        try (OutboxStore.Session s = store.open()) {
            loop.runBatch(s); // learns the publisher's speed
        }
        publisher.beforeBatch(batch -> {
            clock.advance(Duration.ofMillis(100L * batch.size()));
            stopping.set(true); // the server stops while this chunk is being sent
        });
        BatchOutcome outcome;
        try (OutboxStore.Session s = store.open()) {
            outcome = loop.runBatch(s);
        }
        assertThat(publisher.calls).extracting(List::size).containsExactly(100, 80);
        assertThat(outcome.published()).isEqualTo(80);
        assertThat(outcome.released()).isEqualTo(20);
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(180);
        assertThat(store.count(r -> r.claimToken != null)).isZero();
    }

    @Test
    void whatWouldOutliveTheLeaseIsReleasedNotPublished() throws Exception {
        for (int i = 0; i < 200; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        RelayConfig config = config(100).toBuilder().set(RelaySettings.LEASE, Duration.ofSeconds(10)).build(); // deadline: claim + 8 s
        publisher.beforeBatch(batch -> clock.advance(Duration.ofMillis(50L * batch.size())));
        DrainLoop loop = loop(config);
        BatchOutcome first;
        BatchOutcome second;
        try (OutboxStore.Session s = store.open()) {
            first = loop.runBatch(s);   // no estimate yet: one call of 100 (5 s, within the lease)
            second = loop.runBatch(s);  // 50 ms per message: 8 s fit 160, so all 100 go
        }
        assertThat(first.published()).isEqualTo(100);
        assertThat(second.published()).isEqualTo(100);

        for (int i = 0; i < 200; i++) {
            store.insert("order", "p" + i, "order.created");
        }
        publisher.beforeBatch(batch -> clock.advance(Duration.ofMillis(200L * batch.size()))); // broker slows down
        try (OutboxStore.Session s = store.open()) {
            BatchOutcome slow = loop.runBatch(s); // the estimate did not know yet: one call
            assertThat(slow.published()).isEqualTo(100);
            BatchOutcome next = loop.runBatch(s); // now it does: only what fits goes
            assertThat(next.published()).isBetween(1, 99);
            assertThat(next.published() + next.released()).isEqualTo(100);
            assertThat(next.cutShort()).isTrue();
        }
        assertThat(store.count(r -> r.claimToken != null)).isZero();
        assertThat(store.count(r -> r.processedAt == null)).isPositive();
    }

    @Test
    void orderedModePublishesOneEventPerAggregateAndAFailureHoldsBackOnlyItsAggregate() throws Exception {
        store.insert("order", "A", "a1");
        store.insert("order", "B", "b1");
        store.insert("order", "A", "a2");
        store.insert("order", "B", "b2");
        store.insert("order", "A", "a3");
        publisher.failing(m -> m.eventType().equals("a2") && m.attempt() == 1);
        DrainLoop loop = loop(config(10).toBuilder().set(RelaySettings.ORDERED, true).build());

        // a1 and b1; then a2 fails (attempt 1) and b2 goes; then a2 waits for its backoff, a3 for a2: nothing
        loop.drain();
        assertThat(publisher.calls).hasSize(2);
        assertThat(publisher.calls.get(0)).extracting(OutboxMessage::eventType).containsExactly("a1", "b1");
        loop.drain();
        assertThat(publisher.published).extracting(OutboxMessage::eventType).containsExactly("a1", "b1", "b2");
        clock.advance(Duration.ofSeconds(2));
        loop.drain();
        loop.drain();
        assertThat(publisher.published).extracting(OutboxMessage::eventType).containsExactly("a1", "b1", "b2", "a2", "a3");
        assertThat(publisher.calls).allSatisfy(batch -> assertThat(batch).extracting(OutboxMessage::aggregateId)
                .doesNotHaveDuplicates());
    }

    /**
     * The stall of issue 29: each aggregate's events next to each other in seq. A claim takes every aggregate's
     * head; their next events lie below where the following claim started, and become due only when the heads
     * are completed. Half a second passes per batch (a broker), so the claim floor moves up meanwhile.
     */
    @ParameterizedTest(name = "{0} aggregates x {1} events, batch size {2}")
    @org.junit.jupiter.params.provider.CsvSource({"5, 4, 5", "5, 4, 3", "1, 6, 5", "4, 3, 100"})
    void orderedModeDrainsAGroupedBacklogInOneDrain(int aggregates, int perAggregate, int batchSize) throws Exception {
        for (int a = 0; a < aggregates; a++) {
            for (int e = 0; e < perAggregate; e++) {
                store.insert("account", "A" + a, "A" + a + "-" + e);
            }
        }
        publisher.beforeBatch(batch -> clock.advance(Duration.ofMillis(500)));
        DrainLoop loop = loop(config(batchSize).toBuilder().set(RelaySettings.ORDERED, true).build());

        int claimed = loop.drain();

        assertThat(claimed).as("one drain claims the whole backlog: no event waits for the next poll")
                .isEqualTo(aggregates * perAggregate);
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo((long) aggregates * perAggregate);
        for (int a = 0; a < aggregates; a++) {
            String aggregate = "A" + a;
            assertThat(publisher.published).filteredOn(m -> m.aggregateId().equals(aggregate))
                    .extracting(OutboxMessage::eventType).as("aggregate %s in write order", aggregate)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, perAggregate)
                            .mapToObj(e -> aggregate + "-" + e).toList());
        }
        assertThat(publisher.calls).allSatisfy(batch -> assertThat(batch).extracting(OutboxMessage::aggregateId)
                .doesNotHaveDuplicates());
    }

    /**
     * Decision 0017: with a store that takes the completed aggregates' next events itself (V11), a hot aggregate among
     * others drains in one drain and in write order, whichever route completes its batches.
     */
    @ParameterizedTest(name = "completed with the next claim: {0}")
    @ValueSource(booleans = {true, false})
    void orderedModeDrainsAHotAggregateInOneDrainInWriteOrder(boolean fused) throws Exception {
        for (int i = 0; i < 60; i++) {
            store.insert("account", i % 3 == 0 ? "hot" : "A" + i, "e" + i);
        }
        publisher.beforeBatch(batch -> clock.advance(Duration.ofMillis(1)));
        RelayConfig config = config(8).toBuilder().set(RelaySettings.ORDERED, true).build();
        DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).backoff(BACKOFF).config(config)
                .clock(clock).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).fused(fused).build();

        assertThat(loop.drain()).as("one drain: no event waits for a poll").isEqualTo(60);

        assertThat(publisher.published).filteredOn(m -> m.aggregateId().equals("hot"))
                .extracting(OutboxMessage::eventType)
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(i -> "e" + 3 * i).toList());
        assertThat(publisher.calls).allSatisfy(batch -> assertThat(batch).extracting(OutboxMessage::aggregateId)
                .doesNotHaveDuplicates());
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(60);
    }

    @ParameterizedTest(name = "completed with the next claim: {0}")
    @ValueSource(booleans = {true, false})
    void orderedModeStopsAfterAClaimThatFindsNothing(boolean fused) throws Exception {
        store.insert("order", "A", "a1");
        RelayConfig config = config(10).toBuilder().set(RelaySettings.ORDERED, true).build();
        DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).backoff(BACKOFF).config(config)
                .clock(clock).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).fused(fused).build();

        assertThat(loop.drain()).isEqualTo(1);

        assertThat(store.calls).as("a claim, then one look for a2 that finds nothing and ends the drain")
                .filteredOn(c -> !c.equals("open") && !c.equals("close"))
                .containsExactlyElementsOf(fused ? List.of("claim", "complete+claim:MARK:1")
                        : List.of("claim", "complete:MARK:1", "claim"));
    }

    @Test
    void aRowReclaimedByAnotherRelayIsNotCountedAsOurs() throws Exception {
        store.insert("order", "o", "order.created");
        publisher.beforeBatch(batch -> {
            // our lease expired while we were publishing, and another relay took the row
            store.row(batch.get(0).id()).claimToken = java.util.UUID.randomUUID();
        });
        loop(config(10)).drain();
        assertThat(store.count(r -> r.processedAt != null)).isZero();
        assertThat(publisher.published).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"IllegalStateException", "NoClassDefFoundError"})
    void aPublisherThatThrowsFailsItsWholeCallAndCountsAnAttempt(String thrown) throws Exception {
        // an Error too (a class missing from the broker's client library): the rows must not stay claimed, uncounted
        store.insert("order", "o1", "order.created");
        store.insert("order", "o2", "order.created");
        publisher.beforeBatch(batch -> {
            if (thrown.equals("NoClassDefFoundError")) {
                throw new NoClassDefFoundError("org/example/BrokerClient");
            }
            throw new IllegalStateException("publisher bug");
        });
        loop(config(10)).drain();
        assertThat(store.count(r -> r.attempts == 1 && r.lastError != null && r.lastError.contains(thrown))).isEqualTo(2);
        assertThat(store.calls).contains("fail:2");
    }

    @Test
    void anOutOfMemoryErrorInThePublisherEndsTheDrain() {
        store.insert("order", "o1", "order.created");
        publisher.beforeBatch(batch -> {
            throw new OutOfMemoryError("test");
        });
        assertThatThrownBy(() -> loop(config(10)).drain()).isInstanceOf(OutOfMemoryError.class);
        assertThat(store.count(r -> r.attempts == 0 && r.processedAt == null)).isEqualTo(1);
    }

    @Test
    void pipelinedCompletionPublishesAndCompletesEverything() throws Exception {
        for (int i = 0; i < 95; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        java.util.concurrent.ExecutorService completions = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).listener(listener).backoff(BACKOFF).config(config(10)).clock(clock).counters(counters).mayClaim(() -> true).stopping(() -> false).nanoTime(System::nanoTime).completionExecutor(completions).build();
            assertThat(loop.drain()).isEqualTo(95);
        } finally {
            completions.shutdownNow();
        }
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(95);
        assertThat(store.calls).filteredOn(c -> c.equals("open")).hasSize(2); // claims and completions
        assertThat(events).filteredOn(e -> e.startsWith("batch")).hasSize(10);
    }

    @Test
    void aCompletionTheExecutorNeverStartsIsRunByTheDrainItself() throws Exception {
        for (int i = 0; i < 25; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        java.util.concurrent.Executor stuck = task -> { }; // accepts and never runs
        DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).listener(listener).backoff(BACKOFF).config(config(10)).clock(clock).counters(counters).mayClaim(() -> true).stopping(() -> false).nanoTime(System::nanoTime).completionExecutor(stuck).build();
        assertThat(loop.drain()).isEqualTo(25);
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(25);
    }

    @Test
    void aFailedPipelinedCompletionEndsTheDrainWithItsError() throws Exception {
        for (int i = 0; i < 30; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        publisher.beforeBatch(batch -> store.failNextStatements.set(1)); // the completion after this publish fails
        DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).listener(listener).backoff(BACKOFF).config(config(10)).clock(clock).counters(counters).mayClaim(() -> true).stopping(() -> false).nanoTime(System::nanoTime).completionExecutor(Runnable::run).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(loop::drain).isInstanceOf(java.sql.SQLException.class);
        assertThat(store.count(r -> r.claimToken != null)).isPositive(); // left leased: another relay takes them later
    }

    @Test
    void aBrokerOutageDefersRowsWithoutCountingAttemptsSoItCreatesNoDeadLetters() throws Exception {
        for (int i = 0; i < 4; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        AtomicBoolean brokerUp = new AtomicBoolean(false);
        io.eeoutbox.spi.Publisher outage = outagePublisher(brokerUp, new ArrayList<>());
        DrainLoop loop = DrainLoop.builder().store(store).publisher(outage).listener(listener).backoff(BACKOFF).config(config(10)).clock(clock).counters(counters).mayClaim(() -> !stopping.get()).stopping(stopping::get).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).build();

        // Far more rounds than max-attempts (3): an outage never makes dead letters.
        List<Duration> waits = new ArrayList<>();
        for (int round = 0; round < 7; round++) {
            assertThat(loop.drain()).isEqualTo(4);
            Instant retryAfter = store.rows.values().iterator().next().retryAfter;
            waits.add(Duration.between(clock.instant(), retryAfter));
            assertThat(loop.drain()).as("deferred rows are not due before their retry_after").isZero();
            clock.set(retryAfter);
        }
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(8), Duration.ofSeconds(16), Duration.ofSeconds(16), Duration.ofSeconds(16));
        assertThat(store.count(r -> r.attempts > 0)).isZero();
        assertThat(store.count(r -> r.deadAt != null)).isZero();
        assertThat(store.rows.values()).allSatisfy(r -> assertThat(r.lastError).contains("connection refused"));
        assertThat(events).filteredOn(e -> e.startsWith("failed")).hasSize(7 * 4);

        brokerUp.set(true);
        assertThat(loop.drain()).isEqualTo(4);
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(4);
        assertThat(publisher.published).extracting(OutboxMessage::attempt).containsOnly(1);
    }

    @Test
    void duringABrokerOutageOneBatchIsTriedAndTheRelayHoldsOffUntilItsRetryTime() throws Exception {
        for (int i = 0; i < 50; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        AtomicBoolean brokerUp = new AtomicBoolean(false);
        List<Integer> batchesTried = Collections.synchronizedList(new ArrayList<>());
        io.eeoutbox.spi.Publisher outage = outagePublisher(brokerUp, batchesTried);
        DrainLoop loop = DrainLoop.builder().store(store).publisher(outage).listener(listener).backoff(BACKOFF).config(config(10)).clock(clock).counters(counters).mayClaim(() -> !stopping.get()).stopping(stopping::get).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L).build();

        // A full batch fails as "broker unavailable": the drain stops there instead of claiming
        // (and deferring) the other 40 rows one batch after another.
        assertThat(loop.drain()).isEqualTo(10);
        assertThat(batchesTried).containsExactly(10);
        assertThat(store.count(r -> r.retryAfter != null)).isEqualTo(10);
        assertThat(loop.holdsForBroker()).isTrue();
        assertThat(loop.brokerHoldLeft()).as("until the deferral's retry time").isEqualTo(Duration.ofSeconds(1));

        clock.set(clock.instant().plusSeconds(1));
        assertThat(loop.holdsForBroker()).isFalse();
        brokerUp.set(true);
        assertThat(loop.drain()).isEqualTo(50);
        assertThat(loop.holdsForBroker()).as("a successful publish ends the outage").isFalse();
        assertThat(store.count(r -> r.processedAt != null)).isEqualTo(50);
    }

    @ParameterizedTest(name = "completed with the next claim: {0}")
    @ValueSource(booleans = {true, false})
    void aListenerThatThrowsAnErrorDoesNotKeepPublishedRowsFromBeingMarked(boolean fused) throws Exception {
        for (int i = 0; i < 25; i++) {
            store.insert("order", "o" + i, "order.created");
        }
        RelayListener throwing = new RelayListener() {
            @Override
            public void published(OutboxMessage message) {
                throw new NoClassDefFoundError("io/metrics/Counter"); // a metrics sink missing a class
            }

            @Override
            public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
                throw new AssertionError("a test latch's assertion");
            }
        };
        DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).listener(throwing).backoff(BACKOFF)
                .config(config(10)).clock(clock).nanoTime(() -> clock.instant().toEpochMilli() * 1_000_000L)
                .fused(fused).build();

        assertThat(loop.drain()).isEqualTo(25);

        assertThat(store.count(r -> r.processedAt != null)).as("every published row marked").isEqualTo(25);
        assertThat(store.count(r -> r.claimToken != null)).as("none left leased, to be published again").isZero();
        assertThat(publisher.published).hasSize(25);
    }

    @Test
    void aWallClockSteppedBackDoesNotStretchTheBrokerHold() throws Exception {
        store.insert("order", "o1", "order.created");
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong(-5_000_000_000L);
        AtomicBoolean brokerUp = new AtomicBoolean(false);
        DrainLoop loop = DrainLoop.builder().store(store).publisher(outagePublisher(brokerUp, new ArrayList<>()))
                .backoff(BACKOFF).config(config(10)).clock(clock).nanoTime(nanos::get).build();
        loop.drain();
        assertThat(loop.brokerHoldLeft()).isEqualTo(Duration.ofSeconds(1));

        clock.set(clock.instant().minus(Duration.ofHours(1))); // an NTP correction mid-hold
        nanos.addAndGet(999_000_000L);
        assertThat(loop.brokerHoldLeft()).isEqualTo(Duration.ofMillis(1));
        nanos.addAndGet(1_000_000L);
        assertThat(loop.holdsForBroker()).as("the hold ends one second on, whatever the wall clock says").isFalse();
    }

    @Test
    void aWallClockSteppedBackMidPublishDoesNotLetThePublishOutliveItsLease() throws Exception {
        // Each publish call takes 30 s while the wall clock is stepped back 30 s: by the wall clock no time passes.
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        List<Long> callsStartedAt = Collections.synchronizedList(new ArrayList<>());
        publisher.beforeBatch(batch -> {
            callsStartedAt.add(nanos.get());
            nanos.addAndGet(Duration.ofSeconds(30).toNanos());
            clock.set(clock.instant().minusSeconds(30));
        });
        RelayConfig config = config(10); // lease PT60S: publishing may start until 48 s after the claim
        DrainLoop loop = DrainLoop.builder().store(store).publisher(publisher).backoff(BACKOFF).config(config)
                .clock(clock).nanoTime(nanos::get).build();
        store.insert("order", "o0", "order.created");
        store.insert("order", "o1", "order.created");
        loop.drain(); // the budget learns: 15 s a message
        callsStartedAt.clear();
        for (int i = 0; i < 10; i++) {
            store.insert("order", "p" + i, "order.created");
        }
        long claimedAt = nanos.get();

        loop.drain();

        assertThat(callsStartedAt).as("no publish call starts past the lease's safety margin (monotonic time)")
                .allSatisfy(t -> assertThat(t - claimedAt).isLessThan(Duration.ofSeconds(48).toNanos()));
        assertThat(publisher.published).hasSizeLessThan(12);
        assertThat(store.count(r -> r.processedAt == null && r.claimToken == null))
                .as("the rest released for the next claim").isEqualTo(12L - publisher.published.size());
    }

    /**
     * A publisher behind a broker that is down until {@code brokerUp}: every message fails as "broker
     * unavailable"; each batch's size is added to {@code batchesTried}. Once up, it records into {@link #publisher}.
     */
    private io.eeoutbox.spi.Publisher outagePublisher(AtomicBoolean brokerUp, List<Integer> batchesTried) {
        return new io.eeoutbox.spi.Publisher() {
            @Override
            public io.eeoutbox.spi.PublishResult publishAll(List<OutboxMessage> batch) {
                batchesTried.add(batch.size());
                return io.eeoutbox.spi.Publisher.super.publishAll(batch);
            }

            @Override
            public void publish(OutboxMessage message) throws Exception {
                if (!brokerUp.get()) {
                    throw new io.eeoutbox.spi.BrokerUnavailableException("connection refused",
                            new java.net.ConnectException("connection refused"));
                }
                publisher.publish(message);
            }
        };
    }
}
