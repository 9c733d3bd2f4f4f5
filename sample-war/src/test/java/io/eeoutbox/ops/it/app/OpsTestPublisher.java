package io.eeoutbox.ops.it.app;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.Publisher;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/**
 * The publisher of the observability tests' WAR: sends each event to the server's JMS queue, except
 * events whose type starts with {@value #REFUSED}, which it refuses as a broker would refuse them, so
 * that the tests can make failed attempts, dead letters and an "unreachable broker" on demand.
 */
@ApplicationScoped
public class OpsTestPublisher implements Publisher {

    public static final String REFUSED = "ops.refused";

    @Resource(lookup = "java:comp/DefaultJMSConnectionFactory")
    private ConnectionFactory connectionFactory;

    @Resource(lookup = "java:app/jms/OutboxEvents")
    private Queue queue;

    @Override
    public void publish(OutboxMessage message) {
        if (message.eventType().startsWith(REFUSED)) {
            throw new IllegalStateException("the test broker refuses events of type " + message.eventType());
        }
        try (JMSContext jms = connectionFactory.createContext()) {
            jms.createProducer().setProperty("outbox_event_id", message.id().toString()).send(queue, message.payload());
        }
    }

    @Override
    public String describe() {
        return "ops-test-jms:java:app/jms/OutboxEvents";
    }
}
