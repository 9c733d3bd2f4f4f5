package io.eeoutbox.sample.interfaces.rest.projection;

import io.eeoutbox.sample.application.projection.OrderProjectionView;
import io.eeoutbox.sample.domain.projection.OrderProjection;
import io.eeoutbox.sample.domain.projection.ProjectedEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What the downstream consumer knows about an order, as JSON: its latest state, the events it
 * applied in the order it applied them, and how many redelivered copies it ignored since the
 * application started.
 */
public record ProjectionView(UUID orderId, String customerId, BigDecimal total, String status, int revision,
                             int eventsApplied, long redeliveriesIgnored, List<Event> events) {

    /** One applied event. */
    public record Event(int position, UUID eventId, String eventType, int revision, String status, Instant appliedAt) {
    }

    static ProjectionView of(OrderProjectionView view) {
        OrderProjection p = view.projection();
        List<Event> events = view.events().stream()
                .map((ProjectedEvent e) -> new Event(e.position(), e.eventId(), e.eventType(), e.revision(), e.status(),
                        e.appliedAt()))
                .toList();
        return new ProjectionView(p.orderId(), p.customerId(), p.total(), p.status(), p.revision(), p.eventsApplied(),
                view.redeliveriesIgnored(), events);
    }
}
