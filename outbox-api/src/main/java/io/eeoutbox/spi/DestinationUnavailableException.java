package io.eeoutbox.spi;

import java.util.Objects;

/**
 * The broker is reachable, but one destination cannot take messages now: a queue or address that is full (its
 * consumers are down or slow), a partition without a leader or without enough in-sync replicas. Like any
 * {@link BrokerUnavailableException} the relay defers such messages <em>without counting the attempt</em>, so a
 * consumer outage turns no event into a dead letter; it drains by itself once the destination takes messages
 * again. A destination that refuses messages for good (missing, not authorised, a message too large) is no
 * such case: report the refusal itself, which counts (docs/decisions/0012-a-refused-message-counts-an-attempt.md).
 */
public class DestinationUnavailableException extends BrokerUnavailableException {
    private static final long serialVersionUID = 1L;

    private final String destination;

    /**
     * @param destination the destination that cannot take messages (a queue's name, a topic and partition)
     * @param message     why, for logs, health data and the console
     */
    public DestinationUnavailableException(String destination, String message, Throwable cause) {
        super(message, cause);
        this.destination = Objects.requireNonNull(destination, "destination");
    }

    /** The destination that cannot take messages now. */
    public String destination() {
        return destination;
    }
}
