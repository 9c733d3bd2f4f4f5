package io.eeoutbox.relay.drain;

import io.eeoutbox.spi.DestinationUnavailableException;
import java.time.Duration;

/**
 * A message the relay did not hand to the publisher because its destination is held
 * ({@link io.eeoutbox.relay.backoff.DestinationHolds}): deferred like any message of an unavailable
 * destination, without counting an attempt, until the hold ends.
 */
final class HeldBack extends DestinationUnavailableException {
    private static final long serialVersionUID = 1L;

    private final transient Duration left;

    /** @param left how long the hold still lasts */
    HeldBack(String destination, Duration left, String lastError) {
        super(destination, "destination " + destination + " is held (it could not take messages): " + lastError, null);
        this.left = left;
    }

    /** How long the hold still lasted when the message was held back. */
    Duration left() {
        return left;
    }
}
