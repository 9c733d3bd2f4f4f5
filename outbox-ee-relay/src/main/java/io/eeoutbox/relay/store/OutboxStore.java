package io.eeoutbox.relay.store;

import io.eeoutbox.relay.config.InboxRetention;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.store.ListenerId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * The relay's storage operations, each one short transaction of one statement (so no database
 * transaction is ever open while the relay talks to a broker). {@link JdbcOutboxStore}
 * runs them with the generated DAO; unit tests use an in-memory fake.
 */
public interface OutboxStore {

    /** Opens a session for one drain: a connection kept for a few claim and complete statements. */
    Session open() throws SQLException;

    /**
     * Pending rows, dead letters, since when the oldest pending row has been pending, and the scheduled (delayed) rows.
     */
    Stats stats() throws SQLException;

    /**
     * Cdc mode's gauges (docs/cdc.md, "What replaces pending"), where nothing is pending and every row written in the
     * retention is kept unprocessed: the dead letters and the scheduled rows as {@link #stats()} counts them, as
     * {@code pending} the rows kept (not dead letters), and no oldest pending row. {@link JdbcOutboxStore} reads none of
     * the kept rows (schema V16's index of the dead letters); its kept count is PostgreSQL's estimate of the table's
     * rows. This default takes them from {@link #stats()}.
     */
    default Stats cdcStats() throws SQLException {
        Stats s = stats();
        return new Stats(s.pending(), s.dead(), null, s.scheduled(), s.nextDueAt());
    }

    /**
     * Delayed events (schema V14): moves up to {@code maxRows} scheduled rows due at now (the database's now;
     * {@code now} only where a store takes the caller's time) into the outbox, earliest first, each with a fresh
     * seq and its own id, creation time and trace context. Answers how many it moved and when the earliest row
     * left falls due. A store without delayed events moves none and knows of none.
     */
    default Promoted promoteDue(Instant now, int maxRows) throws SQLException {
        try (Session session = open()) {
            return session.promoteDue(now, maxRows);
        }
    }

    /** Makes one dead letter due again; false when {@code id} is not a dead letter. */
    boolean retryDeadLetter(UUID id) throws SQLException;

    /** Makes every dead letter that {@code filter} matches due again, with a fresh retry budget; returns how many. */
    int retryDeadLetters(DeadLetterFilter filter) throws SQLException;

    /**
     * In one short transaction: takes the maintenance lock {@code lockKey} (released at commit) and,
     * only if it was free, deletes up to {@code batchSize} rows processed more than {@code retention}
     * before now (the database's now; {@code now} only where a store takes the caller's time).
     *
     * @return how many rows were deleted, or empty when another relay holds the lock
     */
    OptionalInt cleanupBatch(long lockKey, Instant now, Duration retention, int batchSize) throws SQLException;

    /**
     * CDC mode's cleanup (decision 0023), like {@link #cleanupBatch}: deletes those of the {@code batchSize} oldest
     * unprocessed rows (dead letters kept) created more than {@code retention} before now. A store without CDC
     * deletes nothing.
     *
     * @return how many rows were deleted, or empty when another relay holds the lock
     */
    default OptionalInt cdcCleanupBatch(long lockKey, Instant now, Duration retention, int batchSize)
            throws SQLException {
        return OptionalInt.of(0);
    }

    /**
     * Like {@link #cleanupBatch}, for the consumers' inbox ({@code processed_events}): deletes up to
     * {@code batchSize} records in all, each older than its consumer's retention. A store without an inbox deletes
     * nothing.
     */
    default OptionalInt cleanupInboxBatch(long lockKey, Instant now, InboxRetention retention, int batchSize)
            throws SQLException {
        return OptionalInt.of(0);
    }

    /**
     * Makes pending rows whose attempts reached {@code maxAttempts} dead letters (they would never be
     * claimed again); returns how many. A store that never strands rows makes none.
     */
    default int deadLetterExhausted(int maxAttempts, Instant now) throws SQLException {
        return 0;
    }

    /**
     * Whether ordered mode's aggregate index is there and valid (sql/options: an outbox whose relays all run unordered may
     * drop it). A store without indexes has nothing to miss.
     */
    default boolean orderedIndexReady() throws SQLException {
        return true;
    }

    // --- NOTIFY waiters (V8, see WaiterRegistration) ----------------------------------------
    // A store without them (these defaults) leaves producers notifying on every insert, as with V5.

    /** Registers the LISTEN connection {@code listener} as waiting: producers notify from now on. */
    default void registerWaiter(ListenerId listener, String relayName) throws SQLException {
        throw noWaiters();
    }

    /** Renews that registration; false when it is gone (deleted by someone). */
    default boolean renewWaiter(ListenerId listener) throws SQLException {
        throw noWaiters();
    }

    /** Removes that registration; returns whether there was one. */
    default boolean unregisterWaiter(ListenerId listener) throws SQLException {
        throw noWaiters();
    }

    /** True when no producer transaction that inserted outbox rows is open at this instant; never waits. */
    default boolean tryQuiesce() throws SQLException {
        throw noWaiters();
    }

    /** Deletes registrations whose LISTEN connection is gone; returns how many. */
    default int deleteStaleWaiters() throws SQLException {
        throw noWaiters();
    }

    private static SQLFeatureNotSupportedException noWaiters() {
        return new SQLFeatureNotSupportedException("this store keeps no NOTIFY waiters");
    }

    /** The statements of one drain. Not thread-safe: one drain uses it on one thread. */
    interface Session extends AutoCloseable {

        /** Claims due rows for {@code claim.token()} (in any order: the caller sorts by seq). */
        Claimed claim(Claim claim) throws SQLException;

        /** Marks or deletes the published rows still leased to {@code token}; returns how many. */
        int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException;

        /**
         * Marks or deletes the published rows {@code ids} still leased to {@code doneToken} and claims the
         * next batch, in one transaction: either both happen or neither. The default runs
         * {@link #complete} and then {@link #claim} (two transactions).
         */
        default CompletedAndClaimed completeAndClaim(CompletionMode mode, List<UUID> ids, UUID doneToken, Claim next)
                throws SQLException {
            int completed = complete(mode, ids, doneToken, next.now());
            Claimed claimed = claim(next);
            // walkNext -1: this claim did not see the completed rows, so it took none of their successors
            return new CompletedAndClaimed(completed, claimed.messages(), claimed.full());
        }

        /** Records failed attempts of rows still leased to {@code token}, in one statement. */
        List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts, List<Failure> failures)
                throws SQLException;

        /**
         * Gives rows still leased to {@code token} back, due again at {@code retryAfter}, without
         * counting an attempt (the broker was unreachable); returns how many. The default gives
         * them back due at once.
         */
        default int defer(List<UUID> ids, UUID token, Instant now, Instant retryAfter, String error) throws SQLException {
            return release(ids, token);
        }

        /** {@link OutboxStore#promoteDue} on this session's connection: the relay's drain runs it before its claims. */
        default Promoted promoteDue(Instant now, int maxRows) throws SQLException {
            return Promoted.NONE;
        }

        /** Gives unpublished rows still leased to {@code token} back; returns how many. */
        int release(List<UUID> ids, UUID token) throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /**
     * One claim: lease due rows with seq at least {@code minSeq} to {@code token} for
     * {@code lockedUntil - now} (on the database's clock), within {@code limits}.
     */
    record Claim(UUID token, Instant now, Instant lockedUntil, ClaimLimits limits, long minSeq) {
        public Claim {
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(now, "now");
            Objects.requireNonNull(lockedUntil, "lockedUntil");
            Objects.requireNonNull(limits, "limits");
        }

        /** A claim from the start of the outbox. */
        public Claim(UUID token, Instant now, Instant lockedUntil, ClaimLimits limits) {
            this(token, now, lockedUntil, limits, 0L);
        }

        public int maxAttempts() {
            return limits.maxAttempts();
        }

        public int batchSize() {
            return limits.batchSize();
        }

        public int maxBytes() {
            return limits.maxBytes();
        }

        public boolean ordered() {
            return limits.ordered();
        }
    }

    /**
     * What one claim may take: up to {@code batchSize} rows below {@code maxAttempts} attempts, stopping early
     * once the rows hold {@code maxBytes} of payload (the first row always goes); in ordered mode only each
     * aggregate's oldest pending row.
     */
    record ClaimLimits(int maxAttempts, int batchSize, int maxBytes, boolean ordered) {
    }

    /**
     * What a claim took; {@code full} when it stopped at a limit (rows or bytes), so more rows may be due
     * at once. {@code walkNext} (ordered mode, schema V11): where the next claim's walk may start, every due row
     * from the claim's {@code minSeq} up to there having been looked at; and a claim that completed rows took the
     * next due event of each of their aggregates first, by the aggregate index. -1 when the store does neither.
     */
    record Claimed(List<OutboxMessage> messages, boolean full, long walkNext) {
        /** A claim that says nothing about its walk ({@code walkNext} -1). */
        public Claimed(List<OutboxMessage> messages, boolean full) {
            this(messages, full, -1L);
        }

        /** Full when the claim took its whole row limit, or its rows' {@code payloadBytes} reached {@code maxBytes}. */
        static boolean full(Claim claim, int rows, long payloadBytes) {
            return rows >= claim.batchSize() || (rows > 0 && payloadBytes >= claim.maxBytes());
        }
    }

    /**
     * What {@link Session#completeAndClaim} did: how many rows it completed, the rows it claimed, whether
     * that claim was full and where its walk may go on (see {@link Claimed}).
     */
    record CompletedAndClaimed(int completed, List<OutboxMessage> claimed, boolean full, long walkNext) {
        /** Without {@code walkNext} (-1: see {@link Claimed}). */
        public CompletedAndClaimed(int completed, List<OutboxMessage> claimed, boolean full) {
            this(completed, claimed, full, -1L);
        }
    }

    /** A failed publish: the row waits until {@code retryAfter}; {@code error} is at most 1000 characters. */
    record Failure(UUID id, Instant retryAfter, String error) {
        public Failure {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /** A recorded failure: the row's attempts so far and, when it became a dead letter, when. */
    record FailureOutcome(UUID id, int attempts, Instant deadAt) {
        public boolean dead() {
            return deadAt != null;
        }
    }

    /**
     * The outbox's gauges. {@code oldestPendingSince}: since when the oldest pending row has been pending, its creation
     * or, for a promoted delayed event, its promotion (schema V17; docs/operations.md, "Delayed events"); null when
     * nothing is pending. {@code scheduled}: delayed events not yet due (not pending: schema V14), the earliest of
     * them due at {@code nextDueAt} (null when none).
     */
    record Stats(long pending, long dead, Instant oldestPendingSince, long scheduled, Instant nextDueAt) {
        /** Without delayed events. */
        public Stats(long pending, long dead, Instant oldestPendingSince) {
            this(pending, dead, oldestPendingSince, 0, null);
        }

        /** These gauges with the scheduled rows' ones. */
        public Stats withScheduled(long scheduledRows, Instant nextDue) {
            return new Stats(pending, dead, oldestPendingSince, scheduledRows, nextDue);
        }
    }

    /**
     * What {@link #promoteDue} did: {@code moved} rows into the outbox; the earliest row left falls due
     * {@code nextDueIn} after the statement's now (zero: one is due already; null: none is scheduled).
     */
    record Promoted(int moved, Duration nextDueIn) {
        public static final Promoted NONE = new Promoted(0, null);
    }
}
