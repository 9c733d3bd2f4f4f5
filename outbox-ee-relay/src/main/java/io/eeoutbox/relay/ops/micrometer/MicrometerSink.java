package io.eeoutbox.relay.ops.micrometer;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricNames;
import io.eeoutbox.relay.ops.MetricsSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

/**
 * Exports the relay's metrics into a Micrometer {@link MeterRegistry} (WildFly's micrometer subsystem,
 * whose Prometheus registry shows them). Micrometer's Prometheus naming turns {@code outbox.events.published}
 * into {@code outbox_events_published_total} and the timer {@code outbox.batch.duration} into
 * {@code outbox_batch_duration_seconds_count/_sum/_max}, so Prometheus shows the names of {@link MetricNames}.
 *
 * <p>Only the registry's shortcut methods are used ({@code counter(name, tags)}, {@code gauge(name, tags,
 * obj, f)}, {@code timer(name, tags)}): WildFly hands a deployment an {@code ApplicationRegistry} that
 * passes exactly these on to the exported registry (adding the deployment's tag); meters made with the
 * builders ({@code Counter.builder(..).register(..)}) stay in a local registry that nothing exports, and
 * builder options (descriptions, units, buckets, percentiles) cannot be passed on. So this timer has no
 * buckets; {@code outbox_batch_duration_p95_seconds} gives the p95 instead, computed by the relay.
 *
 * <p>Loaded only when Micrometer is on the application's class path (see {@code MetricsExports}).
 */
public final class MicrometerSink implements MetricsSink {

    private static final String PUBLISHED = dotted(MetricNames.withoutSuffix(MetricNames.PUBLISHED_TOTAL, "_total"));
    private static final String FAILED = dotted(MetricNames.withoutSuffix(MetricNames.FAILED_TOTAL, "_total"));
    private static final String DEFERRED = dotted(MetricNames.withoutSuffix(MetricNames.DEFERRED_TOTAL, "_total"));
    private static final String BATCH = dotted(MetricNames.withoutSuffix(MetricNames.BATCH_DURATION_SECONDS, "_seconds"));

    private final MeterRegistry registry;
    /** Held here: Micrometer keeps only a weak reference to a gauge's object. */
    private final GaugeSource source;
    private final Counter published;
    private final Timer batchDuration;
    private final Map<String, Counter> failed = new ConcurrentHashMap<>();
    private final Map<String, Counter> deferred = new ConcurrentHashMap<>();
    private final List<Meter> meters = new CopyOnWriteArrayList<>();
    private final List<String> gauges = new CopyOnWriteArrayList<>();

    private MicrometerSink(MeterRegistry registry, GaugeSource source) {
        this.registry = registry;
        this.source = Objects.requireNonNull(source, "source");
        this.published = remember(registry.counter(PUBLISHED, Tags.empty()));
        this.batchDuration = remember(registry.timer(BATCH, Tags.empty()));
        gauge(MetricNames.PENDING, s -> s.databaseGauges().pending());
        gauge(MetricNames.DEAD, s -> s.databaseGauges().dead());
        gauge(MetricNames.SCHEDULED, s -> s.databaseGauges().scheduled());
        gauge(MetricNames.OLDEST_PENDING_AGE_SECONDS, s -> s.databaseGauges().oldestPendingAgeSeconds());
        gauge(MetricNames.BATCH_DURATION_P95_SECONDS, GaugeSource::batchDurationP95Seconds);
        // cdc mode's slot (docs/cdc.md); NaN in relay mode
        gauge(MetricNames.CDC_SLOT_PRESENT, s -> s.databaseGauges().cdcSlotPresent());
        gauge(MetricNames.CDC_SLOT_ACTIVE, s -> s.databaseGauges().cdcSlotActive());
        gauge(MetricNames.CDC_SLOT_LAG_BYTES, s -> s.databaseGauges().cdcSlotLagBytes());
        gauge(MetricNames.CDC_SLOT_RETAINED_WAL_BYTES, s -> s.databaseGauges().cdcSlotRetainedWalBytes());
        gauge(MetricNames.CDC_SLOT_WAL_STATUS, s -> s.databaseGauges().cdcSlotWalStatus());
    }

    /** Registers the meters in {@code registry}; {@code source} is read at each scrape (no query). */
    public static MetricsSink register(MeterRegistry registry, GaugeSource source) {
        return new MicrometerSink(registry, source);
    }

    private void gauge(String prometheusName, ToDoubleFunction<GaugeSource> value) {
        // a gauge keeps its name: outbox.oldest.pending.age.seconds is outbox_oldest_pending_age_seconds
        String name = dotted(prometheusName);
        registry.gauge(name, Tags.empty(), source, value);
        gauges.add(name);
    }

    @Override
    public void published() {
        published.increment();
    }

    @Override
    public void failed(String eventType) {
        failed.computeIfAbsent(eventType, t -> remember(registry.counter(FAILED, Tags.of(MetricNames.EVENT_TYPE, t))))
                .increment();
    }

    @Override
    public void deferred(String destination) {
        deferred.computeIfAbsent(destination,
                d -> remember(registry.counter(DEFERRED, Tags.of(MetricNames.DESTINATION, d)))).increment();
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
        for (String name : gauges) {
            // find() sees the exported gauge (WildFly: the one with this deployment's tag)
            for (Meter m : registry.find(name).meters()) {
                registry.remove(m);
            }
        }
        meters.clear();
        gauges.clear();
        failed.clear();
        deferred.clear();
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
