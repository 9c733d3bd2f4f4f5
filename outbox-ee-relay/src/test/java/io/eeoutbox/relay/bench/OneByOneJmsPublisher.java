package io.eeoutbox.relay.bench;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.spi.Publisher;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.TextMessage;

/**
 * The baseline's broker client, as the reference article's {@code publisher.Publish(...)}: one
 * long-lived connection, each message sent on its own (not transacted, persistent), returning when
 * the broker has stored it. The message carries the same body and properties as
 * {@link JmsPublisher}'s, so both sides of the comparison store the same bytes. One per worker thread.
 */
final class OneByOneJmsPublisher implements Publisher, AutoCloseable {

    private final JMSContext context;
    private final JMSProducer producer;
    private final Destination destination;

    OneByOneJmsPublisher(ConnectionFactory connectionFactory, Destination destination) {
        this.context = connectionFactory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
        this.producer = context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT);
        this.destination = destination;
    }

    @Override
    public void publish(OutboxMessage m) throws JMSException {
        TextMessage message = context.createTextMessage(m.payload());
        String id = m.id().toString();
        message.setJMSType(m.eventType());
        message.setStringProperty(MessageHeaders.EVENT_ID, id);
        message.setStringProperty(MessageHeaders.EVENT_TYPE, m.eventType());
        message.setStringProperty(MessageHeaders.AGGREGATE_TYPE, m.aggregateType());
        message.setStringProperty(MessageHeaders.AGGREGATE_ID, m.aggregateId());
        message.setStringProperty(MessageHeaders.GROUP_ID, m.aggregateId());
        if (m.createdAt() != null) {
            message.setStringProperty(MessageHeaders.CREATED_AT, m.createdAt().toString());
        }
        message.setIntProperty(MessageHeaders.ATTEMPT, m.attempt());
        message.setStringProperty(MessageHeaders.ARTEMIS_DUPLICATE_ID, id);
        producer.send(destination, message);
    }

    @Override
    public String describe() {
        return "jms one-by-one";
    }

    @Override
    public void close() {
        context.close();
    }
}
