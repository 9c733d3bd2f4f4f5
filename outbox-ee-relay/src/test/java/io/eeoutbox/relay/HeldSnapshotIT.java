package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A held snapshot (issue 17, item 7): a session sits idle in a REPEATABLE READ transaction while producers
 * write at a steady rate, so vacuum can remove nothing that was published meanwhile. A claim that started at
 * the head of the pending index would walk all those rows' index entries every time, and each claim would
 * get slower the longer the hold lasts; the relay's claims start at a moving lower bound instead
 * ({@link ClaimFloor}). Prints claim time (p50, p95, max) and drain rate before, during and after the hold.
 *
 * <p>Settings (system properties): {@code held-snapshot.hold} (default PT60S in the test command; PT5M with
 * {@code -Dfault.size=soak}), {@code held-snapshot.rate} (events/s, default 1000: half of what one producer
 * thread here writes), {@code held-snapshot.rescan-interval} (the relay's {@value RelayConfig#CLAIM_RESCAN_INTERVAL};
 * PT0S shows the behaviour without the bound).
 */
class HeldSnapshotIT {

    private static final Duration PHASE = Duration.ofSeconds(15);

    private TestDatabase.Db db;
    private ScheduledExecutorService executor;
    private final ExecutorService producer = Executors.newSingleThreadExecutor();
    private OutboxRelay relay;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("held_snapshot_it", false);
        executor = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        producer.shutdownNow();
        executor.shutdownNow();
    }

    private static Duration hold() {
        String value = System.getProperty("held-snapshot.hold");
        if (value != null && !value.isBlank()) {
            return Duration.parse(value.trim());
        }
        return "soak".equals(System.getProperty("fault.size")) ? Duration.ofMinutes(5) : Duration.ofSeconds(60);
    }

    /** One phase's figures. */
    record Phase(String name, double seconds, long produced, long published, long pendingAtEnd, List<Long> claimNanos) {
        double producedPerSecond() {
            return produced / seconds;
        }

        double drainPerSecond() {
            return published / seconds;
        }

        double percentileMillis(double p) {
            List<Long> sorted = new ArrayList<>(claimNanos);
            Collections.sort(sorted);
            if (sorted.isEmpty()) {
                return 0;
            }
            return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size()))) / 1e6;
        }

        String row() {
            return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %d | %d | %.2f | %.2f | %.2f |", name,
                    producedPerSecond(), drainPerSecond(), pendingAtEnd, claimNanos.size(), percentileMillis(0.5),
                    percentileMillis(0.95), percentileMillis(1.0));
        }
    }

    @Test
    void theDrainKeepsUpAndClaimsStayFastWhileASnapshotIsHeld() throws Exception {
        int rate = Integer.getInteger("held-snapshot.rate", 1000);
        Duration hold = hold();
        RelayConfig.Builder config = RelayIt.config("held-snapshot").set(RelaySettings.BATCH_SIZE, 100);
        String rescan = System.getProperty("held-snapshot.rescan-interval");
        if (rescan != null && !rescan.isBlank()) {
            config.set(RelaySettings.CLAIM_RESCAN_INTERVAL, Duration.parse(rescan.trim()));
        }
        TimedStore store = new TimedStore(new JdbcOutboxStore(db.dataSource()));
        RecordingPublisher publisher = new RecordingPublisher();
        relay = OutboxRelay.builder().config(config.build()).store(store).executor(executor).publisher(publisher)
                .build();

        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicLong produced = new AtomicLong();
        Future<?> producers = producer.submit(() -> produce(rate, producing, produced));
        relay.start();
        waitFor(Duration.ofSeconds(5), producers); // warm-up, not measured

        List<Phase> phases = new ArrayList<>();
        phases.add(measure("before", PHASE, store, publisher, produced, producers));
        Phase during;
        Phase lastThird;
        try (Connection holder = db.connect()) {
            holder.setAutoCommit(false);
            holder.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement s = holder.createStatement()) {
                s.execute("SELECT count(*) FROM outbox_events"); // takes the snapshot; the session then sits idle
            }
            Duration firstPart = hold.minus(hold.dividedBy(3));
            Phase early = measure("hold, first 2/3", firstPart, store, publisher, produced, producers);
            lastThird = measure("hold, last 1/3", hold.dividedBy(3), store, publisher, produced, producers);
            during = combine("during the hold (" + hold + ")", early, lastThird);
            phases.add(early);
            phases.add(lastThird);
            phases.add(during);
            assertThat(db.queryLong("SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction'"
                    + " AND backend_xmin IS NOT NULL")).as("the snapshot was held").isPositive();
            holder.rollback();
        }
        phases.add(measure("after", PHASE, store, publisher, produced, producers));
        producing.set(false);
        producers.get(10, TimeUnit.SECONDS);

        StringBuilder table = new StringBuilder("\nheld snapshot: " + hold + " at " + rate + " events/s, relay "
                + relay.config().claimRescanInterval() + " rescan interval, batch " + relay.config().batchSize() + "\n"
                + "| phase | produced/s | drained/s | pending at end | claims | claim p50 ms | p95 ms | max ms |\n"
                + "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        phases.forEach(p -> table.append(p.row()).append('\n'));
        System.out.println(table);

        Phase before = phases.get(0);
        assertThat(during.drainPerSecond()).as("drain rate during the hold against the producers' rate")
                .isGreaterThanOrEqualTo(0.8 * during.producedPerSecond());
        assertThat(during.pendingAtEnd()).as("pending at the end of the hold (bounded: two seconds of producing)")
                .isLessThanOrEqualTo(2L * rate);
        double allowed = Math.max(3 * before.percentileMillis(0.5), before.percentileMillis(0.5) + 2.0);
        assertThat(lastThird.percentileMillis(0.5)).as("claim p50 in the last third of the hold (ms), before: %.2f",
                before.percentileMillis(0.5)).isLessThanOrEqualTo(allowed);
    }

    /** Writes {@code rate} events per second in transactions of 10, on one connection, until told to stop. */
    private Void produce(int rate, AtomicBoolean producing, AtomicLong produced) throws SQLException {
        long intervalNanos = 10 * 1_000_000_000L / rate;
        long next = System.nanoTime();
        int n = 0;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            while (producing.get() && !Thread.currentThread().isInterrupted()) {
                for (int i = 0; i < 10; i++) {
                    dao.insertOutboxEvent(new InsertOutboxEventParams(UUID.randomUUID(), "order", "o" + (n++ % 1000),
                            "order.created", "{\"n\":" + n + "}", null));
                }
                c.commit();
                produced.addAndGet(10);
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        }
        return null;
    }

    /** Waits {@code duration} unless the producer fails first (then rethrows its failure). */
    private static void waitFor(Duration duration, Future<?> producers) throws Exception {
        try {
            producers.get(duration.toNanos(), TimeUnit.NANOSECONDS);
            throw new AssertionError("the producer stopped early");
        } catch (java.util.concurrent.TimeoutException expected) {
            // the phase is over
        }
    }

    private Phase measure(String name, Duration length, TimedStore store, RecordingPublisher publisher,
                          AtomicLong produced, Future<?> producers) throws Exception {
        long p0 = produced.get();
        long d0 = publisher.published.size();
        store.drainClaimTimes();
        long t0 = System.nanoTime();
        waitFor(length, producers);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Phase(name, seconds, produced.get() - p0, publisher.published.size() - d0, RelayIt.pending(db),
                store.drainClaimTimes());
    }

    private static Phase combine(String name, Phase a, Phase b) {
        List<Long> claims = new ArrayList<>(a.claimNanos());
        claims.addAll(b.claimNanos());
        return new Phase(name, a.seconds() + b.seconds(), a.produced() + b.produced(), a.published() + b.published(),
                b.pendingAtEnd(), claims);
    }

    /** The JDBC store, timing each claim (a claim, or a completion together with a claim). */
    private static final class TimedStore implements OutboxStore {
        private final OutboxStore inner;
        private final List<Long> claimNanos = Collections.synchronizedList(new ArrayList<>());

        TimedStore(OutboxStore inner) {
            this.inner = inner;
        }

        List<Long> drainClaimTimes() {
            synchronized (claimNanos) {
                List<Long> copy = new ArrayList<>(claimNanos);
                claimNanos.clear();
                return copy;
            }
        }

        @Override
        public Session open() throws SQLException {
            Session s = inner.open();
            return new Session() {
                @Override
                public Claimed claim(Claim claim) throws SQLException {
                    long t0 = System.nanoTime();
                    Claimed c = s.claim(claim);
                    claimNanos.add(System.nanoTime() - t0);
                    return c;
                }

                @Override
                public CompletedAndClaimed completeAndClaim(CompletionMode mode, List<UUID> ids, UUID doneToken,
                                                           Claim next) throws SQLException {
                    long t0 = System.nanoTime();
                    CompletedAndClaimed c = s.completeAndClaim(mode, ids, doneToken, next);
                    claimNanos.add(System.nanoTime() - t0);
                    return c;
                }

                @Override
                public int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException {
                    return s.complete(mode, ids, token, now);
                }

                @Override
                public List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts,
                                                           List<Failure> failures) throws SQLException {
                    return s.recordFailures(token, now, maxAttempts, failures);
                }

                @Override
                public int defer(List<UUID> ids, UUID token, Instant now, Instant retryAfter, String error)
                        throws SQLException {
                    return s.defer(ids, token, now, retryAfter, error);
                }

                @Override
                public int release(List<UUID> ids, UUID token) throws SQLException {
                    return s.release(ids, token);
                }

                @Override
                public void close() throws SQLException {
                    s.close();
                }
            };
        }

        @Override
        public Stats stats() throws SQLException {
            return inner.stats();
        }

        @Override
        public boolean retryDeadLetter(UUID id) throws SQLException {
            return inner.retryDeadLetter(id);
        }

        @Override
        public int retryDeadLetters(DeadLetterFilter filter) throws SQLException {
            return inner.retryDeadLetters(filter);
        }

        @Override
        public OptionalInt cleanupBatch(long lockKey, Instant now, Duration retention, int batchSize) throws SQLException {
            return inner.cleanupBatch(lockKey, now, retention, batchSize);
        }

        @Override
        public int deadLetterExhausted(int maxAttempts, Instant now) throws SQLException {
            return inner.deadLetterExhausted(maxAttempts, now);
        }
    }
}
