package io.eeoutbox.relay;

import java.time.Duration;

/**
 * The outbox as the relay sees it now.
 *
 * @param pending          rows waiting to be published (dead letters not included)
 * @param dead             dead letters
 * @param oldestPendingAge how long the oldest pending row has waited, or {@link Duration#ZERO} when none
 */
public record RelayStats(long pending, long dead, Duration oldestPendingAge) {
}
