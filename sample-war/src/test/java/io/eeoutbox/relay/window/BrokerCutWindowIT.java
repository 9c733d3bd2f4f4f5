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
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The first instant of a broker outage, aimed at (issue 16, cases 3 and 4): inside WildFly, the shipped
 * {@link JmsPublisher} sends batches through the relay's own connection factory and the broker is cut (its
 * in-VM acceptor stopped through the management model, as the fault suite's broker outage does) at a chosen
 * point of each batch: before the k-th message is created, after the last send and before the commit, a few
 * microseconds into the commit, or at a random instant from another thread. After each cut the broker comes
 * back and the queue is read: every message the publisher reported as published must be there. A message
 * reported published and not stored is an event the relay would mark processed and nobody would ever receive.
 */
@Tag("in-server")
@Tag("wildfly-only")
@ExtendWith(ArquillianExtension.class)
@JMSDestinationDefinition(name = BrokerCutWindowIT.QUEUE, interfaceName = "jakarta.jms.Queue",
        destinationName = "eeOutboxCutWindow")
class BrokerCutWindowIT {

    static final String QUEUE = "java:app/jms/eeOutboxCutWindow";
    /** Batch sizes tried in turn: the relay's default and the size at which the fault suite first lost an event. */
    private static final int[] BATCHES = {100, 500};
    private static final int ROUNDS = Integer.getInteger("window.rounds", 20);

    @Deployment
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME).addClasses(BrokerCutWindowIT.class, BrokerControl.class,
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

    /** Where in a batch the broker goes away. */
    enum Cut {
        /** stopped on the sending thread before the k-th message: the rest of the batch meets a stopped broker */
        BEFORE_MESSAGE_K,
        /** stopping starts on another thread at the k-th message while the batch goes on being sent */
        FROM_MESSAGE_K_CONCURRENTLY,
        /** stopped after the last send, before the commit */
        BEFORE_COMMIT,
        /** stopping starts on another thread a few microseconds before the commit */
        INTO_COMMIT,
        /** stopping starts on another thread at a random instant after the batch began */
        RANDOM_INSTANT
    }

    /** The cut planned for the batch in flight; null for batches sent with the broker left alone. */
    private volatile Plan plan;

    private record Plan(Cut cut, int k, long delayMicros, Cutter cutter) {
    }

    @Test
    void aMessageReportedPublishedIsStoredWhereverTheBrokerIsCut() throws Exception {
        long seed = Long.getLong("window.seed", System.nanoTime());
        Random random = new Random(seed);
        BrokerControl.drain(relayFactory, queue, Set.of(), Duration.ofMillis(200));
        Set<ObjectName> logStoreBefore = BrokerControl.heuristicParticipants();
        // One publisher for the whole run, as the relay keeps one: what a cut leaves behind meets the next batch.
        LocalOrJtaBatch relayBatches = new LocalOrJtaBatch(relayFactory, "the relay's factory", transaction);
        Map<Cut, int[]> outcomes = new LinkedHashMap<>(); // cut -> {batches reported whole, partly, none}
        List<String> lost = new ArrayList<>();
        List<String> neverWholeAgain = new ArrayList<>();
        long reportedPublished = 0;
        long slowestRecoveryMillis = 0;
        try (JmsPublisher publisher = new JmsPublisher(relayFactory, queue, QUEUE, cuttingBatch(relayBatches))) {
            for (int round = 0; round < ROUNDS; round++) {
                Cut cut = Cut.values()[round % Cut.values().length];
                int size = BATCHES[(round / Cut.values().length) % BATCHES.length];
                Plan p = new Plan(cut, 1 + random.nextInt(size), random.nextInt(cut == Cut.RANDOM_INSTANT ? 20_000 : 3_000),
                        new Cutter());
                List<OutboxMessage> batch = batch(round, size);
                plan = p;
                if (cut == Cut.RANDOM_INSTANT) {
                    p.cutter().later(p.delayMicros());
                }
                PublishResult result = publisher.publishAll(batch);
                p.cutter().awaitDone();
                plan = null;
                if (!p.cutter().cut()) {
                    p.cutter().cutNow(); // the batch went through before the cut: cut anyway, the outage is the same
                }
                BrokerControl.start();
                Set<String> published = publishedIds(batch, result);
                int[] o = outcomes.computeIfAbsent(cut, c -> new int[3]);
                o[published.size() == batch.size() ? 0 : published.isEmpty() ? 2 : 1]++;

                // The broker is back: the same publisher must send a batch whole, in one transaction, within seconds.
                long back = System.nanoTime();
                int thisRound = round;
                boolean whole = BrokerControl.within(Duration.ofSeconds(15), () -> {
                    List<OutboxMessage> next = batch(10_000 + thisRound, 20);
                    Cutter watcher = new Cutter();
                    plan = new Plan(null, 0, 0, watcher);
                    PublishResult r = publisher.publishAll(next);
                    plan = null;
                    published.addAll(publishedIds(next, r));
                    return r.failures().isEmpty() && watcher.batchFailure == null;
                });
                slowestRecoveryMillis = Math.max(slowestRecoveryMillis, (System.nanoTime() - back) / 1_000_000);
                if (!whole) {
                    neverWholeAgain.add("round " + round + " " + cut);
                }
                reportedPublished += published.size();
                Set<String> stored = BrokerControl.drain(relayFactory, queue, published, Duration.ofSeconds(20));
                for (String id : published) {
                    if (!stored.contains(id)) {
                        lost.add("round " + round + " cut " + cut + " batch=" + size + " k=" + p.k() + " delay="
                                + p.delayMicros() + "us id " + id);
                    }
                }
            }
        }
        long heuristic = BrokerControl.newIn(logStoreBefore);
        StringBuilder report = new StringBuilder("broker cut window: seed=" + seed + " rounds=" + ROUNDS
                + " local_transactions=" + relayBatches.usesLocalTransactions().orElse(null)
                + " reported_published=" + reportedPublished + " lost=" + lost.size()
                + " slowest_whole_batch_after_broker_back_ms=" + slowestRecoveryMillis
                + " rounds_without_a_whole_batch_after=" + neverWholeAgain.size()
                + " heuristic_in_log_store=" + heuristic + "\n");
        outcomes.forEach((c, o) -> report.append("  ").append(c).append(": batches reported whole ").append(o[0])
                .append(", partly ").append(o[1]).append(", none ").append(o[2]).append('\n'));
        lost.forEach(l -> report.append("  LOST ").append(l).append('\n'));
        System.out.println(report);
        assertTrue(reportedPublished > 0, "no batch was reported published at all\n" + report);
        assertEquals(List.of(), lost, "messages reported published that the broker never stored\n" + report);
        assertEquals(List.of(), neverWholeAgain, "after the broker came back, no batch went through in one transaction"
                + " within 15 s (the relay would send everything one by one)\n" + report);
        assertEquals(0, heuristic, "heuristic transactions left in the transaction log store\n" + report);
    }

    private static Set<String> publishedIds(List<OutboxMessage> batch, PublishResult result) {
        Set<String> published = new HashSet<>();
        for (OutboxMessage m : batch) {
            if (!result.failures().containsKey(m.id())) {
                published.add(m.id().toString());
            }
        }
        return published;
    }


    private static String chain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (; t != null; t = t.getCause()) {
            b.append(" <- ").append(t);
        }
        return b.toString();
    }

    private static List<OutboxMessage> batch(int round, int size) {
        List<OutboxMessage> batch = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            UUID id = UUID.randomUUID();
            batch.add(new OutboxMessage(id, round * 1_000L + i, "window.cut", "{\"round\":" + round + ",\"i\":" + i + "}",
                    new OutboxMessage.Aggregate("window", "agg-" + round + "-" + (i % 7)),
                    OutboxMessage.Delivery.of(Instant.now(), 1)));
        }
        return batch;
    }

    /** The relay's batch transaction with the planned cut placed inside it. */
    private JmsPublisher.BatchTransaction cuttingBatch(JmsPublisher.BatchTransaction real) {
        return new JmsPublisher.BatchTransaction() {
            @Override
            public void close() {
                real.close();
            }

            @Override
            public void run(JmsPublisher.BatchWork work) throws Exception {
                Plan p = plan;
                try {
                    real.run(context -> {
                        Cut cut = p == null ? null : p.cut();
                        if (cut == Cut.BEFORE_MESSAGE_K || cut == Cut.FROM_MESSAGE_K_CONCURRENTLY) {
                            work.sendAll(cutBeforeMessage(context, p.k(), p.cutter(), cut == Cut.FROM_MESSAGE_K_CONCURRENTLY));
                        } else {
                            work.sendAll(context);
                        }
                        if (cut == Cut.BEFORE_COMMIT) {
                            p.cutter().cutNow();
                        } else if (cut == Cut.INTO_COMMIT) {
                            p.cutter().later(p.delayMicros());
                        }
                    });
                } catch (Exception e) {
                    if (p != null) {
                        p.cutter().batchFailure = e;
                    }
                    throw e;
                }
            }
        };
    }

    /** A context that cuts the broker when the k-th message is about to be created. */
    private static JMSContext cutBeforeMessage(JMSContext context, int k, Cutter cutter, boolean concurrently) {
        AtomicInteger created = new AtomicInteger();
        return (JMSContext) Proxy.newProxyInstance(JMSContext.class.getClassLoader(), new Class<?>[] {JMSContext.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("createTextMessage") && created.incrementAndGet() == k) {
                        if (concurrently) {
                            cutter.later(0);
                        } else {
                            cutter.cutNow();
                        }
                    }
                    try {
                        return method.invoke(context, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Stops the broker's in-VM acceptor, now or from another thread after a delay; once per batch. */
    private static final class Cutter {
        private volatile boolean cut;
        volatile Exception batchFailure;
        private Thread thread;

        void cutNow() {
            if (!cut) {
                cut = true;
                BrokerControl.stop();
            }
        }

        void later(long delayMicros) {
            thread = new Thread(() -> {
                long until = System.nanoTime() + delayMicros * 1_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                cutNow();
            }, "broker-cutter");
            thread.start();
        }

        void awaitDone() throws InterruptedException {
            if (thread != null) {
                thread.join();
            }
        }

        boolean cut() {
            return cut;
        }
    }
}
