package io.eeoutbox.relay.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.EmbeddedBroker;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.PublishResult;
import jakarta.transaction.UserTransaction;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.naming.Reference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's choice of batch transaction against a real Artemis broker: a plain client factory gets local
 * JMS transactions (no transaction manager is asked, so none is given here), and the choice waits for a broker
 * that answers; a resource adapter's factory is recognised by the Connectors contract; a factory the relay does
 * not know as a plain client gets a context for each batch.
 */
class LocalOrJtaBatchIT {

    /** The UserTransaction a local-transaction relay must never touch. */
    private static final UserTransaction UNUSED = (UserTransaction) Proxy.newProxyInstance(
            LocalOrJtaBatchIT.class.getClassLoader(), new Class<?>[] {UserTransaction.class}, (proxy, method, args) -> {
                throw new AssertionError("a relay on a plain client factory used JTA: " + method.getName());
            });

    private EmbeddedBroker broker;

    @BeforeEach
    void setUp() throws Exception {
        broker = new EmbeddedBroker();
    }

    @AfterEach
    void tearDown() throws Exception {
        broker.close();
    }

    private static List<OutboxMessage> batch(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> new OutboxMessage(UUID.randomUUID(), i,
                "order.created", "{}",
                new OutboxMessage.Aggregate("order", "o" + i),
                OutboxMessage.Delivery.of(Instant.parse("2026-01-01T00:00:00Z"), 1))).toList();
    }

    @Test
    void aPlainClientFactoryGetsLocalTransactionsOnceTheBrokerAnswers() throws Exception {
        LocalOrJtaBatch batches = new LocalOrJtaBatch(broker.connectionFactory(), "test factory", UNUSED);
        try (JmsPublisher publisher = new JmsPublisher(broker.connectionFactory(), broker.queue(), "outbox.events", batches)) {
            broker.stop();
            PublishResult down = publisher.publishAll(batch(3));
            assertThat(down.failures()).hasSize(3).allSatisfy((id, e) -> assertThat(e).isInstanceOf(BrokerUnavailableException.class));
            assertThat(batches.usesLocalTransactions()).isEmpty();

            broker.restart();
            List<OutboxMessage> up = batch(3);
            assertThat(publisher.publishAll(up).failures()).isEmpty();
            assertThat(batches.usesLocalTransactions()).contains(true);
            assertThat(broker.receive(10, 300)).hasSize(3);
        }
    }

    @Test
    void aFactoryNotKnownAsAPlainClientGetsAContextForEachBatchClosedAfterIt() throws Exception {
        CountingFactory factory = new CountingFactory(broker.connectionFactory());
        LocalOrJtaBatch batches = new LocalOrJtaBatch(factory.proxy, "a server's factory", UNUSED);
        try (JmsPublisher publisher = new JmsPublisher(factory.proxy, broker.queue(), "outbox.events", batches)) {
            for (int i = 0; i < 3; i++) {
                assertThat(publisher.publishAll(batch(2)).failures()).isEmpty();
                assertThat(factory.open.get()).as("the batch's context is closed when the batch ends").isZero();
            }
            assertThat(batches.usesLocalTransactions()).contains(true);
            assertThat(factory.transacted.get()).as("the probe, then one context for each of the 3 batches").isEqualTo(4);
            assertThat(factory.others.get()).as("no batch failed and went out one message at a time").isZero();
            assertThat(broker.receive(10, 300)).hasSize(6);
        }
    }

    @Test
    void onlyArtemisOwnClientFactoryKeepsAContextBetweenBatches() {
        assertThat(LocalOrJtaBatch.plainArtemisClient(broker.connectionFactory())).isTrue();
        assertThat(LocalOrJtaBatch.plainArtemisClient(new CountingFactory(broker.connectionFactory()).proxy)).isFalse();
    }

    /** A factory the relay does not know (as a server's own would be), counting the contexts it hands out and those still open. */
    private static final class CountingFactory {
        final java.util.concurrent.atomic.AtomicInteger transacted = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger others = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger();
        final jakarta.jms.ConnectionFactory proxy;

        CountingFactory(jakarta.jms.ConnectionFactory real) {
            proxy = (jakarta.jms.ConnectionFactory) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {jakarta.jms.ConnectionFactory.class}, (p, method, args) -> {
                        Object result = invoke(real, method, args);
                        if (!(result instanceof jakarta.jms.JMSContext context)) {
                            return result;
                        }
                        if (args != null && args.length == 1 && Integer.valueOf(jakarta.jms.JMSContext.SESSION_TRANSACTED).equals(args[0])) {
                            transacted.incrementAndGet();
                        } else {
                            others.incrementAndGet();
                        }
                        open.incrementAndGet();
                        return counted(context);
                    });
        }

        private jakarta.jms.JMSContext counted(jakarta.jms.JMSContext context) {
            java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
            return (jakarta.jms.JMSContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {jakarta.jms.JMSContext.class}, (p, method, args) -> {
                        if (method.getName().equals("close") && closed.compareAndSet(false, true)) {
                            open.decrementAndGet();
                        }
                        return invoke(context, method, args);
                    });
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    @Test
    void aResourceAdaptersFactoryIsContainerManagedAndAPlainOneIsNot() {
        assertThat(LocalOrJtaBatch.containerManaged(broker.connectionFactory())).isFalse();
        assertThat(LocalOrJtaBatch.containerManaged(new AdapterFactory())).isTrue();
    }

    /** What a resource adapter's connection factory implements, by the Connectors specification. */
    private static final class AdapterFactory implements jakarta.resource.Referenceable, java.io.Serializable {
        @Override
        public void setReference(Reference reference) {
        }

        @Override
        public Reference getReference() {
            return null;
        }
    }
}
