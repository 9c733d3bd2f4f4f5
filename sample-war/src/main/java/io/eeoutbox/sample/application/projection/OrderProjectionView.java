package io.eeoutbox.sample.application.projection;

import io.eeoutbox.sample.domain.projection.OrderProjection;
import io.eeoutbox.sample.domain.projection.ProjectedEvent;
import java.util.List;

/** An order's projection with the events applied to it, in position order. */
public record OrderProjectionView(OrderProjection projection, List<ProjectedEvent> events, long redeliveriesIgnored) {
}
