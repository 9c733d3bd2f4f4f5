package io.eeoutbox.sample.domain.order;

import java.time.Instant;
import java.util.UUID;

/**
 * The payload of {@value OrderEvents#STATUS_CHANGED}. {@code revision} is the order's revision after
 * the change: the n-th event of an order carries revision n, so a consumer can tell the order they
 * were written in.
 */
public record OrderStatusChanged(UUID orderId, String from, String to, int revision, Instant changedAt) {
}
