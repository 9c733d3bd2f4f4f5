package io.eeoutbox.relay.jms;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A batch in a local JMS transaction: a {@code SESSION_TRANSACTED} context committed after the batch's last send.
 * The context is either kept between batches (a new one after any failure:
 * {@link JmsPublisher.BatchTransaction#sessionTransacted}) or made for each batch and closed when it ends, within
 * the executor task that runs it ({@link JmsPublisher.BatchTransaction#contextPerBatch},
 * docs/decisions/0013-a-context-per-batch-unless-a-plain-client-factory.md).
 *
 * <p>Either way: {@link #run} returns only after a commit that returned, and then the broker has the batch whatever
 * the close does; after any failure the context is rolled back and closed, whatever the rollback throws, so the next
 * batch's commit cannot carry this one's messages; a failed rollback or close is kept on the batch's own failure.
 */
final class SessionTransacted implements JmsPublisher.BatchTransaction {

    private static final Logger LOG = Logger.getLogger(SessionTransacted.class.getName());

    private final ConnectionFactory connectionFactory;
    private final boolean keptBetweenBatches;
    private final ReentrantLock lock = new ReentrantLock();
    private JMSContext context; // guarded by lock
    /** Set by {@link #close()} while a batch runs: the batch closes the context when it ends. */
    private volatile boolean closeRequested;

    SessionTransacted(ConnectionFactory connectionFactory, boolean keptBetweenBatches) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.keptBetweenBatches = keptBetweenBatches;
    }

    @Override
    public void run(JmsPublisher.BatchWork work) throws Exception {
        lock.lock();
        try {
            if (context == null) {
                context = connectionFactory.createContext(JMSContext.SESSION_TRANSACTED);
            }
            boolean committed = false;
            Throwable failure = null;
            try {
                work.sendAll(context);
                context.commit();
                committed = true;
            } catch (Exception | Error e) { // an Error too: its messages must not ride on the next commit
                failure = e;
                try {
                    context.rollback();
                } catch (RuntimeException rollbackFailure) {
                    suppress(e, rollbackFailure);
                }
                throw e;
            } finally {
                if (!committed || !keptBetweenBatches) {
                    closeContext(failure);
                }
            }
        } finally {
            lock.unlock();
        }
        // after unlocking: a close() that found the lock taken has set the flag before its tryLock failed
        if (closeRequested && lock.tryLock()) {
            try {
                closeContext(null);
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Closes the context now when no batch is running; else the running batch closes it when it ends, so that an
     * undeploy does not wait for a send that blocks (a full address with the BLOCK policy).
     */
    @Override
    public void close() {
        closeRequested = true;
        if (lock.tryLock()) {
            try {
                closeContext(null);
            } finally {
                lock.unlock();
            }
        }
    }

    /** @param failure the batch's own failure, which keeps a failed close; null after a commit (logged at FINE) */
    private void closeContext(Throwable failure) {
        JMSContext closing = context;
        context = null; // first: a close that throws leaves no half-closed context for the next batch
        if (closing == null) {
            return;
        }
        try {
            closing.close();
        } catch (RuntimeException e) {
            if (failure != null) {
                suppress(failure, e);
            } else {
                LOG.log(Level.FINE, "closing the JMS context failed", e);
            }
        }
    }

    private static void suppress(Throwable failure, Throwable other) {
        if (other != failure) { // a provider may throw the same instance again: a throwable cannot suppress itself
            failure.addSuppressed(other);
        }
    }
}
