package io.eeoutbox.relay.cleanup;

import io.eeoutbox.relay.config.InboxRetention;
import io.eeoutbox.relay.store.OutboxInstance;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes published rows older than the retention period, and the consumers' inbox records
 * ({@code processed_events}) older than the inbox retention, in bounded batches of one short
 * transaction each. Every batch first takes a PostgreSQL advisory lock (the outbox's maintenance key, held until
 * that batch commits): when several servers run the relay, a batch runs only on the relay that got
 * the lock, and the others skip this round. The key is the outbox's own (schema V15: one per schema), else
 * {@link #LOCK_KEY}. In cdc mode ({@link #cdcRetention}) it also deletes the rows the connector publishes, once they
 * are older than {@code outbox.relay.cdc.retention} (decision 0023).
 */
public final class OutboxCleaner {

    /** The advisory lock key of outbox maintenance before schema V15, and of the public schema's outbox with it. */
    public static final long LOCK_KEY = OutboxInstance.DATABASE_WIDE_MAINTENANCE_KEY;

    /** The outbox's maintenance lock key, read when a cleanup starts. */
    @FunctionalInterface
    public interface LockKey {
        long key() throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(OutboxCleaner.class.getName());

    private final OutboxStore store;
    private final LockKey lockKey;
    private final Clock clock;
    private final String relayName;
    private final int batchSize;
    private final BooleanSupplier keepGoing;
    private boolean failing;
    private volatile Duration cdcRetention; // null: relay mode

    public OutboxCleaner(OutboxStore store, LockKey lockKey, Clock clock, String relayName, int batchSize,
                         BooleanSupplier keepGoing) {
        this.store = store;
        this.lockKey = lockKey;
        this.clock = clock;
        this.relayName = relayName;
        this.batchSize = batchSize;
        this.keepGoing = keepGoing;
    }

    /** Cdc mode: each scheduled run also deletes unpublished rows older than {@code retention} (decision 0023). */
    public OutboxCleaner cdcRetention(Duration retention) {
        this.cdcRetention = retention;
        return this;
    }

    /** The outcome of one cleanup: rows deleted, and whether another relay held the lock. */
    public record Result(long deleted, boolean lockedElsewhere) {
    }

    /**
     * Deletes rows processed more than {@code retention} ago, batch after batch while batches come
     * back full.
     */
    public Result clean(Duration retention) throws SQLException {
        long key = lockKey.key();
        return clean((now, size) -> store.cleanupBatch(key, now, retention, size));
    }

    /**
     * Cdc mode: deletes rows never published by a relay (dead letters kept) created more than {@code retention} ago,
     * batch after batch while batches come back full.
     */
    public Result cleanCdc(Duration retention) throws SQLException {
        long key = lockKey.key();
        return clean((now, size) -> store.cdcCleanupBatch(key, now, retention, size));
    }

    /** Deletes inbox records older than their consumer's retention, batch after batch while batches come back full. */
    public Result cleanInbox(InboxRetention retention) throws SQLException {
        long key = lockKey.key();
        return clean((now, size) -> store.cleanupInboxBatch(key, now, retention, size));
    }

    @FunctionalInterface
    private interface Batch {
        OptionalInt run(Instant now, int batchSize) throws SQLException;
    }

    private Result clean(Batch step) throws SQLException {
        Instant now = clock.instant();
        long deleted = 0;
        while (true) {
            OptionalInt batch = step.run(now, batchSize);
            if (batch.isEmpty()) {
                return new Result(deleted, true);
            }
            deleted += batch.getAsInt();
            if (batch.getAsInt() < batchSize || !keepGoing.getAsBoolean()) {
                return new Result(deleted, false);
            }
        }
    }

    /** The scheduled run: never throws; logs a failure once until a run succeeds again. */
    public synchronized void runScheduled(Duration retention, InboxRetention inboxRetention) {
        try {
            Result r = clean(retention);
            Duration cdc = cdcRetention;
            Result cdcRows = r.lockedElsewhere() || cdc == null ? r : cleanCdc(cdc);
            if (cdc != null && cdcRows != r && cdcRows.deleted() > 0) {
                LOG.info(() -> "relay " + relayName + ": cleanup deleted " + cdcRows.deleted()
                        + " rows older than " + cdc + " (cdc mode)");
            }
            Result inbox = r.lockedElsewhere() ? r : cleanInbox(inboxRetention);
            if (inbox.deleted() > 0) {
                LOG.info(() -> "relay " + relayName + ": cleanup deleted " + inbox.deleted()
                        + " inbox records (processed_events) older than " + inboxRetention);
            }
            if (failing) {
                LOG.info(() -> "relay " + relayName + ": cleanup works again");
                failing = false;
            }
            if (r.deleted() > 0) {
                LOG.info(() -> "relay " + relayName + ": cleanup deleted " + r.deleted() + " published rows older than " + retention);
            } else if (r.lockedElsewhere()) {
                LOG.fine(() -> "relay " + relayName + ": cleanup skipped, another relay holds the maintenance lock");
            }
        } catch (SQLException | RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, e, () -> "relay " + relayName + ": cleanup failed (retried at the next interval): " + e);
            }
        }
    }
}
