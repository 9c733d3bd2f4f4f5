package io.eeoutbox.relay;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.ClaimOutboxBatchOrderedParams;
import io.eeoutbox.jpa.generated.ClaimOutboxBatchParams;
import io.eeoutbox.jpa.generated.ClaimOutboxBatchRow;
import io.eeoutbox.jpa.generated.DeferOutboxBatchParams;
import io.eeoutbox.jpa.generated.DeleteOutboxBatchParams;
import io.eeoutbox.jpa.generated.DeleteProcessedOutboxEventsParams;
import io.eeoutbox.jpa.generated.MarkOutboxBatchProcessedParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxStatsRow;
import io.eeoutbox.jpa.generated.RecordOutboxFailuresParams;
import io.eeoutbox.jpa.generated.RecordOutboxFailuresRow;
import io.eeoutbox.jpa.generated.ReleaseOutboxClaimParams;
import io.eeoutbox.jpa.generated.RetryOutboxDeadLettersParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * {@link OutboxStore} over a non-JTA {@link DataSource}, with the DAO generated from {@code sql/queries}.
 * Every statement runs with autocommit; only the cleanup batch is a (short) transaction of two statements.
 */
public final class JdbcOutboxStore implements OutboxStore {

    private final DataSource dataSource;

    public JdbcOutboxStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public Session open() throws SQLException {
        Connection connection = autocommit(dataSource.getConnection());
        return new JdbcSession(connection);
    }

    @Override
    public Stats stats() throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            OutboxStatsRow row = new OutboxEventJdbc(c).outboxStats()
                    .orElseThrow(() -> new SQLException("OutboxStats returned no row"));
            return new Stats(row.pending(), row.dead(), row.oldestPendingCreatedAt());
        }
    }

    @Override
    public boolean retryDeadLetter(UUID id) throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).retryOutboxDeadLetter(id) > 0;
        }
    }

    @Override
    public int retryDeadLetters(String eventType, String aggregateType, Instant createdFrom, Instant createdTo)
            throws SQLException {
        try (Connection c = autocommit(dataSource.getConnection())) {
            return new OutboxEventJdbc(c).retryOutboxDeadLetters(
                    new RetryOutboxDeadLettersParams(eventType, aggregateType, createdFrom, createdTo));
        }
    }

    @Override
    public OptionalInt cleanupBatch(long lockKey, Instant processedBefore, int batchSize) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                OutboxEventJdbc dao = new OutboxEventJdbc(c);
                OptionalInt result = OptionalInt.empty();
                if (dao.tryOutboxMaintenanceLock(lockKey).orElse(Boolean.FALSE)) {
                    result = OptionalInt.of(dao.deleteProcessedOutboxEvents(
                            new DeleteProcessedOutboxEventsParams(processedBefore, batchSize)).orElse(0));
                }
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        }
    }

    private static Connection autocommit(Connection c) throws SQLException {
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

    private static final class JdbcSession implements Session {
        private final Connection connection;
        private final OutboxEventJdbc dao;

        JdbcSession(Connection connection) {
            this.connection = connection;
            this.dao = new OutboxEventJdbc(connection);
        }

        @Override
        public List<OutboxMessage> claim(Claim claim) throws SQLException {
            List<ClaimOutboxBatchRow> rows = claim.ordered()
                    ? dao.claimOutboxBatchOrdered(new ClaimOutboxBatchOrderedParams(claim.token(), claim.lockedUntil(),
                            claim.maxAttempts(), claim.now(), claim.batchSize()))
                    : dao.claimOutboxBatch(new ClaimOutboxBatchParams(claim.token(), claim.lockedUntil(),
                            claim.maxAttempts(), claim.now(), claim.batchSize()));
            List<OutboxMessage> messages = new ArrayList<>(rows.size());
            for (ClaimOutboxBatchRow r : rows) {
                messages.add(new OutboxMessage(r.id(), r.seq(), r.aggregateType(), r.aggregateId(), r.eventType(),
                        r.payload(), r.createdAt(), r.attempts() + 1));
            }
            return messages;
        }

        @Override
        public int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException {
            if (ids.isEmpty()) {
                return 0;
            }
            return (mode == CompletionMode.DELETE
                    ? dao.deleteOutboxBatch(new DeleteOutboxBatchParams(ids, token))
                    : dao.markOutboxBatchProcessed(new MarkOutboxBatchProcessedParams(now, ids, token))).orElse(0);
        }

        @Override
        public List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts, List<Failure> failures)
                throws SQLException {
            if (failures.isEmpty()) {
                return List.of();
            }
            List<UUID> ids = new ArrayList<>(failures.size());
            List<Instant> retryAfters = new ArrayList<>(failures.size());
            List<String> errors = new ArrayList<>(failures.size());
            for (Failure f : failures) {
                ids.add(f.id());
                retryAfters.add(f.retryAfter());
                errors.add(f.error());
            }
            List<RecordOutboxFailuresRow> rows = dao.recordOutboxFailures(
                    new RecordOutboxFailuresParams(maxAttempts, now, ids, retryAfters, errors, token));
            List<FailureOutcome> outcomes = new ArrayList<>(rows.size());
            for (RecordOutboxFailuresRow r : rows) {
                outcomes.add(new FailureOutcome(r.id(), r.attempts(), r.deadAt()));
            }
            return outcomes;
        }

        @Override
        public int defer(List<UUID> ids, UUID token, Instant retryAfter, String error) throws SQLException {
            if (ids.isEmpty()) {
                return 0;
            }
            return dao.deferOutboxBatch(new DeferOutboxBatchParams(ids, retryAfter, error, token)).orElse(0);
        }

        @Override
        public int release(List<UUID> ids, UUID token) throws SQLException {
            if (ids.isEmpty()) {
                return 0;
            }
            return dao.releaseOutboxClaim(new ReleaseOutboxClaimParams(ids, token));
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }
}
