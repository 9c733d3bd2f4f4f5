package io.eeoutbox.sample.infrastructure.messaging;

import io.eeoutbox.sample.application.ProbeService;
import io.eeoutbox.sample.domain.ProbeItem;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.JMSDestinationDefinitions;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.util.logging.Logger;

/**
 * Consumes {@code java:app/jms/OutboxEvents} and records each text message as a probe row, in the
 * container's transaction (the message is redelivered if the insert fails).
 */
@JMSDestinationDefinitions({
    @JMSDestinationDefinition(name = ProbeDestinations.OUTBOX_EVENTS,
            interfaceName = "jakarta.jms.Queue", destinationName = "OutboxEvents"),
    @JMSDestinationDefinition(name = ProbeDestinations.INSPECTION,
            interfaceName = "jakarta.jms.Queue", destinationName = "ProbeInspection")
})
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = ProbeDestinations.OUTBOX_EVENTS),
    @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
})
public class ProbeEventListener implements MessageListener {

    private static final Logger LOG = Logger.getLogger(ProbeEventListener.class.getName());

    @EJB
    private ProbeService probes;

    @Override
    public void onMessage(Message message) {
        try {
            if (!(message instanceof TextMessage text)) {
                LOG.warning(() -> "ignoring a non-text message " + message);
                return;
            }
            ProbeItem item = probes.record(text.getText(), ProbeItem.Source.JMS);
            LOG.fine(() -> "recorded probe_items id=" + item.getId() + " from a JMS message");
        } catch (JMSException e) {
            throw new IllegalStateException("cannot read a JMS message", e);
        }
    }
}
