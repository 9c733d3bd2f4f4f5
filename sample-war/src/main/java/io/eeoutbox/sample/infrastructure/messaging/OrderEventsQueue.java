package io.eeoutbox.sample.infrastructure.messaging;

/**
 * The queue the outbox relay publishes order events to, under the portable name the relay uses by
 * default ({@code outbox.relay.jms.destination}). {@link OrderEventConsumer} defines it with
 * {@code @JMSDestinationDefinition}: WildFly creates the queue in its Artemis broker; Open Liberty's
 * messaging engine needs {@value #PHYSICAL_NAME} declared in server.xml.
 */
public final class OrderEventsQueue {

    public static final String JNDI_NAME = "java:app/jms/OutboxEvents";
    public static final String PHYSICAL_NAME = "OutboxEvents";

    private OrderEventsQueue() {
    }
}
