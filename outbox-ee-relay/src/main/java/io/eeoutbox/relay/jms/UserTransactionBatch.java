package io.eeoutbox.relay.jms;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.util.Objects;

/**
 * A batch's JMS sends in one JTA transaction, for the shipped JMS publisher inside a server: a
 * server's JMS context ignores {@code SESSION_TRANSACTED} and enlists in the thread's JTA transaction
 * instead. The transaction holds only the JMS resource (the relay's data source is non-JTA), so it
 * commits in one phase; the context is closed before the commit, as the server defers the close.
 *
 * <p>{@link OutboxRelayBootstrap} uses it for the shipped publisher; an application that builds a relay of its
 * own inside a server ({@code new JmsPublisher(factory, destination, name, new UserTransactionBatch(factory,
 * userTransaction))}) uses it the same way.
 */
public final class UserTransactionBatch implements JmsPublisher.BatchTransaction {

    private final ConnectionFactory connectionFactory;
    private final UserTransaction transaction;

    public UserTransactionBatch(ConnectionFactory connectionFactory, UserTransaction transaction) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.transaction = Objects.requireNonNull(transaction, "transaction");
    }

    @Override
    public void run(JmsPublisher.BatchWork work) throws Exception {
        transaction.begin();
        try {
            try (JMSContext context = connectionFactory.createContext()) {
                work.sendAll(context);
            }
            transaction.commit();
        } catch (Exception | Error e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    /**
     * Ends whatever transaction the failed batch left on this thread, in every state but "none": a transaction
     * left associated (rolled back by a timeout, say) would make the next batch's {@code begin} fail, and a JMS
     * context created on a thread that still has one counts as inside JTA to a resource adapter.
     */
    private void rollbackQuietly(Throwable cause) {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (SystemException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
