package io.eeoutbox.sample.infrastructure.messaging;

import java.util.function.UnaryOperator;

/**
 * What the consumer's span needs of a delivered message, whatever the broker: the messaging system ({@code jms},
 * {@code kafka}), where it came from, and its properties (JMS) or headers (Kafka) by name.
 */
record Incoming(String system, String destination, UnaryOperator<String> property) {
}
