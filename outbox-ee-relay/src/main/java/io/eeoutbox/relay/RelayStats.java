package io.eeoutbox.relay;

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
 */
public record RelayStats(long pending, long dead, Duration oldestPendingAge, long scheduled, Instant nextScheduledDueAt) {

    /** Without delayed events. */
    public RelayStats(long pending, long dead, Duration oldestPendingAge) {
        this(pending, dead, oldestPendingAge, 0, null);
    }
}
