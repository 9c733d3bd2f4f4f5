package io.eeoutbox.relay.ops.micrometer;

import io.eeoutbox.relay.ops.GaugeRefresher;
import io.eeoutbox.relay.ops.MetricNames;
import io.eeoutbox.relay.ops.MetricsSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Exports the relay's metrics into a Micrometer {@link MeterRegistry} (WildFly's micrometer
 * subsystem; its Prometheus registry shows them). Micrometer's Prometheus naming adds
 * {@code _total} to counters and the base unit to gauges and timers, so the meters are named
 * {@code outbox.events.published}, {@code outbox.oldest.pending.age} (unit seconds),
 * {@code outbox.batch.duration}, and Prometheus shows exactly the names of {@link MetricNames}.
 *
 * <p>Loaded only when Micrometer is on the application's class path (see {@code MetricsExports}).
 */
public final class MicrometerSink implements MetricsSink {

    private final MeterRegistry registry;
    private final Counter published;
    private final Timer batchDuration;
    private final Map<String, Counter> failed = new ConcurrentHashMap<>();
    private final List<Meter> meters = new CopyOnWriteArrayList<>();

    private MicrometerSink(MeterRegistry registry, Supplier<GaugeRefresher.Gauges> gauges) {
        this.registry = registry;
        this.published = remember(Counter.builder(dotted(MetricNames.withoutSuffix(MetricNames.PUBLISHED_TOTAL, "_total")))
                .description(MetricNames.PUBLISHED_HELP)
                .register(registry));
        this.batchDuration = remember(Timer.builder(dotted(MetricNames.withoutSuffix(MetricNames.BATCH_DURATION_SECONDS, "_seconds")))
                .description(MetricNames.BATCH_HELP)
                .publishPercentiles(MetricNames.PERCENTILES)
                .register(registry));
        remember(Gauge.builder(dotted(MetricNames.PENDING), gauges, g -> g.get().pending())
                .description(MetricNames.PENDING_HELP)
                .register(registry));
        remember(Gauge.builder(dotted(MetricNames.DEAD), gauges, g -> g.get().dead())
                .description(MetricNames.DEAD_HELP)
                .register(registry));
        remember(Gauge.builder(dotted(MetricNames.withoutSuffix(MetricNames.OLDEST_PENDING_AGE_SECONDS, "_seconds")),
                        gauges, g -> g.get().oldestPendingAgeSeconds())
                .description(MetricNames.AGE_HELP)
                .baseUnit("seconds")
                .register(registry));
    }

    /** Registers the meters in {@code registry}; {@code gauges} is read at each scrape (no query). */
    public static MetricsSink register(MeterRegistry registry, Supplier<GaugeRefresher.Gauges> gauges) {
        return new MicrometerSink(registry, gauges);
    }

    @Override
    public void published() {
        published.increment();
    }

    @Override
    public void failed(String eventType) {
        failed.computeIfAbsent(eventType, t -> remember(
                Counter.builder(dotted(MetricNames.withoutSuffix(MetricNames.FAILED_TOTAL, "_total")))
                        .description(MetricNames.FAILED_HELP)
                        .tag(MetricNames.EVENT_TYPE, t)
                        .register(registry))).increment();
    }

    @Override
    public void batchCompleted(Duration elapsed) {
        batchDuration.record(elapsed);
    }

    @Override
    public void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
        failed.clear();
    }

    @Override
    public String toString() {
        return "Micrometer " + registry.getClass().getSimpleName();
    }

    private <M extends Meter> M remember(M meter) {
        meters.add(meter);
        return meter;
    }

    /** {@code outbox_events_pending} as Micrometer names it: {@code outbox.events.pending}. */
    static String dotted(String name) {
        return name.replace('_', '.');
    }
}
