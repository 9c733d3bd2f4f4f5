package io.eeoutbox.relay.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.jms.LocalOrJtaBatch;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.sample.it.Deployments;
import io.eeoutbox.spi.PublishResult;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The first instant of a broker outage as the fault suite's broker outage meets it: the relay busy, sending
 * batches of one or two events (a few orders a second, busy poll), when the broker goes away. Several threads
 * send tiny batches as fast as they can while the broker's in-VM acceptor is stopped and started again, so that
 * many batches begin while the server is still handling the failed connections. Every message reported
 * published must be stored.
 *
 * <p>The storm goes through the relay's own publisher as the sample configures it: nothing lost, no heuristic
 * transaction left. Before the fix of docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md the same
 * storm lost 1 to 7 messages per run.
 */
@Tag("in-server")
@Tag("wildfly-only")
@ExtendWith(ArquillianExtension.class)
@JMSDestinationDefinition(name = TinyBatchRaceIT.QUEUE, interfaceName = "jakarta.jms.Queue",
        destinationName = "eeOutboxTinyBatchRace")
class TinyBatchRaceIT {

    static final String QUEUE = "java:app/jms/eeOutboxTinyBatchRace";
    private static final int SENDERS = 4;
    private static final int OUTAGES = Integer.getInteger("race.outages", 15);

    @Deployment
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME).addClasses(TinyBatchRaceIT.class, BrokerControl.class,
                io.eeoutbox.sample.it.Await.class);
    }

    @Resource(lookup = "java:/jms/OutboxRelayConnectionFactory")
    private ConnectionFactory relayFactory;

    @Resource(lookup = "java:comp/DefaultJMSConnectionFactory")
    private ConnectionFactory consumerFactory;

    @Resource(lookup = QUEUE)
    private Queue queue;

    @Resource
    private UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    private ManagedExecutorService workers;

    @Test
    void tinyBatchesAtTheStartOfOutagesLoseNothing() throws Exception {
        long seed = Long.getLong("race.seed", System.nanoTime());
        BrokerControl.drain(relayFactory, queue, Set.of(), Duration.ofMillis(300));
        Set<ObjectName> logStoreBefore = BrokerControl.heuristicParticipants();
        Storm relay = storm(new Random(seed), () -> new JmsPublisher(relayFactory, queue, QUEUE,
                new LocalOrJtaBatch(relayFactory, "the relay's factory", transaction)));
        long relayHeuristics = BrokerControl.newIn(logStoreBefore);
        System.out.println("tiny batch race: seed=" + seed + " outages=" + OUTAGES + " senders=" + SENDERS + "\n"
                + "  relay's publisher: " + relay + " heuristic_in_log_store=" + relayHeuristics);
        assertTrue(relay.reported > 0, "nothing was published through the relay's publisher: " + relay);
        assertEquals(0, relay.lost.size(), "messages the relay's publisher reported published and the broker never"
                + " stored: " + relay.lost);
        assertEquals(0, relayHeuristics, "heuristic transactions the relay's publisher left in the log store");
    }

    private final class Storm {
        long batches;
        long reported;
        final List<String> lost = new ArrayList<>();

        @Override
        public String toString() {
            return "batches=" + batches + " reported_published=" + reported + " lost=" + lost.size()
                    + (lost.isEmpty() ? "" : " e.g. " + lost.subList(0, Math.min(3, lost.size())));
        }
    }

    private Storm storm(Random random, Supplier<JmsPublisher> publishers) throws Exception {
        Storm storm = new Storm();
        Set<String> published = ConcurrentHashMap.newKeySet();
        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicLong batches = new AtomicLong();
        List<Future<?>> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int sender = s;
            senders.add(workers.submit(() -> {
                try (JmsPublisher publisher = publishers.get()) {
                    long n = 0;
                    while (sending.get()) {
                        List<OutboxMessage> batch = new ArrayList<>();
                        for (int i = 0; i < 1 + (n % 2); i++) {
                            batch.add(new OutboxMessage(UUID.randomUUID(), n, "race.tiny", "{\"n\":" + n + "}",
                                    new OutboxMessage.Aggregate("race", "agg-" + sender),
                                    OutboxMessage.Delivery.of(Instant.now(), 1)));
                        }
                        n++;
                        PublishResult result = publisher.publishAll(batch);
                        batches.incrementAndGet();
                        for (OutboxMessage m : batch) {
                            if (!result.failures().containsKey(m.id())) {
                                published.add(m.id().toString());
                            }
                        }
                    }
                }
                return null;
            }));
        }
        // The schedule follows the senders, not the clock: the broker goes away after a seeded number of batches,
        // comes back after a seeded number of batches sent into the outage (bounded in time: a batch into an outage
        // can take up to the factory's call timeout), and the storm ends once the senders publish again.
        try {
            for (int i = 0; i < OUTAGES; i++) {
                long before = batches.get() + 3 + random.nextInt(30);
                BrokerControl.within(Duration.ofSeconds(2), () -> batches.get() >= before);
                BrokerControl.stop();
                long into = batches.get() + 1 + random.nextInt(8);
                BrokerControl.within(Duration.ofSeconds(1), () -> batches.get() >= into);
                BrokerControl.start();
            }
            int after = published.size() + 20;
            BrokerControl.within(Duration.ofSeconds(10), () -> published.size() >= after);
        } finally {
            sending.set(false);
            BrokerControl.startIfStopped();
        }
        for (Future<?> f : senders) {
            f.get();
        }
        storm.batches = batches.get();
        storm.reported = published.size();
        Set<String> stored = BrokerControl.drain(relayFactory, queue, published, Duration.ofSeconds(30));
        for (String id : published) {
            if (!stored.contains(id)) {
                storm.lost.add(id);
            }
        }
        return storm;
    }
}
