package io.eeoutbox.jpa;

import io.eeoutbox.ExportedEvent;
import io.eeoutbox.OutboxService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The second way in: {@code @Inject Event<ExportedEvent> events; events.fire(ExportedEvent.of(...));}.
 * This observer is synchronous ({@code @Observes}, not {@code @ObservesAsync}, and not
 * {@code AFTER_SUCCESS}), so it runs on the caller's thread inside the caller's transaction: the
 * row commits or rolls back with the business data, and a bad event fails the {@code fire} call.
 */
@ApplicationScoped
public class ExportedEventObserver {

    @Inject
    OutboxService outbox;

    void record(@Observes ExportedEvent event) {
        outbox.record(event);
    }
}
