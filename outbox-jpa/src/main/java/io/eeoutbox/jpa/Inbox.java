package io.eeoutbox.jpa;

import io.eeoutbox.InvalidEventException;
import io.eeoutbox.jpa.generated.ProcessedEventQueries;
import io.eeoutbox.jpa.generated.RecordProcessedEventParams;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * The consumer side: makes a message handler idempotent under at-least-once delivery.
 *
 * <pre>{@code
 * @Inject Inbox inbox;
 *
 * public void onMessage(Message m) {            // in the consumer's JTA transaction
 *     UUID id = UUID.fromString(m.getStringProperty("outbox_event_id"));
 *     if (!inbox.firstDelivery("projection", id)) {
 *         return;                               // seen before: changes nothing
 *     }
 *     ... apply the event ...
 * }
 * }</pre>
 *
 * The record goes into {@code processed_events} in the consumer's transaction, so "applied" and
 * "recorded" commit or roll back together. Concurrent deliveries of the same id are serialised by
 * the primary key: the second waits for the first and then sees it.
 */
@ApplicationScoped
public class Inbox {

    @Inject
    JtaResources resources;

    /**
     * Records that {@code consumer} is applying {@code eventId}.
     *
     * @return true the first time for this consumer and id, false for a redelivery
     */
    public boolean firstDelivery(String consumer, UUID eventId) {
        resources.requireActiveTransaction("Inbox.firstDelivery");
        EventValidator.checkName("consumer", consumer);
        if (eventId == null) {
            throw new InvalidEventException("eventId", "must not be null");
        }
        int inserted = new ProcessedEventQueries(resources.entityManager())
                .recordProcessedEvent(new RecordProcessedEventParams(consumer, eventId));
        return inserted == 1;
    }
}
