package io.eeoutbox.relay.ops.ee;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricsSink;
import io.eeoutbox.relay.ops.micrometer.MicrometerExport;
import io.eeoutbox.relay.ops.mpmetrics.MpMetricsExport;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Picks the metrics API the server gives the application: MicroProfile Metrics first (Open Liberty's
 * {@code mpMetrics}), else Micrometer (WildFly's {@code micrometer} subsystem), else none. Each
 * adapter class is touched only after its API was found with {@link Class#forName}, so on a server
 * without that API the adapter is never loaded and nothing fails.
 */
final class MetricsExports {

    private static final Logger LOG = Logger.getLogger(MetricsExports.class.getName());
    static final String MP_METRICS = "org.eclipse.microprofile.metrics.MetricRegistry";
    static final String MICROMETER = "io.micrometer.core.instrument.MeterRegistry";

    private MetricsExports() {
    }

    /** Whether the application sees either metrics API. */
    static boolean apiPresent(ClassLoader loader) {
        return present(MP_METRICS, loader) || present(MICROMETER, loader);
    }

    /**
     * The sink over the first registry that is available now, or empty (no API, or its registry is not
     * available yet: Open Liberty's MicroProfile Metrics registry is null while the application starts).
     */
    static Optional<MetricsSink> bind(ClassLoader loader, GaugeSource source) {
        try {
            if (present(MP_METRICS, loader)) {
                Optional<MetricsSink> sink = MpMetricsExport.fromCdi(source);
                if (sink.isPresent()) {
                    return sink;
                }
            }
            if (present(MICROMETER, loader)) {
                return MicrometerExport.fromCdi(source);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "the relay's metrics could not be registered; the relay runs without them", e);
        }
        return Optional.empty();
    }

    static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
