package io.eeoutbox.relay;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQExceptionType;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerMessagePlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * A real ActiveMQ Artemis broker in the test JVM (in-VM transport, duplicate detection on), with one
 * queue. It can be told to refuse messages, as a broker refuses a message it cannot route or store.
 */
public final class EmbeddedBroker implements AutoCloseable {

    public static final String QUEUE = "outbox.events";
    private static final AtomicInteger IDS = new AtomicInteger(100);

    private final EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    private final String url;
    private volatile Predicate<org.apache.activemq.artemis.api.core.Message> refuse = m -> false;

    public EmbeddedBroker() throws Exception {
        this(-1, null);
    }

    /**
     * A broker whose queue's address holds at most {@code maxSizeBytes} of messages, then does what {@code whenFull}
     * says (Artemis' {@code address-full-policy}: FAIL refuses sends, BLOCK makes them wait for space).
     */
    public EmbeddedBroker(long maxSizeBytes, org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy whenFull)
            throws Exception {
        int id = IDS.incrementAndGet();
        url = "vm://" + id;
        Configuration config = new ConfigurationImpl()
                .setName("outbox-test-" + id)
                .setPersistenceEnabled(false)
                // A bounded address pages even without persistence: its files go under target/, not the work tree.
                .setPagingDirectory("target/artemis-" + id + "/paging")
                .setBindingsDirectory("target/artemis-" + id + "/bindings")
                .setJournalDirectory("target/artemis-" + id + "/journal")
                .setLargeMessagesDirectory("target/artemis-" + id + "/large-messages")
                .setSecurityEnabled(false)
                .setJMXManagementEnabled(false)
                .addAcceptorConfiguration("in-vm", url);
        config.addQueueConfiguration(QueueConfiguration.of(QUEUE).setRoutingType(RoutingType.ANYCAST));
        if (whenFull != null) {
            config.addAddressSetting(QUEUE, new org.apache.activemq.artemis.core.settings.impl.AddressSettings()
                    .setMaxSizeBytes(maxSizeBytes).setAddressFullMessagePolicy(whenFull));
        }
        config.registerBrokerPlugin(new ActiveMQServerMessagePlugin() {
            @Override
            public void beforeSend(ServerSession session, Transaction tx, org.apache.activemq.artemis.api.core.Message message,
                                   boolean direct, boolean noAutoCreateQueue) throws ActiveMQException {
                if (refuse.test(message)) {
                    throw new ActiveMQException(ActiveMQExceptionType.GENERIC_EXCEPTION,
                            "refused by the test broker: " + message.getStringProperty("outbox_event_type"));
                }
            }
        });
        server.setConfiguration(config);
        server.start();
    }

    /** Stops the broker: every connection to it fails until {@link #restart()}. Its messages are kept only in memory. */
    public void stop() throws Exception {
        server.stop();
    }

    /** Starts the stopped broker again on the same address. */
    public void restart() throws Exception {
        server.start();
    }

    /** Refuse every message whose {@code outbox_event_type} property is {@code eventType} (null: refuse none). */
    public void refuseEventType(String eventType) {
        refuse = eventType == null ? m -> false : m -> eventType.equals(m.getStringProperty("outbox_event_type"));
    }

    public ConnectionFactory connectionFactory() {
        return new ActiveMQConnectionFactory(url);
    }

    public Queue queue() {
        return org.apache.activemq.artemis.api.jms.ActiveMQJMSClient.createQueue(QUEUE);
    }

    /**
     * Another queue on this broker, on an address of its own; bounded like the constructor's when {@code whenFull} is
     * given.
     */
    public Queue addQueue(String name, long maxSizeBytes,
                          org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy whenFull) throws Exception {
        if (whenFull != null) {
            server.getActiveMQServer().getAddressSettingsRepository().addMatch(name,
                    new org.apache.activemq.artemis.core.settings.impl.AddressSettings()
                            .setMaxSizeBytes(maxSizeBytes).setAddressFullMessagePolicy(whenFull));
        }
        server.getActiveMQServer().createQueue(QueueConfiguration.of(name).setAddress(name)
                .setRoutingType(RoutingType.ANYCAST));
        return org.apache.activemq.artemis.api.jms.ActiveMQJMSClient.createQueue(name);
    }

    /** Receives messages until {@code count} arrived or nothing came for {@code quietMillis}. */
    public List<Message> receive(int count, long quietMillis) {
        return receive(queue(), count, quietMillis);
    }

    /** Receives messages from {@code queue} until {@code count} arrived or nothing came for {@code quietMillis}. */
    public List<Message> receive(Queue queue, int count, long quietMillis) {
        List<Message> messages = new ArrayList<>();
        try (JMSContext context = connectionFactory().createContext(); JMSConsumer consumer = context.createConsumer(queue)) {
            while (messages.size() < count) {
                Message m = consumer.receive(quietMillis);
                if (m == null) {
                    break;
                }
                messages.add(m);
            }
        }
        return messages;
    }

    /** The bytes the queue's address holds now, as its paging store counts them (what a size limit compares). */
    public long addressSize() throws Exception {
        return server.getActiveMQServer().getPagingManager()
                .getPageStore(org.apache.activemq.artemis.api.core.SimpleString.of(QUEUE)).getAddressSize();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
