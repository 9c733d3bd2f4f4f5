package io.eeoutbox.relay.ops.mpmetrics;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricsSink;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.Optional;
import org.eclipse.microprofile.metrics.MetricRegistry;

/** Finds the application's MicroProfile Metrics registry: the default {@link MetricRegistry} bean. */
public final class MpMetricsExport {

    private MpMetricsExport() {
    }

    /** The sink over the application registry, or empty when there is no such bean. */
    public static Optional<MetricsSink> fromCdi(GaugeSource source) {
        Instance<MetricRegistry> registries = CDI.current().select(MetricRegistry.class);
        if (!registries.isResolvable()) {
            return Optional.empty();
        }
        return Optional.of(MpMetricsSink.register(registries.get(), source));
    }
}
