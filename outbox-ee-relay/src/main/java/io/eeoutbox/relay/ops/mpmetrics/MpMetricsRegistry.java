package io.eeoutbox.relay.ops.mpmetrics;

import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Holds the application's {@link MetricRegistry}, injected into a field. Open Liberty's producer needs a
 * real injection point: {@code CDI.current().select(MetricRegistry.class).get()} gives null there (its
 * producer reads the injection point's annotations and fails without them).
 *
 * <p>No bean-defining annotation on purpose: {@code OpsExtension} adds this class as a bean only where
 * MicroProfile Metrics is available.
 */
public class MpMetricsRegistry {

    @Inject
    MetricRegistry registry;

    MetricRegistry registry() {
        return registry;
    }
}
