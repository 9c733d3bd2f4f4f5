package io.eeoutbox.relay.complete;

import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;

/**
 * Runs the statements that complete a batch ({@link BatchCompletion}) by one of two routes:
 * {@link InlineCompleter} (on the drain's own session, before the next claim) or {@link PipelinedCompleter}
 * (on a second connection while the next batch is claimed and published). The third route, completing a
 * batch with the next claim's own statement, is {@link CarriedBatch}. {@link CompletionRule} picks.
 */
public interface Completer extends AutoCloseable {

    /** The statements that complete one batch. */
    @FunctionalInterface
    interface Completion {
        void run(OutboxStore.Session session) throws SQLException;
    }

    /** True when completions run on the drain's session, before {@link #submit} returns. */
    boolean inline();

    /** Waits for the completion in flight, if any, then starts this one. */
    void submit(Completion completion) throws SQLException;

    /** Waits for (or runs) the completion in flight; rethrows its failure. */
    void flush() throws SQLException;

    /** Waits for the completion in flight without throwing, and releases what the completer holds. */
    @Override
    void close() throws SQLException;
}
