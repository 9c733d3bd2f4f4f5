package io.eeoutbox.relay.ops.micrometer;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricsSink;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.Optional;

/** Finds the server's Micrometer registry: WildFly's micrometer subsystem makes it a CDI bean. */
public final class MicrometerExport {

    private MicrometerExport() {
    }

    /** The sink over the {@link MeterRegistry} bean, or empty when there is none (yet). */
    public static Optional<MetricsSink> fromCdi(GaugeSource source) {
        Instance<MeterRegistry> registries = CDI.current().select(MeterRegistry.class);
        if (!registries.isResolvable()) {
            return Optional.empty();
        }
        MeterRegistry registry = registries.get();
        if (registry == null) {
            return Optional.empty(); // Open Liberty: null while the application is still starting
        }
        return Optional.of(MicrometerSink.register(registry, source));
    }
}
