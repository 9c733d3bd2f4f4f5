package io.eeoutbox.relay.complete;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.spi.RelayListener;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The third completion route: a full batch that was published whole is completed by the next claim's own
 * statement ({@code OutboxStore.Session#completeAndClaim}: one transaction, one commit per batch), or, when
 * the drain ends, by a statement of its own. {@link #done} reports it once its rows are marked (or deleted).
 */
public final class CarriedBatch {

    private final UUID token;
    private final List<OutboxMessage> published;
    private final long startedNanos;

    public CarriedBatch(UUID token, List<OutboxMessage> published, long startedNanos) {
        this.token = token;
        this.published = published;
        this.startedNanos = startedNanos;
    }

    public UUID token() {
        return token;
    }

    public List<OutboxMessage> published() {
        return published;
    }

    public List<UUID> ids() {
        return BatchCompletion.ids(published);
    }

    public void done(int completed, long nowNanos, BatchCompletion completion, RelayCounters counters, RelayListener listener) {
        completion.warnIfNotAllCompleted(published.size(), completed);
        long elapsed = nowNanos - startedNanos;
        counters.batch(published.size(), 0, elapsed);
        listener.batchCompleted(published.size(), published.size(), 0, Duration.ofNanos(elapsed));
    }
}
