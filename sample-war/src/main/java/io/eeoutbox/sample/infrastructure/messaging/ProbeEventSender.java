package io.eeoutbox.sample.infrastructure.messaging;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/**
 * Sends text messages to {@code java:app/jms/OutboxEvents} with the server's default connection
 * factory. Inside a JTA transaction the send joins it; outside one it is sent at once.
 */
@ApplicationScoped
public class ProbeEventSender {

    @Resource(lookup = ProbeDestinations.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = ProbeDestinations.OUTBOX_EVENTS)
    private Queue outboxEvents;

    public void send(String text) {
        try (JMSContext context = connectionFactory.createContext()) {
            context.createProducer().send(outboxEvents, text);
        }
    }
}
