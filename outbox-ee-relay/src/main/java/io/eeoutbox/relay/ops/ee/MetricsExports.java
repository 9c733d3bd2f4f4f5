package io.eeoutbox.relay.ops.ee;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricsSink;
import io.eeoutbox.relay.ops.micrometer.MicrometerExport;
import io.eeoutbox.relay.ops.mpmetrics.MpMetricsExport;
import java.util.List;
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

    static List<MetricsSink> bind(ClassLoader loader, GaugeSource source) {
        try {
            if (present(MP_METRICS, loader)) {
                Optional<MetricsSink> sink = MpMetricsExport.fromCdi(source);
                if (sink.isPresent()) {
                    return List.of(sink.get());
                }
            }
            if (present(MICROMETER, loader)) {
                Optional<MetricsSink> sink = MicrometerExport.fromCdi(source);
                if (sink.isPresent()) {
                    return List.of(sink.get());
                }
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "the relay's metrics could not be registered; the relay runs without them", e);
            return List.of();
        }
        LOG.info("neither MicroProfile Metrics nor Micrometer is available to this application: the relay's metrics "
                + "are not exported (the MBean shows its counters)");
        return List.of();
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
