package io.eeoutbox.relay.window;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.sample.it.Await;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the window tests do to and read from WildFly's broker, inside the server: stop and start its in-VM acceptor
 * (the fault suite's broker outage, through the management model), read a queue, and find heuristic outcomes in the
 * transaction log store.
 */
final class BrokerControl {

    private static final String ACCEPTOR = "jboss.as:subsystem=messaging-activemq,server=default,in-vm-acceptor=in-vm";

    private BrokerControl() {
    }

    static void stop() {
        acceptor("stop");
    }

    static void start() {
        acceptor("start");
    }

    static void startIfStopped() {
        try {
            if (!Boolean.TRUE.equals(ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(ACCEPTOR), "started"))) {
                start();
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading " + ACCEPTOR + " failed", e);
        }
    }

    private static void acceptor(String operation) {
        try {
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(ACCEPTOR), operation, new Object[0], new String[0]);
        } catch (Exception e) {
            throw new IllegalStateException(operation + " of " + ACCEPTOR + " failed", e);
        }
    }

    /** Waits until {@code done} holds or {@code bound} has passed; says which. */
    static boolean within(Duration bound, BooleanSupplier done) throws Exception {
        try {
            Await.until(bound, done::getAsBoolean, d -> d, "a condition");
            return true;
        } catch (AssertionError notWithin) {
            return false;
        }
    }

    /**
     * Reads the queue until every id in {@code expected} was seen or {@code patience} ran out; returns what was seen.
     * It reads with client acknowledgement, acknowledging a message only once it is counted, so that a failure while
     * reading loses nothing of what the broker stored; after a failure it waits until the broker takes connections.
     */
    static Set<String> drain(ConnectionFactory factory, Queue queue, Set<String> expected, Duration patience) throws Exception {
        Set<String> seen = new HashSet<>();
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            try (JMSContext context = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
                 JMSConsumer consumer = context.createConsumer(queue)) {
                while (System.nanoTime() < deadline) {
                    Message m = consumer.receive(seen.containsAll(expected) ? 300 : 1_000);
                    if (m == null) {
                        if (seen.containsAll(expected)) {
                            return seen;
                        }
                        continue;
                    }
                    seen.add(m.getStringProperty(MessageHeaders.EVENT_ID));
                    m.acknowledge();
                }
            } catch (JMSRuntimeException | jakarta.jms.JMSException e) {
                within(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), () -> reachable(factory));
            }
        }
        return seen;
    }

    private static boolean reachable(ConnectionFactory factory) {
        try (JMSContext context = factory.createContext()) {
            context.createProducer();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The heuristic participants in WildFly's transaction log store (after a probe): a heuristic outcome stays there
     * until an operator deletes it, while a transaction that recovery has still to finish is not counted. Tests
     * share the server, so each compares the store after its run with the store before it ({@link #newIn}).
     */
    static Set<ObjectName> heuristicParticipants() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        server.invoke(new ObjectName("jboss.as:subsystem=transactions,log-store=log-store"), "probe", new Object[0],
                new String[0]);
        Set<ObjectName> heuristic = new HashSet<>();
        for (ObjectName participant : server.queryNames(
                new ObjectName("jboss.as:subsystem=transactions,log-store=log-store,transactions=*,participants=*"), null)) {
            try {
                if ("HEURISTIC".equals(String.valueOf(server.getAttribute(participant, "status")))) {
                    heuristic.add(participant);
                }
            } catch (javax.management.InstanceNotFoundException gone) {
                // finished by recovery meanwhile
            }
        }
        return heuristic;
    }

    /** How many heuristic participants the log store holds now that it did not hold in {@code before}. */
    static long newIn(Set<ObjectName> before) throws Exception {
        Set<ObjectName> now = new HashSet<>(heuristicParticipants());
        now.removeAll(before);
        return now.size();
    }
}
