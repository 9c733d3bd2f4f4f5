package io.eeoutbox.relay.jms;

import io.eeoutbox.OutboxMessage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which JNDI name an event's JMS destination is looked up under: one name for every event ({@value #DESTINATION}),
 * or a pattern ({@value #PATTERN}) in which {@value #AGGREGATE_TYPE} and {@value #EVENT_TYPE} are replaced by the
 * event's aggregate type and event type, so {@code java:app/jms/{aggregate_type}-events} sends an {@code order} event to
 * the queue bound at {@code java:app/jms/order-events} (docs/jms.md).
 *
 * <p>A pattern is checked at start: no spaces, only those two placeholders, at least one of them. An event whose
 * type holds a character outside {@code a-z A-Z 0-9 . _ -} (a {@code /} would reach into another JNDI context) fails on
 * its own, and counts an attempt, as an event whose name is bound to nothing does
 * (docs/decisions/0012-a-refused-message-counts-an-attempt.md).
 */
public final class DestinationRule {

    public static final String DESTINATION = "outbox.relay.jms.destination";
    public static final String PATTERN = "outbox.relay.jms.destination-pattern";
    public static final String AGGREGATE_TYPE = "{aggregate_type}";
    public static final String EVENT_TYPE = "{event_type}";
    /** The longest name the relay accepts for a destination, as for every JNDI setting. */
    static final int MAX_LENGTH = 255;
    private static final Pattern VALUE = Pattern.compile("[a-zA-Z0-9._-]+");
    private static final Pattern BRACES = Pattern.compile("\\{[^{}]*\\}");

    private final String fixed;
    private final String pattern;

    private DestinationRule(String fixed, String pattern) {
        this.fixed = fixed;
        this.pattern = pattern;
    }

    /** Every event goes to {@code jndiName}. */
    public static DestinationRule fixed(String jndiName) {
        if (jndiName == null || jndiName.isEmpty()) {
            throw new IllegalArgumentException("invalid configuration: " + DESTINATION + " is empty");
        }
        return new DestinationRule(jndiName, null);
    }

    /**
     * Each event goes to the destination bound at {@code pattern} with its placeholders replaced.
     *
     * @throws IllegalArgumentException naming {@value #PATTERN} when the pattern cannot name destinations
     */
    public static DestinationRule pattern(String pattern) {
        String p = pattern == null ? "" : pattern;
        if (p.isBlank() || p.chars().anyMatch(Character::isWhitespace)) {
            throw invalid(p, "a JNDI name has no spaces and is not empty");
        }
        Matcher braces = BRACES.matcher(p);
        boolean placeholder = false;
        while (braces.find()) {
            String found = braces.group();
            if (!found.equals(AGGREGATE_TYPE) && !found.equals(EVENT_TYPE)) {
                throw invalid(p, "unknown placeholder " + found + "; accepted: " + AGGREGATE_TYPE + " and " + EVENT_TYPE);
            }
            placeholder = true;
        }
        String rest = braces.replaceAll("");
        if (rest.indexOf('{') >= 0 || rest.indexOf('}') >= 0) {
            throw invalid(p, "a brace outside " + AGGREGATE_TYPE + " or " + EVENT_TYPE);
        }
        if (!placeholder) {
            throw invalid(p, "it holds neither " + AGGREGATE_TYPE + " nor " + EVENT_TYPE + " (for one destination for every"
                    + " event use " + DESTINATION + ")");
        }
        if (fill(p, "x", "x").length() > MAX_LENGTH) {
            throw invalid(p, "longer than " + MAX_LENGTH + " characters");
        }
        return new DestinationRule(null, p);
    }

    private static IllegalArgumentException invalid(String p, String problem) {
        return new IllegalArgumentException("invalid configuration: " + PATTERN + "=" + p + " does not name JMS"
                + " destinations: " + problem);
    }

    private static String fill(String p, String aggregateType, String eventType) {
        return p.replace(AGGREGATE_TYPE, aggregateType).replace(EVENT_TYPE, eventType);
    }

    /** Whether every event goes to one destination. */
    /** The pattern, or null for one fixed destination. */
    public String pattern() {
        return pattern;
    }

    public boolean isFixed() {
        return fixed != null;
    }

    /**
     * The JNDI name of the event's destination.
     *
     * @throws IllegalArgumentException when the event's types cannot make a name from the pattern; the event fails
     *                                  alone then
     */
    public String nameFor(OutboxMessage m) {
        if (fixed != null) {
            return fixed;
        }
        String aggregateType = pattern.contains(AGGREGATE_TYPE) ? part(m, "aggregate type", m.aggregateType()) : "";
        String eventType = pattern.contains(EVENT_TYPE) ? part(m, "event type", m.eventType()) : "";
        String name = fill(pattern, aggregateType, eventType);
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("event " + m.id() + " makes the JMS destination name '" + name + "' from "
                    + PATTERN + "=" + pattern + ", longer than " + MAX_LENGTH + " characters");
        }
        return name;
    }

    private String part(OutboxMessage m, String what, String value) {
        if (value == null || !VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException("event " + m.id() + ": its " + what + " "
                    + (value == null ? "is missing" : "'" + value + "' has a character other than a-z A-Z 0-9 . _ -")
                    + ", so " + PATTERN + "=" + pattern + " names no JMS destination for it");
        }
        return value;
    }

    /** For logs and the publisher's description: the name, or {@code destination-pattern=...}. */
    @Override
    public String toString() {
        return fixed != null ? fixed : "destination-pattern=" + pattern;
    }
}
