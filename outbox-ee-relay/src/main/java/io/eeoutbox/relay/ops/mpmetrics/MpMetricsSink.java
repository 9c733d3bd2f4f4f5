package io.eeoutbox.relay.ops.mpmetrics;

import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.MetricNames;
import io.eeoutbox.relay.ops.MetricsSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Exports the relay's metrics into the application's MicroProfile Metrics 5.x registry (Open
 * Liberty's {@code mpMetrics-5.1}, scraped at {@code /metrics?scope=application}). MicroProfile Metrics
 * adds {@code _total} to counters and the unit to gauges and timers in its Prometheus output, so the
 * metrics are registered as {@code outbox_events_published}, {@code outbox_oldest_pending_age} (unit
 * seconds), {@code outbox_batch_duration} (a timer) and Prometheus shows the names of {@link MetricNames},
 * with the label {@code mp_scope="application"} that MicroProfile Metrics adds to every metric. The timer's
 * buckets come from {@code mp.metrics.distribution.timer.buckets} in this jar's
 * {@code META-INF/microprofile-config.properties} (at a low ordinal: the application's setting wins).
 *
 * <p>Loaded only when MicroProfile Metrics is on the application's class path (see {@code MetricsExports}).
 */
public final class MpMetricsSink implements MetricsSink {

    private static final String PUBLISHED = MetricNames.withoutSuffix(MetricNames.PUBLISHED_TOTAL, "_total");
    private static final String FAILED = MetricNames.withoutSuffix(MetricNames.FAILED_TOTAL, "_total");
    private static final String DEFERRED = MetricNames.withoutSuffix(MetricNames.DEFERRED_TOTAL, "_total");
    private static final String AGE = MetricNames.withoutSuffix(MetricNames.OLDEST_PENDING_AGE_SECONDS, "_seconds");
    private static final String P95 = MetricNames.withoutSuffix(MetricNames.BATCH_DURATION_P95_SECONDS, "_seconds");
    private static final String BATCH = MetricNames.withoutSuffix(MetricNames.BATCH_DURATION_SECONDS, "_seconds");

    private final MetricRegistry registry;
    private final Counter published;
    private final Timer batchDuration;
    private final Map<String, Counter> failed = new ConcurrentHashMap<>();
    private final Map<String, Counter> deferred = new ConcurrentHashMap<>();
    private final List<MetricID> ids = new CopyOnWriteArrayList<>();

    private MpMetricsSink(MetricRegistry registry, GaugeSource source) {
        this.registry = registry;
        this.published = registry.counter(Metadata.builder().withName(PUBLISHED)
                .withDescription(MetricNames.PUBLISHED_HELP).build());
        ids.add(new MetricID(PUBLISHED));
        this.batchDuration = registry.timer(Metadata.builder().withName(BATCH)
                .withDescription(MetricNames.BATCH_HELP).withUnit(MetricUnits.SECONDS).build());
        ids.add(new MetricID(BATCH));
        gauge(MetricNames.PENDING, MetricNames.PENDING_HELP, MetricUnits.NONE, () -> source.databaseGauges().pending());
        gauge(MetricNames.DEAD, MetricNames.DEAD_HELP, MetricUnits.NONE, () -> source.databaseGauges().dead());
        gauge(MetricNames.SCHEDULED, MetricNames.SCHEDULED_HELP, MetricUnits.NONE,
                () -> source.databaseGauges().scheduled());
        gauge(AGE, MetricNames.AGE_HELP, MetricUnits.SECONDS, () -> source.databaseGauges().oldestPendingAgeSeconds());
        gauge(P95, MetricNames.BATCH_P95_HELP, MetricUnits.SECONDS, source::batchDurationP95Seconds);
        // cdc mode's slot (docs/cdc.md); NaN in relay mode
        gauge(MetricNames.CDC_SLOT_PRESENT, MetricNames.CDC_SLOT_PRESENT_HELP, MetricUnits.NONE,
                () -> source.databaseGauges().cdcSlotPresent());
        gauge(MetricNames.CDC_SLOT_ACTIVE, MetricNames.CDC_SLOT_ACTIVE_HELP, MetricUnits.NONE,
                () -> source.databaseGauges().cdcSlotActive());
        gauge(MetricNames.CDC_SLOT_LAG_BYTES, MetricNames.CDC_SLOT_LAG_HELP, MetricUnits.NONE,
                () -> source.databaseGauges().cdcSlotLagBytes());
        gauge(MetricNames.CDC_SLOT_RETAINED_WAL_BYTES, MetricNames.CDC_SLOT_RETAINED_HELP, MetricUnits.NONE,
                () -> source.databaseGauges().cdcSlotRetainedWalBytes());
        gauge(MetricNames.CDC_SLOT_WAL_STATUS, MetricNames.CDC_SLOT_WAL_STATUS_HELP, MetricUnits.NONE,
                () -> source.databaseGauges().cdcSlotWalStatus());
    }

    /** Registers the metrics in {@code registry}; {@code source} is read at each scrape (no query). */
    public static MetricsSink register(MetricRegistry registry, GaugeSource source) {
        return new MpMetricsSink(registry, source);
    }

    private void gauge(String name, String help, String unit, Supplier<Double> value) {
        registry.gauge(Metadata.builder().withName(name).withDescription(help).withUnit(unit).build(), value);
        ids.add(new MetricID(name));
    }

    @Override
    public void published() {
        published.inc();
    }

    @Override
    public void failed(String eventType) {
        failed.computeIfAbsent(eventType, t -> counter(FAILED, MetricNames.FAILED_HELP, new Tag(MetricNames.EVENT_TYPE, t)))
                .inc();
    }

    @Override
    public void deferred(String destination) {
        deferred.computeIfAbsent(destination,
                d -> counter(DEFERRED, MetricNames.DEFERRED_HELP, new Tag(MetricNames.DESTINATION, d))).inc();
    }

    private Counter counter(String name, String help, Tag tag) {
        Counter c = registry.counter(Metadata.builder().withName(name).withDescription(help).build(), tag);
        ids.add(new MetricID(name, tag));
        return c;
    }

    @Override
    public void batchCompleted(Duration elapsed) {
        batchDuration.update(elapsed);
    }

    @Override
    public void close() {
        for (MetricID id : ids) {
            registry.remove(id);
        }
        ids.clear();
        failed.clear();
        deferred.clear();
    }

    @Override
    public String toString() {
        return "MicroProfile Metrics " + registry.getClass().getSimpleName();
    }
}
