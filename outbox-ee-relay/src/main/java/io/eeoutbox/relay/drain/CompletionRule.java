package io.eeoutbox.relay.drain;

import io.eeoutbox.relay.store.OutboxStore;
import java.util.concurrent.Executor;

/**
 * The one place that picks how a batch is completed (see {@link Completer}); the reasons are in
 * docs/development.md ("How the relay works inside") and decision 0002.
 */
final class CompletionRule {

    /**
     * With a completion executor, a batch is completed with the next claim only when publishing it took
     * less than this: a slower publisher (a broker) leaves time to complete the previous batch on the second
     * connection meanwhile, a faster one (measured: a no-op) leaves nothing to overlap.
     */
    static final long FUSE_BELOW_NANOS = 2_000_000L;

    private CompletionRule() {
    }

    /** Inline on the drain's session without an executor; pipelined on a second connection with one. */
    static Completer completerFor(OutboxStore store, OutboxStore.Session drainSession, Executor completionExecutor) {
        return completionExecutor == null ? new InlineCompleter(drainSession)
                : new PipelinedCompleter(store, completionExecutor);
    }

    /**
     * Whether a batch rides on the next claim ({@link CarriedBatch}): only when that is switched on, the batch
     * was full (so a next claim follows at once) and published whole, the drain may go on claiming, and either
     * completions run inline or publishing was fast (see {@link #FUSE_BELOW_NANOS}).
     */
    static boolean withNextClaim(boolean fusedEnabled, Completer completer, long publishNanos, boolean full,
                                 boolean allPublished, boolean mayClaim) {
        return fusedEnabled && full && allPublished && mayClaim
                && (completer.inline() || publishNanos < FUSE_BELOW_NANOS);
    }
}
