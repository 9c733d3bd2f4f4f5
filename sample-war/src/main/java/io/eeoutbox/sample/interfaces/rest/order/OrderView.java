package io.eeoutbox.sample.interfaces.rest.order;

import io.eeoutbox.sample.domain.order.Order;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** An order as JSON. */
public record OrderView(UUID id, String customerId, BigDecimal total, String status, int revision, Instant createdAt,
                        Instant updatedAt) {

    static OrderView of(Order order) {
        return new OrderView(order.getId(), order.getCustomerId(), order.getTotal(), order.getStatus().name(),
                order.getRevision(), order.getCreatedAt(), order.getUpdatedAt());
    }
}
