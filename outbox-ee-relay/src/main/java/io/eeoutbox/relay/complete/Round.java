package io.eeoutbox.relay.complete;

import io.eeoutbox.OutboxMessage;
import java.util.List;
import java.util.Map;

/**
 * What happened to the messages handed to (or kept from) the publisher in one batch: published, failed
 * (with the cause), and not handed over at all (the relay was stopping, or the lease would run out).
 */
public record Round(List<OutboxMessage> published, Map<OutboxMessage, Throwable> failures, List<OutboxMessage> unpublished) {
}
