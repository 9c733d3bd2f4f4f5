package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.jms.JmsPublisher;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A batch in a local JMS transaction on a context of its own: created when the batch starts, committed, and closed
 * when it ends, all within the executor task that runs the batch. For a factory whose contexts may be the server's
 * pooled handles (Open Liberty's default factory): such a handle belongs to the unit of work that got it, and one
 * kept across tasks can enlist in a local transaction containment that has already ended
 * (docs/results/relay/liberty-default-factory-path-2026-12-02.md). The server's pool keeps the creation cheap.
 */
final class PerBatchContext implements JmsPublisher.BatchTransaction {

    private static final Logger LOG = Logger.getLogger(PerBatchContext.class.getName());

    private final ConnectionFactory connectionFactory;

    PerBatchContext(ConnectionFactory connectionFactory) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
    }

    @Override
    public void run(JmsPublisher.BatchWork work) throws Exception {
        JMSContext context = connectionFactory.createContext(JMSContext.SESSION_TRANSACTED);
        Throwable failure = null;
        try {
            work.sendAll(context);
            context.commit();
        } catch (Exception | Error e) {
            failure = e;
            try {
                context.rollback();
            } catch (RuntimeException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        } finally {
            close(context, failure); // after a commit that returned, the broker has the batch whatever the close does
        }
    }

    private static void close(JMSContext context, Throwable failure) {
        try {
            context.close();
        } catch (RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                LOG.log(Level.FINE, "closing a committed batch's JMS context failed", e);
            }
        }
    }
}
