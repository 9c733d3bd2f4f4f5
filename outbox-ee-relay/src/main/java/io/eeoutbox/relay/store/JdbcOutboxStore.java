package io.eeoutbox.relay.store;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.CompleteAndClaimOutboxBatchParams;
import io.eeoutbox.jpa.generated.CompleteAndClaimOutboxBatchOrderedParams;
import io.eeoutbox.jpa.generated.CompleteAndClaimOutboxBatchRow;
import io.eeoutbox.jpa.generated.DeadLetterExhaustedOutboxEventsParams;
import io.eeoutbox.jpa.generated.DeferOutboxBatchDelayedParams;
import io.eeoutbox.jpa.generated.DeleteExpiredOutboxEventsParams;
import io.eeoutbox.jpa.generated.DeleteExpiredProcessedEventsParams;
import io.eeoutbox.jpa.generated.DeleteExpiredProcessedEventsPerConsumerParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.ProcessedEventJdbc;
import io.eeoutbox.jpa.generated.RecordOutboxFailuresDelayedParams;
import io.eeoutbox.jpa.generated.RecordOutboxFailuresDelayedRow;
import io.eeoutbox.jpa.generated.RegisterOutboxWaiterParams;
import io.eeoutbox.jpa.generated.ReleaseOutboxClaimParams;
import io.eeoutbox.jpa.generated.RenewOutboxWaiterParams;
import io.eeoutbox.jpa.generated.RetryOutboxDeadLettersMatchingParams;
import io.eeoutbox.jpa.generated.UnregisterOutboxWaiterParams;
import io.eeoutbox.relay.config.InboxRetention;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.config.RelaySettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * {@link OutboxStore} over a non-JTA {@link DataSource}, with the DAO generated from {@code sql/queries}.
 *
 * <p>Each of the relay's writes is its own short transaction that commits with the configured
 * synchronous_commit ({@code outbox.relay.synchronous-commit}), set for that transaction only, so the
 * setting never outlives it and a pooled connection goes back to its pool unchanged. The hot ones
 * (claim, complete, and both together) are one autocommit statement, {@code CompleteAndClaimOutboxBatch},
 * which sets it itself: one round trip and one commit each. The others (record failures, defer,
 * release, cleanup) run {@code SetRelaySynchronousCommit} first in an explicit transaction. The
 * read-only and operator statements (stats, dead-letter retries) run with autocommit.
 *
 * <p>Times come from PostgreSQL's clock (schema V9): leases, retry times, processed_at and the cleanup's cut-off
 * are the database's {@code now()} plus or minus a duration, so relays on servers whose clocks differ never overlap.
 * The instants the relay passes in only turn its deadlines into durations, except with {@link #withStatementClock}.
 */
public final class JdbcOutboxStore implements OutboxStore {

    private final DataSource dataSource;
    private final String synchronousCommit;
    /** False: the statements take PostgreSQL's now(); true: the caller's instants (tests only). */
    private final boolean callerTime;
    /** Set once the schema answered that it has no V17: stats() then asks for it no more (ScheduledStatements). */
    private final java.util.concurrent.atomic.AtomicBoolean beforeV17 = new java.util.concurrent.atomic.AtomicBoolean();

    /** A store whose relay transactions commit with the default of {@code outbox.relay.synchronous-commit}. */
    public JdbcOutboxStore(DataSource dataSource) {
        this(dataSource, RelaySettings.SYNCHRONOUS_COMMIT.defaultValue());
    }

    /** @param synchronousCommit synchronous_commit for the relay's own transactions (see {@code outbox.relay.synchronous-commit}) */
    public JdbcOutboxStore(DataSource dataSource, String synchronousCommit) {
        this(dataSource, synchronousCommit, false);
    }

    private JdbcOutboxStore(DataSource dataSource, String synchronousCommit, boolean callerTime) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.synchronousCommit = RelaySettings.SYNCHRONOUS_COMMIT.parse(String.valueOf(synchronousCommit));
        this.callerTime = callerTime;
    }

    /**
     * For tests that move time: a store whose statements take the instants the relay passes in (from the
     * relay's {@link Clock}) instead of PostgreSQL's clock. Never in production: relays on servers whose
     * clocks differ could then hold the same rows.
     */
    public static JdbcOutboxStore withStatementClock(DataSource dataSource) {
        return new JdbcOutboxStore(dataSource, RelaySettings.SYNCHRONOUS_COMMIT.defaultValue(), true);
    }

    /** The {@code now} parameter of a V9 statement: NULL (the database's clock) unless tests move time. */
    private Instant statementNow(Instant callerNow) {
        return callerTime ? callerNow : null;
    }

    private static long millisBetween(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis());
    }

    @Override
    public Session open() throws SQLException {
        return new JdbcSession(autocommit(dataSource.getConnection()), synchronousCommit);
    }

    @Override
    public int deadLetterExhausted(int maxAttempts, Instant now) throws SQLException {
        return relayTransaction(c -> new OutboxEventJdbc(c).deadLetterExhaustedOutboxEvents(
                new DeadLetterExhaustedOutboxEventsParams(maxAttempts, statementNow(now))).orElse(0));
    }

    @Override
    public boolean orderedIndexReady() throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).outboxOrderedIndexReady().orElse(Boolean.FALSE);
        }
    }

    @Override
    public Stats stats() throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return ScheduledStatements.stats(c, beforeV17);
        }
    }

    @Override
    public Stats cdcStats() throws SQLException {
        return CdcStatements.stats(dataSource);
    }

    @Override
    public boolean retryDeadLetter(UUID id) throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).retryOutboxDeadLetter(id) > 0;
        }
    }

    @Override
    public int retryDeadLetters(DeadLetterFilter f) throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).retryOutboxDeadLettersMatching(new RetryOutboxDeadLettersMatchingParams(
                    f.eventType(), f.aggregateType(), f.aggregateId(), f.createdFrom(), f.createdTo(), f.errorText()));
        }
    }

    @Override
    public OptionalInt cleanupBatch(long lockKey, Instant now, Duration retention, int batchSize) throws SQLException {
        return maintenance(lockKey, c -> new OutboxEventJdbc(c).deleteExpiredOutboxEvents(
                new DeleteExpiredOutboxEventsParams(statementNow(now), retention.toMillis(), batchSize)).orElse(0));
    }

    @Override
    public OptionalInt cdcCleanupBatch(long lockKey, Instant now, Duration retention, int batchSize) throws SQLException {
        return maintenance(lockKey, c -> CdcStatements.deleteExpired(c, statementNow(now), retention, batchSize));
    }

    @Override
    public OptionalInt cleanupInboxBatch(long lockKey, Instant now, InboxRetention retention, int batchSize)
            throws SQLException {
        long fallbackMs = retention.fallback().toMillis();
        if (retention.perConsumer().isEmpty()) { // V9's statement: works without V12
            return maintenance(lockKey, c -> new ProcessedEventJdbc(c).deleteExpiredProcessedEvents(
                    new DeleteExpiredProcessedEventsParams(statementNow(now), fallbackMs, batchSize)).orElse(0));
        }
        List<String> consumers = List.copyOf(retention.perConsumer().keySet());
        List<Long> retentionsMs = consumers.stream().map(name -> retention.of(name).toMillis()).toList();
        return maintenance(lockKey, c -> new ProcessedEventJdbc(c).deleteExpiredProcessedEventsPerConsumer(
                new DeleteExpiredProcessedEventsPerConsumerParams(statementNow(now), fallbackMs, batchSize, consumers,
                        retentionsMs)).orElse(0));
    }

    /** One maintenance statement in a short transaction that first takes the lock {@code lockKey}; empty when it was taken. */
    private OptionalInt maintenance(long lockKey, TransactionWork<Integer> work) throws SQLException {
        return relayTransaction(c -> new OutboxEventJdbc(c).tryOutboxMaintenanceLock(lockKey).orElse(Boolean.FALSE)
                ? OptionalInt.of(work.run(c)) : OptionalInt.empty());
    }

    /** {@code work} in one short transaction of the relay's own, committed with the configured synchronous_commit. */
    private <T> T relayTransaction(TransactionWork<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            Exception failure = null;
            try {
                new OutboxEventJdbc(c).setRelaySynchronousCommit(synchronousCommit);
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                failure = e;
                rollbackQuietly(c, e);
                throw e;
            } finally {
                restoreAutoCommit(c, autoCommit, failure);
            }
        }
    }

    @FunctionalInterface
    private interface TransactionWork<T> {
        T run(Connection c) throws SQLException;
    }

    @Override
    public void registerWaiter(ListenerId listener, String relayName) throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            new OutboxEventJdbc(c).registerOutboxWaiter(
                    new RegisterOutboxWaiterParams(listener.pid(), listener.start(), relayName));
        }
    }

    @Override
    public boolean renewWaiter(ListenerId listener) throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).renewOutboxWaiter(new RenewOutboxWaiterParams(listener.pid(), listener.start())) > 0;
        }
    }

    @Override
    public boolean unregisterWaiter(ListenerId listener) throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).unregisterOutboxWaiter(
                    new UnregisterOutboxWaiterParams(listener.pid(), listener.start())) > 0;
        }
    }

    /** Autocommit: the lock the statement takes ends with it (see {@code TryOutboxQuiesce}). */
    @Override
    public boolean tryQuiesce() throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).tryOutboxQuiesce().orElse(Boolean.FALSE);
        }
    }

    @Override
    public int deleteStaleWaiters() throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).deleteStaleOutboxWaiters();
        }
    }

    static Connection autocommit(Connection c) throws SQLException {
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    private static void rollbackQuietly(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Restores auto-commit after a transaction. On a broken connection that fails too: after a failed transaction
     * its error is kept as suppressed, so that the log shows the transaction's own cause (a deadlock, a timeout),
     * not "connection closed".
     */
    private static void restoreAutoCommit(Connection c, boolean autoCommit, Exception failure) throws SQLException {
        try {
            c.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /** A connection with autocommit on; every operation is one transaction. */
    private final class JdbcSession implements Session {
        private final Connection connection;
        private final OutboxEventJdbc dao;
        private final String synchronousCommit;

        JdbcSession(Connection connection, String synchronousCommit) {
            this.connection = connection;
            this.dao = new OutboxEventJdbc(connection);
            this.synchronousCommit = synchronousCommit;
        }

        /** Runs {@code work} in one explicit transaction that commits with the configured synchronous_commit. */
        private <T> T transaction(TransactionWork<T> work) throws SQLException {
            connection.setAutoCommit(false);
            Exception failure = null;
            try {
                dao.setRelaySynchronousCommit(synchronousCommit);
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                failure = e;
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                restoreAutoCommit(connection, true, failure);
            }
        }

        @Override
        public Claimed claim(Claim claim) throws SQLException {
            CompletedAndClaimed c = completeAndClaim(CompletionMode.MARK, List.of(), null, claim);
            return new Claimed(c.claimed(), c.full(), c.walkNext());
        }

        @Override
        public int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException {
            if (ids.isEmpty()) {
                return 0;
            }
            return completeAndClaim(mode, ids, token, new Claim(token, now, now, new ClaimLimits(1, 0, 1, false))).completed();
        }

        @Override
        public CompletedAndClaimed completeAndClaim(CompletionMode mode, List<UUID> ids, UUID doneToken, Claim next)
                throws SQLException {
            if (next.ordered() && next.batchSize() > 0) {
                return completeAndClaimOrdered(mode, ids, doneToken, next);
            }
            List<CompleteAndClaimOutboxBatchRow> rows = dao.completeAndClaimOutboxBatch(new CompleteAndClaimOutboxBatchParams(
                    synchronousCommit, mode == CompletionMode.DELETE, statementNow(next.now()), ids, doneToken,
                    next.token(), millisBetween(next.now(), next.lockedUntil()), next.maxAttempts(), next.batchSize(),
                    next.ordered(), next.maxBytes(), next.minSeq()));
            int completed = 0;
            long payloadBytes = 0;
            List<OutboxMessage> messages = new ArrayList<>(rows.size());
            for (CompleteAndClaimOutboxBatchRow r : rows) {
                completed = r.completed();
                if (r.id() != null) {
                    payloadBytes += r.payloadBytes();
                    messages.add(ClaimRows.message(r.id(), r.seq(), r.eventType(), r.payload(), r.aggregateType(),
                            r.aggregateId(), r.createdAt(), r.attempts(), r.tracingspancontext()));
                }
            }
            return new CompletedAndClaimed(completed, messages, Claimed.full(next, messages.size(), payloadBytes));
        }

        /** Ordered mode (V11): the completed aggregates' next events first, then the walk; the last row carries walk_next. */
        private CompletedAndClaimed completeAndClaimOrdered(CompletionMode mode, List<UUID> ids, UUID doneToken,
                                                            Claim next) throws SQLException {
            return ClaimRows.ordered(dao.completeAndClaimOutboxBatchOrdered(
                    new CompleteAndClaimOutboxBatchOrderedParams(synchronousCommit, mode == CompletionMode.DELETE,
                            statementNow(next.now()), ids, doneToken, next.token(),
                            millisBetween(next.now(), next.lockedUntil()), next.maxAttempts(), next.batchSize(),
                            next.maxBytes(), next.minSeq())), next);
        }

        @Override
        public List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts, List<Failure> failures)
                throws SQLException {
            if (failures.isEmpty()) {
                return List.of();
            }
            List<UUID> ids = new ArrayList<>(failures.size());
            List<Long> delays = new ArrayList<>(failures.size());
            List<String> errors = new ArrayList<>(failures.size());
            for (Failure f : failures) {
                ids.add(f.id());
                delays.add(millisBetween(now, f.retryAfter()));
                errors.add(f.error());
            }
            List<RecordOutboxFailuresDelayedRow> rows = transaction(c -> dao.recordOutboxFailuresDelayed(
                    new RecordOutboxFailuresDelayedParams(maxAttempts, statementNow(now), ids, delays, errors, token)));
            List<FailureOutcome> outcomes = new ArrayList<>(rows.size());
            for (RecordOutboxFailuresDelayedRow r : rows) {
                outcomes.add(new FailureOutcome(r.id(), r.attempts(), r.deadAt()));
            }
            return outcomes;
        }

        @Override
        public int defer(List<UUID> ids, UUID token, Instant now, Instant retryAfter, String error) throws SQLException {
            if (ids.isEmpty()) {
                return 0;
            }
            return transaction(c -> dao.deferOutboxBatchDelayed(new DeferOutboxBatchDelayedParams(ids,
                    statementNow(now), millisBetween(now, retryAfter), error, token)).orElse(0));
        }

        @Override
        public Promoted promoteDue(Instant now, int maxRows) throws SQLException {
            return ScheduledStatements.promote(connection, synchronousCommit, statementNow(now), maxRows);
        }

        @Override
        public int release(List<UUID> ids, UUID token) throws SQLException {
            if (ids.isEmpty()) {
                return 0;
            }
            return transaction(c -> dao.releaseOutboxClaim(new ReleaseOutboxClaimParams(ids, token)));
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }
}
