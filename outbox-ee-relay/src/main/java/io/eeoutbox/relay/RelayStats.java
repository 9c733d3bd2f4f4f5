package io.eeoutbox.relay;

import io.eeoutbox.relay.store.CdcStatements;
import java.time.Duration;
import java.time.Instant;

/**
 * The outbox as the relay sees it now.
 *
 * @param pending          rows waiting to be published (dead letters not included)
 * @param dead             dead letters
 * @param oldestPendingAge how long the oldest pending row has waited, or {@link Duration#ZERO} when none
 * @param scheduled        delayed events not yet due (schema V14): not pending
 * @param nextScheduledDueAt when the earliest of them falls due (the database's clock), or null when none
 * @param cdcSlot          in cdc mode the connector's replication slot, whose lag replaces pending (nothing waits on
 *                         the relay: pending then holds the rows kept for the retention as the store's
 *                         {@code cdcStats()} gives them, PostgreSQL's estimate, and oldestPendingAge is zero);
 *                         null in relay mode
 */
public record RelayStats(long pending, long dead, Duration oldestPendingAge, long scheduled, Instant nextScheduledDueAt,
                         CdcStatements.Slot cdcSlot) {

    /** Without delayed events. */
    public RelayStats(long pending, long dead, Duration oldestPendingAge) {
        this(pending, dead, oldestPendingAge, 0, null);
    }

    /** In relay mode. */
    public RelayStats(long pending, long dead, Duration oldestPendingAge, long scheduled, Instant nextScheduledDueAt) {
        this(pending, dead, oldestPendingAge, scheduled, nextScheduledDueAt, null);
    }

    /** Whether these are the stats of a relay in cdc mode, where pending and the oldest pending age do not apply. */
    public boolean cdc() {
        return cdcSlot != null;
    }
}
