package io.eeoutbox.relay.jms;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.TextMessage;

/** An outbox event as the JMS message {@link JmsPublisher} sends: its body, properties and headers. */
final class JmsMessages {

    private JmsMessages() {
    }

    static JMSProducer producer(JMSContext context) {
        return context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT);
    }

    /**
     * @param duplicateId whether to set {@value MessageHeaders#ARTEMIS_DUPLICATE_ID}: only on a send of its own.
     *                    Artemis refuses a whole transaction that holds a message id it already has (rows sent
     *                    again after their lease ran out), and inside JTA that refusal is a failed one-phase
     *                    commit that the transaction manager keeps as a heuristic hazard; so batches go without
     *                    it and the consumers' inbox recognises a repeat by {@value MessageHeaders#EVENT_ID}
     *                    (docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md)
     */
    static void send(JMSContext context, JMSProducer producer, Destination destination, OutboxMessage m,
                     boolean duplicateId) throws JMSException {
        TextMessage message = context.createTextMessage(m.payload());
        String id = m.id().toString();
        message.setJMSType(m.eventType());
        message.setStringProperty(MessageHeaders.EVENT_ID, id);
        message.setStringProperty(MessageHeaders.EVENT_TYPE, m.eventType());
        if (m.aggregateType() != null) {
            message.setStringProperty(MessageHeaders.AGGREGATE_TYPE, m.aggregateType());
        }
        if (m.aggregateId() != null) {
            message.setStringProperty(MessageHeaders.AGGREGATE_ID, m.aggregateId());
            message.setStringProperty(MessageHeaders.GROUP_ID, m.aggregateId());
        }
        if (m.createdAt() != null) {
            message.setStringProperty(MessageHeaders.CREATED_AT, m.createdAt().toString());
        }
        message.setIntProperty(MessageHeaders.ATTEMPT, m.attempt());
        if (m.trace() != null) {
            message.setStringProperty(MessageHeaders.TRACEPARENT, m.trace().traceparent());
            if (m.trace().tracestate() != null) {
                message.setStringProperty(MessageHeaders.TRACESTATE, m.trace().tracestate());
            }
        }
        if (duplicateId) {
            message.setStringProperty(MessageHeaders.ARTEMIS_DUPLICATE_ID, id);
        }
        producer.send(destination, message);
    }
}
