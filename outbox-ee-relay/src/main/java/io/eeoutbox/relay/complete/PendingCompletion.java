package io.eeoutbox.relay.complete;

import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/** A completion handed to the executor; whoever starts it first (the executor or the drain) runs it. */
final class PendingCompletion implements Runnable {

    private static final Logger LOG = Logger.getLogger(PendingCompletion.class.getName());

    @FunctionalInterface
    interface Work {
        void run() throws SQLException;
    }

    private final Work work;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Throwable failure;

    PendingCompletion(Work work) {
        this.work = work;
    }

    @Override
    public void run() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        try {
            work.run();
        } catch (Throwable t) {
            failure = t;
        } finally {
            done.countDown();
        }
    }

    /** Runs the work here when nobody has started it, waits for it, and rethrows its failure. */
    void await() throws SQLException {
        run();
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failure;
        if (t instanceof SQLException e) {
            throw e;
        } else if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        } else if (t != null) {
            throw new IllegalStateException(t);
        }
    }

    void awaitQuietly() {
        try {
            await();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "completion failed while the drain was ending", e);
        }
    }
}
