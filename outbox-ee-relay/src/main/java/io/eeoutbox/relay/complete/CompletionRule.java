package io.eeoutbox.relay.complete;

import io.eeoutbox.relay.store.OutboxStore;
import java.util.concurrent.Executor;

/**
 * The one place that picks how a batch is completed (see {@link Completer}); the reasons are in
 * docs/development.md ("How the relay works inside") and decision 0002.
 */
public final class CompletionRule {

    /**
     * With a completion executor, a batch is completed with the next claim only when publishing it took
     * less than this: a slower publisher (a broker) leaves time to complete the previous batch on the second
     * connection meanwhile, a faster one (measured: a no-op) leaves nothing to overlap.
     */
    static final long FUSE_BELOW_NANOS = 2_000_000L;

    private CompletionRule() {
    }

    /** Inline on the drain's session without an executor; pipelined on a second connection with one. */
    public static Completer completerFor(OutboxStore store, OutboxStore.Session drainSession, Executor completionExecutor) {
        return completionExecutor == null ? new InlineCompleter(drainSession)
                : new PipelinedCompleter(store, completionExecutor);
    }

    /**
     * Whether a batch rides on the next claim ({@link CarriedBatch}): only when that is switched on, a next claim
     * follows at once ({@code claimFollows}: the batch was full, or ordered mode, which claims again after any
     * batch that published), the batch was published whole, the drain may go on claiming, and either
     * completions run inline, publishing was fast (see {@link #FUSE_BELOW_NANOS}), or the mode is ordered: there
     * the next claim must see this batch completed (its aggregates' next events are due only then), so there is
     * nothing to overlap and one statement does both.
     */
    public static boolean withNextClaim(boolean fusedEnabled, Completer completer, long publishNanos, boolean claimFollows,
                                 boolean allPublished, boolean mayClaim, boolean ordered) {
        return fusedEnabled && claimFollows && allPublished && mayClaim
                && (ordered || completer.inline() || publishNanos < FUSE_BELOW_NANOS);
    }
}
