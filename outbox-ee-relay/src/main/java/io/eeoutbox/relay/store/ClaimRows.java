package io.eeoutbox.relay.store;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.TraceContext;
import io.eeoutbox.jpa.generated.CompleteAndClaimOutboxBatchOrderedRow;
import io.eeoutbox.relay.store.OutboxStore.Claim;
import io.eeoutbox.relay.store.OutboxStore.Claimed;
import io.eeoutbox.relay.store.OutboxStore.CompletedAndClaimed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The rows of the relay's claim statements, as the drain reads them. */
final class ClaimRows {

    private ClaimRows() {
    }

    /** A claimed row as the relay publishes it: its delivery attempt is the one after those recorded. */
    static OutboxMessage message(UUID id, long seq, String eventType, String payload, String aggregateType,
                                 String aggregateId, Instant createdAt, int attempts, String trace) {
        return new OutboxMessage(id, seq, eventType, payload, new OutboxMessage.Aggregate(aggregateType, aggregateId),
                new OutboxMessage.Delivery(createdAt, attempts + 1, TraceContext.fromStoredTextOrNull(trace, id)));
    }

    /**
     * {@code CompleteAndClaimOutboxBatchOrdered} (V11): every row carries {@code completed}; the last one, with a
     * NULL id, carries {@code walk_next}.
     */
    static CompletedAndClaimed ordered(List<CompleteAndClaimOutboxBatchOrderedRow> rows, Claim next) {
        int completed = 0;
        long payloadBytes = 0;
        long walkNext = next.minSeq();
        List<OutboxMessage> messages = new ArrayList<>(rows.size());
        for (CompleteAndClaimOutboxBatchOrderedRow r : rows) {
            completed = r.completed();
            if (r.id() == null) {
                walkNext = r.walkNext() != null ? r.walkNext() : walkNext;
            } else {
                payloadBytes += r.payloadBytes();
                messages.add(message(r.id(), r.seq(), r.eventType(), r.payload(), r.aggregateType(), r.aggregateId(),
                        r.createdAt(), r.attempts(), r.tracingspancontext()));
            }
        }
        return new CompletedAndClaimed(completed, messages, Claimed.full(next, messages.size(), payloadBytes), walkNext);
    }
}
