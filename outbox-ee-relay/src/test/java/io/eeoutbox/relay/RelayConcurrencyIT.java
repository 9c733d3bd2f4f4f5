package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Several relays over one table, a relay that dies, ordered mode, cleanup: against a real PostgreSQL. */
class RelayConcurrencyIT {

    private TestDatabase.Db db;
    private final List<ScheduledExecutorService> executors = new ArrayList<>();
    private final List<OutboxRelay> relays = new ArrayList<>();

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("relay_conc_it", false);
    }

    @AfterEach
    void tearDown() {
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executors.forEach(ScheduledExecutorService::shutdownNow);
    }

    private OutboxRelay relay(RelayConfig config, io.eeoutbox.spi.Publisher publisher, java.time.Clock clock) {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
        executors.add(executor);
        RelayBuilder b = OutboxRelay.builder().config(config).dataSource(db.dataSource()).executor(executor)
                .clock(clock).publisher(publisher);
        if (clock instanceof MutableClock) {
            b.store(JdbcOutboxStore.withStatementClock(db.dataSource())); // these tests move time
        }
        OutboxRelay r = b.build();
        relays.add(r);
        return r;
    }

    private static Set<UUID> ids(List<OutboxMessage> messages) {
        Set<UUID> ids = new HashSet<>();
        messages.forEach(m -> ids.add(m.id()));
        return ids;
    }

    @Test
    void twoRelaysPublishDisjointRowsThatTogetherAreAll() throws Exception {
        List<UUID> all = RelayIt.writeCommitted(db, 6000, i -> new RelayIt.Event("order", "o" + (i % 100), "order.created"));
        RecordingPublisher a = new RecordingPublisher();
        RecordingPublisher b = new RecordingPublisher();
        relay(RelayIt.config("a").set(RelaySettings.BATCH_SIZE, 50).build(), a, java.time.Clock.systemUTC()).start();
        relay(RelayIt.config("b").set(RelaySettings.BATCH_SIZE, 50).build(), b, java.time.Clock.systemUTC()).start();
        RelayIt.await(Duration.ofSeconds(60), "all rows marked", () -> RelayIt.pending(db) == 0);

        Set<UUID> byA = ids(a.published);
        Set<UUID> byB = ids(b.published);
        assertThat(a.published).hasSize(byA.size());
        assertThat(b.published).hasSize(byB.size());
        assertThat(byA).doesNotContainAnyElementsOf(byB);
        Set<UUID> union = new HashSet<>(byA);
        union.addAll(byB);
        assertThat(union).isEqualTo(new HashSet<>(all));
        assertThat(byA).isNotEmpty();
        assertThat(byB).isNotEmpty();
    }

    @Test
    void aRelayThatDiesMidBatchLosesNothingAndAnotherRepublishesAfterTheLease() throws Exception {
        List<UUID> all = RelayIt.writeCommitted(db, 30, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        MutableClock clock = new MutableClock(Instant.now());
        // The first relay claims a batch and dies before publishing or completing it.
        List<OutboxMessage> stranded;
        try (OutboxStore.Session dying = JdbcOutboxStore.withStatementClock(db.dataSource()).open()) {
            stranded = dying.claim(new OutboxStore.Claim(UUID.randomUUID(), clock.instant(),
                    clock.instant().plus(Duration.ofSeconds(60)), new OutboxStore.ClaimLimits(10, 20, 1 << 20, false))).messages();
        }
        assertThat(stranded).hasSize(20);

        RecordingPublisher survivor = new RecordingPublisher();
        OutboxRelay next = relay(RelayIt.config("survivor").set(RelaySettings.LEASE, Duration.ofSeconds(60)).build(), survivor, clock);
        next.start();
        RelayIt.await(Duration.ofSeconds(10), "the unclaimed rows published and marked",
                () -> survivor.published.size() == 10 && RelayIt.pending(db) == 20);
        assertThat(ids(survivor.published)).doesNotContainAnyElementsOf(ids(stranded));

        clock.advance(Duration.ofSeconds(61)); // the dead relay's lease runs out
        next.runNow();
        RelayIt.await(Duration.ofSeconds(10), "the stranded rows published", () -> RelayIt.pending(db) == 0);
        assertThat(ids(survivor.published)).isEqualTo(new HashSet<>(all));
        assertThat(survivor.published).hasSize(30);
    }

    @Test
    void orderedModeKeepsEachAggregatesOrderWithTwoRelaysAndFailures() throws Exception {
        int aggregates = 20;
        int perAggregate = 15;
        List<UUID> ids = RelayIt.writeCommitted(db, aggregates * perAggregate,
                i -> new RelayIt.Event("order", "o" + (i % aggregates), "order.e" + (i / aggregates)));
        // what the broker accepted, in the order it accepted it, across both relays
        List<OutboxMessage> accepted = Collections.synchronizedList(new ArrayList<>());
        class FlakyPublisher extends RecordingPublisher {
            @Override
            public void publish(OutboxMessage message) {
                if (message.seq() % 7 == 0 && message.attempt() == 1) {
                    throw new IllegalStateException("injected failure");
                }
                accepted.add(message);
            }
        }
        RelayConfig ordered = RelayIt.config("x").set(RelaySettings.ORDERED, true).set(RelaySettings.BATCH_SIZE, 10).build();
        relay(ordered.toBuilder().set(RelaySettings.NAME, "ordered-a").build(), new FlakyPublisher(), java.time.Clock.systemUTC()).start();
        relay(ordered.toBuilder().set(RelaySettings.NAME, "ordered-b").build(), new FlakyPublisher(), java.time.Clock.systemUTC()).start();
        RelayIt.await(Duration.ofSeconds(60), "all rows marked", () -> RelayIt.pending(db) == 0);

        Map<String, List<Long>> seqsByAggregate = new HashMap<>();
        synchronized (accepted) {
            for (OutboxMessage m : accepted) {
                seqsByAggregate.computeIfAbsent(m.aggregateId(), k -> new ArrayList<>()).add(m.seq());
            }
        }
        assertThat(accepted).hasSize(ids.size());
        assertThat(seqsByAggregate).hasSize(aggregates);
        seqsByAggregate.forEach((aggregate, seqs) -> assertThat(seqs).as(aggregate).isSorted().doesNotHaveDuplicates()
                .hasSize(perAggregate));
        assertThat(accepted).anyMatch(m -> m.attempt() == 2); // the injected failures did happen
    }

    @Test
    void cleanupRemovesOnlyProcessedRowsOlderThanTheRetention() throws Exception {
        Instant now = Instant.now();
        MutableClock clock = new MutableClock(now.minus(Duration.ofDays(10)));
        RecordingPublisher publisher = new RecordingPublisher();
        OutboxRelay r = relay(RelayIt.config("cleaner").set(RelaySettings.CLEANUP_BATCH_SIZE, 7).build(), publisher, clock);
        r.start();
        RelayIt.writeCommitted(db, 25, i -> new RelayIt.Event("order", "old" + i, "order.created"));
        r.runNow();
        RelayIt.await(Duration.ofSeconds(10), "old rows published", () -> RelayIt.pending(db) == 0);
        clock.set(now.minus(Duration.ofDays(2)));
        RelayIt.writeCommitted(db, 5, i -> new RelayIt.Event("order", "recent" + i, "order.created"));
        r.runNow();
        RelayIt.await(Duration.ofSeconds(10), "recent rows published", () -> RelayIt.pending(db) == 0);
        r.pause();
        RelayIt.writeCommitted(db, 3, i -> new RelayIt.Event("order", "pending" + i, "order.created"));
        clock.set(now);

        // While another relay holds the maintenance lock, this one deletes nothing.
        try (Connection other = db.connect()) {
            other.setAutoCommit(false);
            assertThat(new OutboxEventJdbc(other).tryOutboxMaintenanceLock(OutboxCleaner.LOCK_KEY)).contains(true);
            new RelayOperations(r).cleanUpNow();
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events")).isEqualTo(33);
            other.rollback();
        }

        assertThat(new RelayOperations(r).purgeProcessedOlderThan(Duration.ofDays(7))).isEqualTo(25);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events")).isEqualTo(8);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id LIKE 'old%'")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL")).isEqualTo(5);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL")).isEqualTo(3);
    }

    @Test
    void theScheduledCleanupRunsByItself() throws Exception {
        MutableClock clock = new MutableClock(Instant.now().minus(Duration.ofDays(8)));
        OutboxRelay r = relay(RelayIt.config("scheduled-cleaner").set(RelaySettings.CLEANUP_INTERVAL, Duration.ofMillis(200)).build(),
                new RecordingPublisher(), clock);
        RelayIt.writeCommitted(db, 12, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        r.start();
        RelayIt.await(Duration.ofSeconds(10), "rows published", () -> RelayIt.pending(db) == 0);
        clock.set(Instant.now());
        RelayIt.await(Duration.ofSeconds(10), "processed rows cleaned up",
                () -> db.queryLong("SELECT count(*) FROM outbox_events") == 0);
    }

    @Test
    void deleteOnPublishKeepsNoRows() throws Exception {
        RelayIt.writeCommitted(db, 1500, i -> new RelayIt.Event("order", "o" + i, "order.created"));
        RecordingPublisher publisher = new RecordingPublisher();
        relay(RelayIt.config("deleter").set(RelaySettings.BATCH_SIZE, 500).set(RelaySettings.COMPLETION, CompletionMode.DELETE).build(), publisher,
                java.time.Clock.systemUTC()).start();
        RelayIt.await(Duration.ofSeconds(30), "table empty", () -> db.queryLong("SELECT count(*) FROM outbox_events") == 0);
        assertThat(ids(publisher.published)).hasSize(1500);
    }
}
