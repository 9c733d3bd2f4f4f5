package io.eeoutbox.relay.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.EmbeddedBroker;
import io.eeoutbox.spi.PublishResult;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JMS publisher against a real Artemis broker. */
class JmsPublisherIT {

    private EmbeddedBroker broker;

    @BeforeEach
    void setUp() throws Exception {
        broker = new EmbeddedBroker();
    }

    @AfterEach
    void tearDown() throws Exception {
        broker.close();
    }

    private static List<OutboxMessage> batch(String... eventTypes) {
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = 0; i < eventTypes.length; i++) {
            batch.add(new OutboxMessage(UUID.randomUUID(), i + 1, eventTypes[i], "{\"i\":" + i + "}",
                    new OutboxMessage.Aggregate("order", "o" + i),
                    OutboxMessage.Delivery.of(Instant.parse("2026-01-01T00:00:00Z"), 1)));
        }
        return batch;
    }

    private static String id(Message m) {
        try {
            return m.getStringProperty(MessageHeaders.EVENT_ID);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBatchIsStoredByTheBrokerInOneTransaction() {
        try (JmsPublisher publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue())) {
            List<OutboxMessage> batch = batch("a", "b", "c");
            assertThat(publisher.publishAll(batch).failures()).isEmpty();
            assertThat(broker.receive(10, 300)).extracting(JmsPublisherIT::id)
                    .containsExactly(batch.stream().map(m -> m.id().toString()).toArray(String[]::new));
        }
    }

    @Test
    void closingWhileABatchIsSendingDoesNotWaitForItAndTheBatchStillCommits() throws Exception {
        // an undeploy closes the publisher while a send may block (a full address with the BLOCK policy)
        JmsPublisher.BatchTransaction tx = JmsPublisher.BatchTransaction.sessionTransacted(broker.connectionFactory());
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> batch = threads.submit(() -> {
                tx.run(context -> {
                    context.createProducer().send(broker.queue(), "held");
                    sending.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                return null;
            });
            assertThat(sending.await(10, TimeUnit.SECONDS)).as("the batch is sending").isTrue();
            threads.submit(tx::close).get(10, TimeUnit.SECONDS); // a TimeoutException: close waited for the batch
            assertThat(batch.isDone()).as("the batch still runs").isFalse();
            release.countDown();
            batch.get(10, TimeUnit.SECONDS);
            assertThat(broker.receive(10, 300)).singleElement()
                    .satisfies(m -> assertThat(m.getBody(String.class)).isEqualTo("held"));
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    void whenTheBatchTransactionFailsOneRefusedMessageFailsAloneAndItsNeighboursGoThrough() {
        broker.refuseEventType("order.poison");
        JmsPublisher.BatchTransaction failingCommit = work -> {
            throw new JMSException("commit failed (simulated)");
        };
        try (JmsPublisher publisher = new JmsPublisher(broker.connectionFactory(), broker.queue(), "outbox.events",
                failingCommit)) {
            List<OutboxMessage> batch = batch("order.created", "order.poison", "order.paid");
            PublishResult result = publisher.publishAll(batch);
            assertThat(result.failures()).containsOnlyKeys(batch.get(1).id());
            assertThat(result.failures().get(batch.get(1).id())).hasMessageContaining("refused by the test broker");
            assertThat(broker.receive(10, 300)).extracting(JmsPublisherIT::id)
                    .containsExactly(batch.get(0).id().toString(), batch.get(2).id().toString());
        }
    }

    @Test
    void aBatchSentAgainCommitsAndItsRepeatsReachTheConsumerWithTheirEventIds() {
        try (JmsPublisher publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue())) {
            List<OutboxMessage> batch = batch("a", "b");
            assertThat(publisher.publishAll(batch).failures()).isEmpty();
            // the relay died before marking: the same rows are published again, now with a new neighbour; the
            // batch must not fail for its repeats (Artemis would refuse a whole transaction holding a known
            // duplicate id), and the consumer recognises them by outbox_event_id
            List<OutboxMessage> again = new ArrayList<>(batch);
            again.addAll(batch("c"));
            assertThat(publisher.publishAll(again).failures()).isEmpty();
            assertThat(broker.receive(10, 300)).extracting(JmsPublisherIT::id).containsExactlyInAnyOrder(
                    batch.get(0).id().toString(), batch.get(1).id().toString(),
                    batch.get(0).id().toString(), batch.get(1).id().toString(), again.get(2).id().toString());
        }
    }

    @Test
    void aMessageSentAgainOnItsOwnIsStoredOnceByArtemisDuplicateDetection() {
        try (JmsPublisher publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue())) {
            List<OutboxMessage> one = batch("a");
            assertThat(publisher.publishAll(one).failures()).isEmpty();
            assertThat(publisher.publishAll(one).failures()).isEmpty();
            assertThat(broker.receive(10, 300)).extracting(JmsPublisherIT::id).containsExactly(one.get(0).id().toString());
        }
    }

    /**
     * The broker goes away between the context and its producer (a context creates its session lazily): the
     * message was not sent and must be reported so. It used to be reported published, and the relay marked the
     * row: a lost event (docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md).
     */
    @Test
    void theBrokerGoneBeforeTheProducerExistsFailsTheMessageInsteadOfReportingItPublished() throws Exception {
        org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory real =
                (org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory) broker.connectionFactory();
        real.setCallTimeout(2_000);
        jakarta.jms.ConnectionFactory cutAfterContext = (jakarta.jms.ConnectionFactory) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {jakarta.jms.ConnectionFactory.class}, (proxy, method, args) -> {
                    Object result = method.invoke(real, args);
                    if (method.getName().equals("createContext")) {
                        broker.stop();
                    }
                    return result;
                });
        List<OutboxMessage> one = batch("a");
        try (JmsPublisher publisher = new JmsPublisher(cutAfterContext, broker.queue(), "outbox.events",
                JmsPublisher.BatchTransaction.sessionTransacted(cutAfterContext))) {
            PublishResult result = publisher.publishAll(one);
            assertThat(result.failures()).containsOnlyKeys(one.get(0).id());
            assertThat(result.failures().get(one.get(0).id())).isInstanceOf(io.eeoutbox.spi.BrokerUnavailableException.class);
        } finally {
            broker.restart();
        }
    }

    @Test
    void noBrokerFailsEveryMessageWithoutThrowing() throws Exception {
        JmsPublisher publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
        broker.close();
        List<OutboxMessage> batch = batch("a", "b");
        PublishResult result = publisher.publishAll(batch);
        assertThat(result.failures()).containsOnlyKeys(batch.get(0).id(), batch.get(1).id());
        publisher.close();
        broker = new EmbeddedBroker();
    }

    @Test
    void aFullQueueDefersWhatItCannotTakeAsItsDestinationsOutageAndTakesItOnceConsumed() throws Exception {
        broker.close();
        broker = new EmbeddedBroker(20_000, org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy.FAIL);
        try (JmsPublisher publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue())) {
            int stored = 0;
            PublishResult result = PublishResult.allPublished();
            for (int round = 0; round < 100 && result.failures().isEmpty(); round++) {
                List<OutboxMessage> batch = batch("a", "b", "c", "d", "e");
                result = publisher.publishAll(batch);
                stored += batch.size() - result.failures().size();
            }
            assertThat(result.failures()).as("the queue filled up").isNotEmpty();
            assertThat(result.failures().values()).as("each failure names the full destination, not the message")
                    .allSatisfy(f -> assertThat(f).isInstanceOf(io.eeoutbox.spi.DestinationUnavailableException.class)
                            .hasMessageContaining("is full"));
            assertThat(publisher.publishAll(batch("f")).failures()).as("still full").hasSize(1);

            assertThat(broker.receive(stored + 100, 500)).as("the consumers come back").hasSize(stored);
            List<OutboxMessage> again = batch("g", "h", "i");
            assertThat(publisher.publishAll(again).failures()).as("the destination takes messages again").isEmpty();
        }
    }
}
