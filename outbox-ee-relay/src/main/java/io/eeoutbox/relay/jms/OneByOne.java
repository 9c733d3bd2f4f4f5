package io.eeoutbox.relay.jms;

import io.eeoutbox.relay.jms.Destinations.Target;
import io.eeoutbox.spi.BrokerUnavailableException;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link JmsPublisher}'s pass after a batch transaction failed: each message in a send of its own, so that a message
 * the broker refuses fails alone (it counts an attempt) and its neighbours go through. A destination found full, or
 * whose send the {@link SendWatchdog} cut short, is held for the rest of the pass: its other messages fail as its
 * outage without a send, the other destinations' go on
 * (docs/decisions/0015-a-full-destination-is-an-outage.md). A connection gone fails the rest as the broker's
 * outage.
 */
final class OneByOne {

    private static final Logger LOG = Logger.getLogger(OneByOne.class.getName());

    private final ConnectionFactory connectionFactory;
    private final SendWatchdog watchdog;

    OneByOne(ConnectionFactory connectionFactory, SendWatchdog watchdog) {
        this.connectionFactory = connectionFactory;
        this.watchdog = watchdog;
    }

    /**
     * Sends {@code targets}, putting each failure into {@code failures}.
     *
     * @param held destinations already known to take nothing now, with their outage; the pass adds those it finds
     */
    void send(List<Target> targets, Map<UUID, Throwable> failures, Map<String, BrokerUnavailableException> held) {
        int next = 0;
        while (next < targets.size()) {
            next = pass(targets, next, failures, held);
        }
    }

    /**
     * Sends {@code targets} from {@code from} on one context.
     *
     * @return where the next pass starts: after a send the watchdog cut short (the interrupted context is not used
     *         again), else the end
     */
    private int pass(List<Target> targets, int from, Map<UUID, Throwable> failures,
                     Map<String, BrokerUnavailableException> held) {
        JMSContext context;
        try {
            context = connectionFactory.createContext();
        } catch (RuntimeException e) {
            // No connection at all: none of the messages can go, and none of them is at fault.
            Outages.of(targets, from, e, failures, held);
            return targets.size();
        }
        SendWatchdog.Guard guard = watchdog.watch();
        try {
            JMSProducer producer;
            try {
                // A context creates its session and producer lazily: the broker can go away in between, and
                // then nothing was sent (docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md).
                producer = JmsMessages.producer(context);
            } catch (RuntimeException e) {
                notSent(targets, from, e, failures, held);
                return targets.size();
            }
            for (int i = from; i < targets.size(); i++) {
                Target t = targets.get(i);
                BrokerUnavailableException h = held.get(t.name());
                if (h != null) {
                    failures.put(t.id(), h);
                    continue;
                }
                try {
                    JmsMessages.send(context, producer, t.destination(), t.message(), true);
                    guard.progress();
                } catch (JMSException | RuntimeException e) {
                    if (guard.fired()) {
                        hold(t, Outages.of(t.name(), Outages.blocked(t.name(), watchdog.bound(), e)), failures, held);
                        return i + 1;
                    }
                    if (JmsFailures.isDestinationFull(e)) {
                        hold(t, Outages.of(t.name(), e), failures, held);
                    } else if (JmsFailures.isConnectionFailure(e)) {
                        Outages.of(targets, i, e, failures, held);
                        return targets.size();
                    } else {
                        failures.put(t.id(), e);
                    }
                }
            }
            return targets.size();
        } finally {
            guard.close(); // clears the watchdog's interrupt: the next pass, or the relay, goes on uninterrupted
            try {
                context.close();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing the JMS context failed", e);
            }
        }
    }

    private static void hold(Target t, BrokerUnavailableException outage, Map<UUID, Throwable> failures,
                             Map<String, BrokerUnavailableException> held) {
        held.put(t.name(), outage);
        failures.put(t.id(), outage);
    }

    /** None of the messages was sent: "broker unavailable" when the connection is gone, else each fails with it. */
    private static void notSent(List<Target> targets, int from, RuntimeException cause, Map<UUID, Throwable> failures,
                                Map<String, BrokerUnavailableException> held) {
        if (JmsFailures.isConnectionFailure(cause) || JmsFailures.isDestinationFull(cause)) {
            Outages.of(targets, from, cause, failures, held);
            return;
        }
        for (Target t : targets.subList(from, targets.size())) {
            failures.put(t.id(), held.containsKey(t.name()) ? held.get(t.name()) : cause);
        }
    }
}
