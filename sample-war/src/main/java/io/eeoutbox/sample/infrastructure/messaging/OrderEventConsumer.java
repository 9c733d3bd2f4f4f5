package io.eeoutbox.sample.infrastructure.messaging;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.sample.application.projection.OrderProjectionService;
import io.eeoutbox.sample.application.projection.ReceivedEvent;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The downstream consumer: receives the order events the relay publishes and hands them to the
 * projection, in the container's transaction (REQUIRED): the message is acknowledged only if the
 * projection commits, and redelivered otherwise; the inbox makes a redelivery harmless.
 *
 * <p>Order per order: the relay runs in ordered mode (an order's next event is published only after
 * the previous one), and the message carries the order id as {@code JMSXGroupID}. WildFly's Artemis
 * hands a group's messages to one consumer at a time; Open Liberty's messaging engine has no groups,
 * so its activation specification runs this bean with {@code maxConcurrency="1"} (server.xml).
 *
 * <p>Tracing: when the server provides OpenTelemetry, the event is applied inside a CONSUMER span that continues
 * the trace of the request that wrote the event (the message's {@code traceparent}, see {@link ConsumerTracing}).
 */
@JMSDestinationDefinition(name = OrderEventsQueue.JNDI_NAME, interfaceName = "jakarta.jms.Queue",
        destinationName = OrderEventsQueue.PHYSICAL_NAME)
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = OrderEventsQueue.JNDI_NAME),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
})
public class OrderEventConsumer implements MessageListener {

    private static final Logger LOG = Logger.getLogger(OrderEventConsumer.class.getName());

    @EJB
    private OrderProjectionService projection;

    @Override
    public void onMessage(Message message) {
        ReceivedEvent event;
        try {
            event = read(message);
        } catch (JMSException | RuntimeException e) {
            // Not an outbox message this consumer can read: redelivering it would not help.
            LOG.warning(() -> "message skipped, not an outbox event: " + describe(message) + ": " + e);
            return;
        }
        try (DeliverySpan span = ConsumerTracing.start(new Incoming("jms", OrderEventsQueue.PHYSICAL_NAME,
                name -> stringProperty(message, name)))) {
            try {
                projection.apply(event.inTrace(span.traceId()));
            } catch (RuntimeException e) {
                span.failed(e);
                throw e;
            }
        }
    }

    private static ReceivedEvent read(Message message) throws JMSException {
        if (!(message instanceof TextMessage text)) {
            throw new IllegalArgumentException("not a TextMessage");
        }
        String eventId = message.getStringProperty(MessageHeaders.EVENT_ID);
        String eventType = message.getStringProperty(MessageHeaders.EVENT_TYPE);
        if (eventId == null || eventType == null) {
            throw new IllegalArgumentException("no " + MessageHeaders.EVENT_ID + " or " + MessageHeaders.EVENT_TYPE);
        }
        return new ReceivedEvent(UUID.fromString(eventId), eventType,
                message.getStringProperty(MessageHeaders.AGGREGATE_ID), text.getText(),
                message.getStringProperty(MessageHeaders.TRACEPARENT), null);
    }

    private static String describe(Message message) {
        try {
            return "JMSMessageID=" + message.getJMSMessageID();
        } catch (JMSException | RuntimeException e) {
            return String.valueOf(message);
        }
    }

    private static String stringProperty(Message message, String name) {
        try {
            return message.getStringProperty(name);
        } catch (JMSException | RuntimeException e) {
            return null;
        }
    }
}
