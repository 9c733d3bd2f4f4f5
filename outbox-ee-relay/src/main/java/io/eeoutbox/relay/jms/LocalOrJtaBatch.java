package io.eeoutbox.relay.jms;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.transaction.UserTransaction;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * The shipped JMS publisher's batch transaction inside a server: a <em>local</em> JMS transaction when the
 * configured connection factory gives one (a plain client factory, such as a WildFly {@code connection-factory}),
 * and a JTA transaction that holds only the JMS resource otherwise: for a container-managed (resource adapter)
 * factory, whose contexts are pooled handles that must not be kept between batches, and for any factory that
 * gives no transacted context outside JTA.
 *
 * <p>Why local first (docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md): a broker outage must
 * leave nothing behind for an operator. In a JTA transaction, a one-phase commit that fails on a lost
 * connection, or on a message Artemis already has, is a heuristic hazard that Narayana keeps in its log store
 * until someone deletes it, and WildFly's pool can keep handing out the destroyed connection afterwards. A
 * local transaction has neither: its commit succeeds only when the broker stored the whole batch, and fails
 * otherwise.
 *
 * <p>On the local path, a plain Artemis client factory (a WildFly {@code connection-factory}) keeps one context
 * between batches, as its connection is costly to open; any other factory that gives local transactions gets a
 * context for each batch ({@link JmsPublisher.BatchTransaction#contextPerBatch}), since its contexts may be the
 * server's pooled handles (Open Liberty's default factory, which does not declare itself a resource adapter's:
 * docs/results/relay/liberty-default-factory-path-2026-12-02.md).
 *
 * <p>The choice is made at the first batch that reaches the broker (a factory cannot be asked while the broker is
 * down) and logged once.
 */
public final class LocalOrJtaBatch implements JmsPublisher.BatchTransaction {

    private static final Logger LOG = Logger.getLogger(LocalOrJtaBatch.class.getName());

    private final ConnectionFactory connectionFactory;
    private final String factoryName;
    private final JmsPublisher.BatchTransaction local;
    private final JmsPublisher.BatchTransaction perBatch;
    private final JmsPublisher.BatchTransaction jta;
    private volatile JmsPublisher.BatchTransaction chosen;

    public LocalOrJtaBatch(ConnectionFactory connectionFactory, String factoryName, UserTransaction transaction) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.factoryName = factoryName;
        this.local = JmsPublisher.BatchTransaction.sessionTransacted(connectionFactory);
        this.perBatch = JmsPublisher.BatchTransaction.contextPerBatch(connectionFactory);
        this.jta = new UserTransactionBatch(connectionFactory, transaction);
    }

    @Override
    public void run(JmsPublisher.BatchWork work) throws Exception {
        choose().run(work);
    }

    /** Whether batches go in local JMS transactions; empty until the first batch reached the broker. */
    public java.util.Optional<Boolean> usesLocalTransactions() {
        JmsPublisher.BatchTransaction c = chosen;
        return c == null ? java.util.Optional.empty() : java.util.Optional.of(c != jta);
    }

    private JmsPublisher.BatchTransaction choose() {
        JmsPublisher.BatchTransaction c = chosen;
        if (c != null) {
            return c;
        }
        boolean transacted = givesLocalTransactions();
        boolean kept = transacted && plainArtemisClient(connectionFactory);
        chosen = !transacted ? jta : kept ? local : perBatch;
        String factory = factoryName + " (" + connectionFactory.getClass().getName() + ")";
        LOG.info(() -> "ee-outbox relay: each batch is sent in " + (transacted
                ? "a local JMS transaction of " + factory + (kept ? ", on one context kept between batches"
                        : ", on a context of its own (the factory is not known as a plain client)")
                : "a JTA transaction holding only " + factory + " (the factory gives no local JMS transactions;"
                        + " a plain client connection factory avoids JTA and its heuristic outcomes, see"
                        + " docs/operations.md)"));
        return chosen;
    }

    private boolean givesLocalTransactions() {
        if (containerManaged(connectionFactory)) {
            // A resource adapter's factory: its contexts are pooled handles of the container, not to be kept
            // across batches and threads, and local transactions outside JTA are refused or ignored.
            return false;
        }
        try (JMSContext probe = connectionFactory.createContext(JMSContext.SESSION_TRANSACTED)) {
            return probe.getTransacted();
        } catch (JMSRuntimeException e) {
            if (JmsFailures.isBrokerUnreachable(e)) {
                throw e; // the broker is down: no answer yet, the batch fails as "broker unavailable"
            }
            return false; // a container-managed factory refuses local transactions outside JTA
        }
    }

    /**
     * Whether the factory is a resource adapter's (Jakarta Connectors require connection factories to implement
     * {@code jakarta.resource.Referenceable}); looked up by name, so that a server without the Connectors API
     * visible to the application is no problem.
     */
    static boolean containerManaged(Object factory) {
        for (Class<?> c = factory.getClass(); c != null; c = c.getSuperclass()) {
            if (implementsByName(c, "jakarta.resource.Referenceable")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the factory is Artemis' own client factory (WildFly's {@code connection-factory}, or used outside a server). */
    static boolean plainArtemisClient(Object factory) {
        for (Class<?> c = factory.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory")) {
                return true;
            }
        }
        return false;
    }

    private static boolean implementsByName(Class<?> type, String name) {
        for (Class<?> i : type.getInterfaces()) {
            if (i.getName().equals(name) || implementsByName(i, name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        local.close();
        perBatch.close();
    }
}
