package io.eeoutbox.sample.application.projection;

import java.util.Objects;
import java.util.UUID;

/** An order event as the consumer received it: the ids and type from the message, the JSON payload. */
public record ReceivedEvent(UUID eventId, String eventType, String aggregateId, String payload) {

    public ReceivedEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(eventType, "eventType");
    }
}
