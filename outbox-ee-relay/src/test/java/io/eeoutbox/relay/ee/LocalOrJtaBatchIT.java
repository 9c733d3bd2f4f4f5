package io.eeoutbox.relay.ee;

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
 * that answers; a resource adapter's factory is recognised by the Connectors contract.
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
