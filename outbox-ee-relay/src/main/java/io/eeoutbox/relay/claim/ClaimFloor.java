package io.eeoutbox.relay.claim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Where a claim starts (schema V9's {@code p_min_seq}), so that a claim does not walk again the index
 * entries of rows it has already passed.
 *
 * <p>While a snapshot is held (a long transaction, an idle-in-transaction session, a replication slot),
 * vacuum cannot remove the old versions of published rows, and a claim that starts at the head of the
 * pending index visits every one of them: each claim gets slower the longer the snapshot is held. A claim
 * here starts at the lowest seq that this relay claimed at least one rescan interval ago, so it walks
 * about one interval's worth of rows; and at least once per rescan interval a claim starts at 0, the whole
 * index, and finds what lies below the bound: rows due for a retry, leases that were released or ran out,
 * rows of transactions that committed more than an interval after they inserted (a row of a transaction
 * shorter than the interval is above the bound: the bound was claimed before that row's seq was drawn).
 *
 * <p>Ordered mode adds rows that become due below the bound: an event is due only once its aggregate's
 * previous event is completed, and that event may lie anywhere below the last claim (a grouped backlog puts
 * each aggregate's events next to each other). The drain reports each completed batch with
 * {@link #mayBeDueFrom}, and the next claim starts no higher than that (docs/decisions/0014-ordered-claims-start-below-what-they-completed.md).
 * Since schema V11 an ordered claim takes the next event of each aggregate it completes by the aggregate index, and
 * says where its walk may go on ({@link #walked}): the drain reports only the completed rows whose aggregate got
 * nothing, and the next claims walk on from there, so they do not walk again over the later events of a hot
 * aggregate. A claim from the usual bound (a sweep) still comes, for rows that transactions committed after the walk
 * had passed, as often as costs at most a sixteenth of the claims' time (docs/decisions/0017-ordered-claims-take-successors-by-aggregate.md).
 *
 * <p>Not thread-safe: one drain at a time uses it. Times are {@link System#nanoTime()} values.
 */
public final class ClaimFloor {

    private final long intervalNanos;
    private final Deque<long[]> claims = new ArrayDeque<>(); // {nanoTime, lowest seq claimed}, oldest first
    private long floor;
    private long continueAt = -1; // after a full claim: where the next claim of the same run starts
    private long lastFullNanos;
    private boolean fullDone;
    private long dueFrom = Long.MAX_VALUE; // the lowest seq that may have become due since the last claim started
    private long walkNext = -1; // ordered mode (V11): where the last claim's walk may go on
    private long lastSweepNanos;
    private long sweepNanos; // what the last sweep cost
    private boolean sweeping; // the last claim started at the bound (or at 0)

    /** @param rescanInterval zero: every claim starts at 0 (no bound) */
    public ClaimFloor(Duration rescanInterval) {
        this.intervalNanos = rescanInterval.toNanos();
    }

    /**
     * The seq the next claim starts at, {@code now} being its start: 0 when a full rescan is due; never above
     * what {@link #mayBeDueFrom} reported since the previous claim started.
     */
    public long next(long now) {
        long due = dueFrom;
        dueFrom = Long.MAX_VALUE;
        return Math.min(due, start(now));
    }

    private long start(long now) {
        // The rescan comes first, also in the middle of a backlog: retries that are due, released or expired leases
        // (a crashed relay's) and late-committed rows wait at most one interval, not until the backlog is gone.
        if (intervalNanos == 0 || !fullDone || now - lastFullNanos >= intervalNanos) {
            continueAt = -1;
            walkNext = -1;
            fullDone = true;
            lastFullNanos = now;
            lastSweepNanos = now;
            sweeping = true;
            return 0L;
        }
        sweeping = false;
        if (continueAt >= 0) {
            long at = continueAt;
            continueAt = -1;
            return at;
        }
        if (walkNext >= 0 && now - lastSweepNanos < Math.min(intervalNanos, 16 * sweepNanos)) {
            return walkNext;
        }
        walkNext = -1;
        lastSweepNanos = now;
        sweeping = true;
        while (!claims.isEmpty() && now - claims.peekFirst()[0] >= intervalNanos) {
            floor = Math.max(floor, claims.pollFirst()[1]);
        }
        return floor;
    }

    /**
     * A claim that started at {@code startedAt} took rows with seqs from {@code lowestSeq} to
     * {@code highestSeq}; when it was {@code full}, the next claim goes on after {@code highestSeq} (every due
     * row below it was just claimed, or is locked by another relay), so a backlog is walked once.
     */
    public void claimed(long startedAt, long lowestSeq, long highestSeq, boolean full) {
        if (intervalNanos == 0) {
            return;
        }
        continueAt = full ? highestSeq + 1 : -1;
        long[] last = claims.peekLast();
        if (last != null && last[1] <= lowestSeq && startedAt - last[0] < intervalNanos / 16) {
            return; // a claim in the same sixteenth of an interval with a higher start adds nothing
        }
        claims.addLast(new long[] {startedAt, lowestSeq});
    }

    /**
     * Ordered mode (V11): the claim just made, which took {@code claimNanos}, looked at every due row from where it
     * started up to {@code nextSeq} (exclusive) and took the next event of each aggregate it completed. Until the
     * next sweep, claims start there (or lower, see {@link #mayBeDueFrom}) instead of at the bound. A sweep comes
     * once sixteen times its own cost has passed since the last one (at once when sweeps are cheap, as in a steady
     * flow; rarely when the rows below hold a long backlog of one aggregate), and at least once per rescan
     * interval. Replaces what {@link #claimed} said about where to go on: that claim's highest seq may be an
     * aggregate's next event far above its walk.
     */
    public void walked(long nextSeq, long claimNanos) {
        if (intervalNanos == 0) {
            return;
        }
        if (sweeping) {
            sweepNanos = claimNanos;
        }
        continueAt = -1;
        walkNext = nextSeq;
    }

    /**
     * Rows from {@code seq} on may have become due since the last claim started (ordered mode: the next event
     * of an aggregate whose event at {@code seq - 1} was just completed); the next claim starts there or lower.
     */
    public void mayBeDueFrom(long seq) {
        dueFrom = Math.min(dueFrom, Math.max(0L, seq));
    }

    /** A drain ended: its next claim does not go on after the last one (rows it released lie below). */
    public void runEnded() {
        continueAt = -1;
        walkNext = -1;
    }

    /** Forgets every bound (after a database error): the next claim starts at 0. */
    public void reset() {
        claims.clear();
        continueAt = -1;
        walkNext = -1;
        floor = 0;
        fullDone = false;
        dueFrom = Long.MAX_VALUE;
    }
}
