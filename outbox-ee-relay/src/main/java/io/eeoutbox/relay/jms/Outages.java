package io.eeoutbox.relay.jms;

import io.eeoutbox.relay.jms.Destinations.Target;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The failures the relay does not count as attempts: the broker's outage ({@link BrokerUnavailableException}), or
 * one destination's ({@link DestinationUnavailableException}, naming it, so that the relay holds that destination
 * alone: docs/decisions/0015-a-full-destination-is-an-outage.md).
 */
final class Outages {

    private Outages() {
    }

    /** A destination's outage when {@code cause} says it is full, else the broker's. */
    static BrokerUnavailableException of(String destination, Throwable cause) {
        return JmsFailures.isDestinationFull(cause)
                ? new DestinationUnavailableException(destination, "the destination " + destination
                        + " is full and takes no messages now (its consumers are down or behind): " + cause, cause)
                : new BrokerUnavailableException("the broker behind " + destination + " cannot be reached: "
                        + cause, cause);
    }

    /**
     * Messages {@code from..end} fail as "broker unavailable" (or, each, "its destination full"); a held
     * destination's keep their destination's outage.
     */
    static PublishResult of(List<Target> targets, int from, Throwable cause, Map<UUID, Throwable> failures,
                            Map<String, BrokerUnavailableException> held) {
        Map<String, BrokerUnavailableException> each = new HashMap<>(held);
        for (Target t : targets.subList(from, targets.size())) {
            failures.put(t.id(), each.computeIfAbsent(t.name(), name -> of(name, cause)));
        }
        return PublishResult.of(failures);
    }

    /** A send the watchdog cut short: the destination's flow control held it for {@code bound} (decision 0015). */
    static jakarta.jms.JMSException blocked(String destination, Duration bound, Exception cause) {
        jakarta.jms.ResourceAllocationException e = new jakarta.jms.ResourceAllocationException("the sends to "
                + destination + " made no progress for " + bound + ": the broker's flow control holds"
                + " them (a full address under a BLOCK policy, its consumers down or behind)");
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }
}
