package io.eeoutbox.relay.bench;

import io.eeoutbox.MessageHeaders;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.jms.ActiveMQJMSClient;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.io.aio.AIOSequentialFileFactory;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * An ActiveMQ Artemis broker in the benchmark's JVM with <em>persistence on</em>: every persistent
 * message is written to a journal on disk and synced before the send (or the transaction's commit)
 * returns, as in production. In-VM transport, duplicate detection on (the relay sets
 * {@code _AMQ_DUPL_ID}), default journal settings (ASYNCIO when libaio is there, NIO otherwise).
 */
final class PersistentBroker implements AutoCloseable {

    static final String QUEUE = "outbox.events";

    private final EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    private final String url = "vm://7";
    private final String journal;

    PersistentBroker(Path dir) throws Exception {
        deleteRecursively(dir);
        Files.createDirectories(dir);
        Configuration config = new ConfigurationImpl()
                .setName("ee-outbox-benchmark")
                .setPersistenceEnabled(true)
                .setSecurityEnabled(false)
                .setJMXManagementEnabled(false)
                .setJournalDirectory(dir.resolve("journal").toString())
                .setBindingsDirectory(dir.resolve("bindings").toString())
                .setPagingDirectory(dir.resolve("paging").toString())
                .setLargeMessagesDirectory(dir.resolve("large").toString())
                .addAcceptorConfiguration("in-vm", url);
        config.addQueueConfiguration(QueueConfiguration.of(QUEUE).setRoutingType(RoutingType.ANYCAST).setDurable(true));
        boolean aio = config.getJournalType() == JournalType.ASYNCIO && AIOSequentialFileFactory.isSupported();
        journal = (aio ? "ASYNCIO" : "NIO") + " journal, sync on commit/durable send, buffer timeout "
                + (aio ? config.getJournalBufferTimeout_AIO() : config.getJournalBufferTimeout_NIO()) + " ns";
        server.setConfiguration(config);
        server.start();
    }

    String describe() {
        return "embedded ActiveMQ Artemis, persistent (" + journal + ")";
    }

    ConnectionFactory connectionFactory() {
        return new ActiveMQConnectionFactory(url);
    }

    Queue queue() {
        return ActiveMQJMSClient.createQueue(QUEUE);
    }

    /**
     * Receives everything on the queue (consuming it) and counts deliveries per event id. Stops when
     * nothing arrives for {@code quietMillis} after at least {@code expected} messages came.
     */
    Map<UUID, Integer> drainQueue(long expected, long quietMillis) throws JMSException {
        Map<UUID, Integer> seen = new HashMap<>();
        long received = 0;
        try (JMSContext context = connectionFactory().createContext(JMSContext.SESSION_TRANSACTED);
             JMSConsumer consumer = context.createConsumer(queue())) {
            int inTx = 0;
            while (true) {
                Message m = consumer.receive(received >= expected ? quietMillis : Math.max(quietMillis, 10_000));
                if (m == null) {
                    break;
                }
                received++;
                String id = m.getStringProperty(MessageHeaders.EVENT_ID);
                seen.merge(UUID.fromString(id), 1, Integer::sum);
                if (++inTx == 1000) {
                    context.commit();
                    inTx = 0;
                }
            }
            context.commit();
        }
        return seen;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
