package io.eeoutbox.relay.claim;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BatchOrderingTest {

    private static OutboxMessage m(long seq, String aggregate) {
        return new OutboxMessage(UUID.randomUUID(), seq, "order.created", "{}",
                new OutboxMessage.Aggregate("order", aggregate), OutboxMessage.Delivery.of(Instant.EPOCH, 1));
    }

    @Test
    void theBatchIsPublishedInWriteOrderWhateverOrderTheClaimReturned() {
        List<OutboxMessage> claimed = List.of(m(5, "a"), m(2, "b"), m(9, "a"), m(1, "c"));
        BatchOrdering.Plan plan = BatchOrdering.plan(claimed, false);
        assertThat(plan.publish()).extracting(OutboxMessage::seq).containsExactly(1L, 2L, 5L, 9L);
        assertThat(plan.holdBack()).isEmpty();
    }

    @Test
    void orderedModeKeepsOnlyTheEarliestEventOfEachAggregate() {
        List<OutboxMessage> claimed = List.of(m(9, "a"), m(5, "a"), m(2, "b"), m(7, "b"), m(3, "c"));
        BatchOrdering.Plan plan = BatchOrdering.plan(claimed, true);
        assertThat(plan.publish()).extracting(OutboxMessage::seq).containsExactly(2L, 3L, 5L);
        assertThat(plan.holdBack()).extracting(OutboxMessage::seq).containsExactly(7L, 9L);
    }

    @Test
    void aggregatesOfDifferentTypesWithTheSameIdAreIndependent() {
        OutboxMessage order = m(1, "42");
        OutboxMessage customer = new OutboxMessage(UUID.randomUUID(), 2, "customer.created", "{}",
                new OutboxMessage.Aggregate("customer", "42"), OutboxMessage.Delivery.of(Instant.EPOCH, 1));
        assertThat(BatchOrdering.plan(List.of(customer, order), true).publish()).containsExactly(order, customer);
    }
}
