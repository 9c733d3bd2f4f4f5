package io.eeoutbox.relay.kafka;

import io.eeoutbox.OutboxMessage;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which topic an event goes to: one fixed topic ({@value KafkaSettings#TOPIC}), or one per aggregate type
 * ({@value KafkaSettings#TOPIC_PATTERN}, whose {@value #PLACEHOLDER} is replaced by the event's aggregate type).
 * Both are checked at start against Kafka's topic-name rules (1 to 249 of {@code a-z A-Z 0-9 . _ -}, not
 * {@code .} or {@code ..}); with a pattern, an event whose aggregate type makes an illegal name, or that has none,
 * fails on its own (it counts as an attempt, like any event the cluster refuses).
 */
public final class TopicRule {

    public static final String PLACEHOLDER = "{aggregate_type}";
    static final int MAX_LENGTH = 249;
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

    private final String fixed;
    private final String prefix;
    private final String suffix;

    private TopicRule(String fixed, String prefix, String suffix) {
        this.fixed = fixed;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    static TopicRule of(Optional<String> topic, Optional<String> pattern) {
        if (topic.isPresent() == pattern.isPresent()) {
            throw new IllegalArgumentException("invalid configuration: set exactly one of " + KafkaSettings.TOPIC
                    + " (one topic for every event) and " + KafkaSettings.TOPIC_PATTERN + " (one topic per aggregate"
                    + " type, such as events." + PLACEHOLDER + ")" + (topic.isPresent() ? "; both are set" : "; neither is set"));
        }
        if (topic.isPresent()) {
            String t = topic.get();
            legal(t).ifPresent(problem -> {
                throw new IllegalArgumentException("invalid configuration: " + KafkaSettings.TOPIC + "=" + t + " is not a"
                        + " legal Kafka topic name: " + problem);
            });
            return new TopicRule(t, null, null);
        }
        String p = pattern.get();
        int at = p.indexOf(PLACEHOLDER);
        if (at < 0 || p.indexOf(PLACEHOLDER, at + 1) >= 0) {
            throw new IllegalArgumentException("invalid configuration: " + KafkaSettings.TOPIC_PATTERN + "=" + p
                    + " must contain " + PLACEHOLDER + " exactly once (for a single topic use " + KafkaSettings.TOPIC + ")");
        }
        String prefix = p.substring(0, at);
        String suffix = p.substring(at + PLACEHOLDER.length());
        String sample = prefix + "x" + suffix;
        legal(sample).ifPresent(problem -> {
            throw new IllegalArgumentException("invalid configuration: " + KafkaSettings.TOPIC_PATTERN + "=" + p
                    + " does not make legal Kafka topic names: " + problem);
        });
        return new TopicRule(null, prefix, suffix);
    }

    /** Why {@code name} is not a legal topic name, or empty when it is. */
    static Optional<String> legal(String name) {
        if (name.isEmpty() || name.length() > MAX_LENGTH) {
            return Optional.of("accepted: 1 to " + MAX_LENGTH + " characters, got " + name.length());
        }
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("'.' and '..' are reserved");
        }
        if (!LEGAL.matcher(name).matches()) {
            return Optional.of("accepted characters: a-z A-Z 0-9 . _ -");
        }
        return Optional.empty();
    }

    /**
     * The event's topic.
     *
     * @throws IllegalArgumentException when the pattern and the event's aggregate type make no legal name
     */
    public String topicFor(OutboxMessage m) {
        if (fixed != null) {
            return fixed;
        }
        if (m.aggregateType() == null) {
            throw new IllegalArgumentException("event " + m.id() + " has no aggregate type, and "
                    + KafkaSettings.TOPIC_PATTERN + " names topics by it");
        }
        String topic = prefix + m.aggregateType() + suffix;
        Optional<String> problem = legal(topic);
        if (problem.isPresent()) {
            throw new IllegalArgumentException("event " + m.id() + ": aggregate type '" + m.aggregateType() + "' makes "
                    + "the topic name '" + topic + "' from " + KafkaSettings.TOPIC_PATTERN + ", which is not legal: "
                    + problem.get());
        }
        return topic;
    }

    /** For logs: {@code topic=orders} or {@code topic-pattern=events.{aggregate_type}}. */
    @Override
    public String toString() {
        return fixed != null ? "topic=" + fixed : "topic-pattern=" + prefix + PLACEHOLDER + suffix;
    }
}
