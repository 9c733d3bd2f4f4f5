package io.eeoutbox.relay.jms;

import io.eeoutbox.OutboxMessage;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The destinations a publisher sends to: each event's name by the {@link DestinationRule}, its destination looked up
 * once and kept. A name that resolves to nothing fails its events alone, with a JMS
 * {@link InvalidDestinationException} that names it: a refusal, which counts an attempt
 * (docs/decisions/0012-a-refused-message-counts-an-attempt.md). Such a failure is remembered for one batch only,
 * so a destination bound later (an operator adds the missing queue) is found at the event's next attempt.
 */
final class Destinations {

    /** An event with its destination's name and the destination. */
    record Target(OutboxMessage message, String name, Destination destination) {
        UUID id() {
            return message.id();
        }
    }

    private final DestinationRule rule;
    private final DestinationLookup lookup;
    private final ConcurrentMap<String, Destination> resolved = new ConcurrentHashMap<>();

    Destinations(DestinationRule rule, DestinationLookup lookup) {
        this.rule = Objects.requireNonNull(rule, "rule");
        this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    DestinationRule rule() {
        return rule;
    }

    /** The event's destination's name, or null when the rule names none for it (it fails alone when sent). */
    String nameOf(OutboxMessage m) {
        try {
            return rule.nameFor(m);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** One event's target; throws what fails it alone. */
    Target target(OutboxMessage m) throws JMSException {
        String name = rule.nameFor(m);
        return new Target(m, name, resolve(name));
    }

    /**
     * The batch's targets, in the batch's order; each event whose destination cannot be named or found goes into
     * {@code refused} instead.
     */
    List<Target> route(List<OutboxMessage> batch, Map<UUID, Throwable> refused) {
        List<Target> targets = new ArrayList<>(batch.size());
        Map<String, JMSException> missing = new HashMap<>();
        for (OutboxMessage m : batch) {
            String name;
            try {
                name = rule.nameFor(m);
            } catch (IllegalArgumentException e) {
                refused.put(m.id(), e);
                continue;
            }
            Destination d = resolved.get(name);
            if (d == null) {
                JMSException known = missing.get(name);
                if (known != null) {
                    refused.put(m.id(), known);
                    continue;
                }
                try {
                    d = resolve(name);
                } catch (JMSException e) {
                    missing.put(name, e);
                    refused.put(m.id(), e);
                    continue;
                }
            }
            targets.add(new Target(m, name, d));
        }
        return targets;
    }

    private Destination resolve(String name) throws JMSException {
        Destination d = resolved.get(name);
        if (d != null) {
            return d;
        }
        Object found;
        try {
            found = lookup.lookup(name);
        } catch (Exception e) {
            throw missing(name, "nothing is bound there: " + e, e);
        }
        if (!(found instanceof Destination)) {
            throw missing(name, "it is " + (found == null ? "null" : "a " + found.getClass().getName()) + ", not a "
                    + Destination.class.getName(), null);
        }
        Destination previous = resolved.putIfAbsent(name, (Destination) found);
        return previous != null ? previous : (Destination) found;
    }

    private JMSException missing(String name, String why, Exception cause) {
        InvalidDestinationException e = new InvalidDestinationException("no JMS destination for " + name + " ("
                + (rule.isFixed() ? DestinationRule.DESTINATION + "=" + rule : "outbox.relay.jms." + rule) + "): " + why);
        if (cause != null) {
            e.setLinkedException(cause);
            e.initCause(cause);
        }
        return e;
    }
}
