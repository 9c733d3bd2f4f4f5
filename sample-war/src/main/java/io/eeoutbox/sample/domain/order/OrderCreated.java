package io.eeoutbox.sample.domain.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** The payload of {@value OrderEvents#CREATED}, serialized to JSON by the outbox (JSON-B). */
public record OrderCreated(UUID orderId, String customerId, BigDecimal total, String status, int revision,
                           Instant createdAt) {
}
