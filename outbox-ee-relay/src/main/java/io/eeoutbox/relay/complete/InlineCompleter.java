package io.eeoutbox.relay.complete;

import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;

/** Completes each batch on the drain's own session before the next claim: one connection, no overlap. */
public final class InlineCompleter implements Completer {

    private final OutboxStore.Session session;

    public InlineCompleter(OutboxStore.Session session) {
        this.session = session;
    }

    @Override
    public boolean inline() {
        return true;
    }

    @Override
    public void submit(Completion completion) throws SQLException {
        completion.run(session);
    }

    @Override
    public void flush() {
        // nothing is ever in flight
    }

    @Override
    public void close() {
        // the session belongs to the drain
    }
}
