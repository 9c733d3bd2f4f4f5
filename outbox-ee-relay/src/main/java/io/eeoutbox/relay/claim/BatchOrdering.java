package io.eeoutbox.relay.claim;

import io.eeoutbox.OutboxMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Puts a claimed batch in publish order. The claim's RETURNING order is unspecified, so the batch is
 * sorted by {@code seq} (write order). In ordered mode the claim already returns at most one event
 * per aggregate; should it ever return more, the later ones are held back (released unpublished)
 * rather than sent in the same batch, where a publisher may send them in parallel.
 */
public final class BatchOrdering {

    private static final Comparator<OutboxMessage> BY_SEQ = Comparator.comparingLong(OutboxMessage::seq);

    private BatchOrdering() {
    }

    /** What to publish now, in order, and what to give back unpublished. */
    public record Plan(List<OutboxMessage> publish, List<OutboxMessage> holdBack) {
    }

    private record AggregateKey(String type, String id) {
    }

    public static Plan plan(List<OutboxMessage> claimed, boolean ordered) {
        List<OutboxMessage> sorted = new ArrayList<>(claimed);
        sorted.sort(BY_SEQ);
        if (!ordered) {
            return new Plan(sorted, List.of());
        }
        List<OutboxMessage> publish = new ArrayList<>(sorted.size());
        List<OutboxMessage> holdBack = new ArrayList<>();
        Set<AggregateKey> aggregates = new HashSet<>();
        for (OutboxMessage m : sorted) {
            if (aggregates.add(new AggregateKey(m.aggregateType(), m.aggregateId()))) {
                publish.add(m);
            } else {
                holdBack.add(m);
            }
        }
        return new Plan(publish, holdBack);
    }
}
