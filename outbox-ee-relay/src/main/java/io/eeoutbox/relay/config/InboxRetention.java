package io.eeoutbox.relay.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How long the cleaner keeps consumers' inbox records ({@code processed_events}): {@code perConsumer}'s retention for
 * each consumer it names, {@code fallback} for every other ({@code outbox.relay.inbox.retention} and
 * {@code outbox.relay.inbox.retention.per-consumer}; schema V12 for the second).
 */
public record InboxRetention(Duration fallback, Map<String, Duration> perConsumer) {

    public InboxRetention {
        Objects.requireNonNull(fallback, "fallback");
        perConsumer = Map.copyOf(perConsumer);
    }

    public static InboxRetention of(Duration fallback) {
        return new InboxRetention(fallback, Map.of());
    }

    /** The retention of {@code consumer}'s records. */
    public Duration of(String consumer) {
        return perConsumer.getOrDefault(consumer, fallback);
    }

    /** For logs: the default and, when any, the consumers with their own, by name. */
    @Override
    public String toString() {
        return perConsumer.isEmpty() ? Setting.iso(fallback)
                : Setting.iso(fallback) + " (" + RelaySettings.INBOX_RETENTION_PER_CONSUMER.show(new TreeMap<>(perConsumer)) + ")";
    }
}
