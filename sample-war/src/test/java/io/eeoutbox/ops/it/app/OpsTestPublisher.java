package io.eeoutbox.ops.it.app;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.Publisher;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import io.eeoutbox.spi.BrokerUnavailableException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Queue;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The publisher of the observability tests' WAR: sends each event to the server's JMS queue, except
 * events whose type starts with {@value #REFUSED}, which it refuses as a broker would refuse them, so
 * that the tests can make failed attempts, dead letters and an "unreachable broker" on demand. It sends
 * through the connection factory the server gives the relay ({@code outbox.relay.jms.connection-factory}, a
 * system property on WildFly: one that fails while the broker is stopped instead of reconnecting forever),
 * else the default one.
 */
@ApplicationScoped
public class OpsTestPublisher implements Publisher {

    public static final String REFUSED = "ops.refused";

    /** Event types refused for now, as a broken downstream would; {@link Refusals} turns them on and off. */
    static final java.util.Set<String> REFUSED_FOR_NOW = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Resource(lookup = "java:comp/DefaultJMSConnectionFactory")
    private ConnectionFactory connectionFactory;

    @Resource(lookup = "java:app/jms/OutboxEvents")
    private Queue queue;

    private volatile ConnectionFactory relayFactory;

    private ConnectionFactory factory() {
        String name = System.getProperty("outbox.relay.jms.connection-factory");
        if (name == null || name.isBlank()) {
            return connectionFactory;
        }
        ConnectionFactory f = relayFactory;
        if (f == null) {
            try {
                f = (ConnectionFactory) new InitialContext().lookup(name);
            } catch (NamingException e) {
                throw new IllegalStateException("no connection factory at " + name, e);
            }
            relayFactory = f;
        }
        return f;
    }

    @Override
    public void publish(OutboxMessage message) throws BrokerUnavailableException {
        if (message.eventType().startsWith(REFUSED) || REFUSED_FOR_NOW.contains(message.eventType())) {
            throw new IllegalStateException("the test broker refuses events of type " + message.eventType());
        }
        JMSContext jms;
        try {
            jms = factory().createContext();
        } catch (JMSRuntimeException e) {
            // no connection at all: the broker is down, as the shipped JmsPublisher reports it (deferred, no attempt)
            throw new BrokerUnavailableException("cannot connect to the broker: " + e.getMessage(), e);
        }
        try (jms) {
            jms.createProducer().setProperty("outbox_event_id", message.id().toString()).send(queue, message.payload());
        }
    }

    @Override
    public String describe() {
        return "ops-test-jms:java:app/jms/OutboxEvents";
    }
}
