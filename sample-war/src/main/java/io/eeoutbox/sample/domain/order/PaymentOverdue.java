package io.eeoutbox.sample.domain.order;

import java.time.Instant;
import java.util.UUID;

/**
 * The payload of {@value OrderEvents#PAYMENT_OVERDUE}, recorded with the order and published once {@code dueAt} has
 * come (the outbox's delayed events). {@code revision} is the order's revision when it was recorded.
 */
public record PaymentOverdue(UUID orderId, int revision, Instant dueAt) {
}
