package io.eeoutbox.relay.ops.mpmetrics;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricsSink;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.Optional;
import org.eclipse.microprofile.metrics.MetricRegistry;

/** Finds the application's MicroProfile Metrics registry through {@link MpMetricsRegistry}. */
public final class MpMetricsExport {

    private MpMetricsExport() {
    }

    /** The sink over the application registry, or empty when there is none (yet). */
    public static Optional<MetricsSink> fromCdi(GaugeSource source) {
        Instance<MpMetricsRegistry> holders = CDI.current().select(MpMetricsRegistry.class);
        if (!holders.isResolvable()) {
            return Optional.empty();
        }
        MpMetricsRegistry holder = holders.get();
        try {
            MetricRegistry registry = holder.registry();
            if (registry == null) {
                return Optional.empty();
            }
            return Optional.of(MpMetricsSink.register(registry, source));
        } finally {
            holders.destroy(holder);
        }
    }
}
