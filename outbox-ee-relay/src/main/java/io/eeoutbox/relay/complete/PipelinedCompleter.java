package io.eeoutbox.relay.complete;

import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * Completes batch N on a second connection, on the executor, while batch N+1 is claimed and published: at
 * most one completion in flight; the drain waits for it before handing over the next one, and before it
 * ends. A completion the executor has not started when the drain needs it done is run by the drain itself,
 * so a busy or single-threaded executor never deadlocks the drain.
 */
final class PipelinedCompleter implements Completer {

    private final OutboxStore store;
    private final Executor executor;
    private OutboxStore.Session ownSession;
    private PendingCompletion pending;

    PipelinedCompleter(OutboxStore store, Executor executor) {
        this.store = store;
        this.executor = executor;
    }

    @Override
    public boolean inline() {
        return false;
    }

    @Override
    public void submit(Completion completion) throws SQLException {
        flush();
        OutboxStore.Session s = session();
        pending = new PendingCompletion(() -> completion.run(s));
        try {
            executor.execute(pending);
        } catch (RuntimeException rejected) {
            // run by flush(), on the drain's thread
        }
    }

    @Override
    public void flush() throws SQLException {
        PendingCompletion p = pending;
        pending = null;
        if (p != null) {
            p.await();
        }
    }

    private OutboxStore.Session session() throws SQLException {
        if (ownSession == null) {
            ownSession = store.open();
        }
        return ownSession;
    }

    @Override
    public void close() throws SQLException {
        try {
            PendingCompletion p = pending;
            pending = null;
            if (p != null) {
                p.awaitQuietly();
            }
        } finally {
            if (ownSession != null) {
                ownSession.close();
            }
        }
    }
}
