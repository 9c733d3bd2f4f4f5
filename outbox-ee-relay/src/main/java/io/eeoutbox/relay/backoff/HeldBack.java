package io.eeoutbox.relay.backoff;

import io.eeoutbox.spi.DestinationUnavailableException;
import java.time.Duration;

/**
 * A message the relay did not hand to the publisher because its destination is held
 * ({@link io.eeoutbox.relay.backoff.DestinationHolds}): deferred like any message of an unavailable
 * destination, without counting an attempt, until the hold ends.
 */
public final class HeldBack extends DestinationUnavailableException {
    private static final long serialVersionUID = 1L;

    private final transient Duration left;

    /** @param left how long the hold still lasts */
    public HeldBack(String destination, Duration left, String lastError) {
        super(destination, "destination " + destination + " is held (it could not take messages): " + lastError, null);
        this.left = left;
    }

    /** How long the hold still lasted when the message was held back. */
    public Duration left() {
        return left;
    }
}
