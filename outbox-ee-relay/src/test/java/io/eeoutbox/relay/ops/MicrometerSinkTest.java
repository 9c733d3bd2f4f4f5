package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.ops.micrometer.MicrometerSink;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The Micrometer adapter, scraped through Micrometer's Prometheus registry (the one WildFly uses). The
 * adapter uses only the registry's shortcut methods, the ones WildFly's application registry exports.
 */
class MicrometerSinkTest {

    @Test
    void theMicroProfileMetricsBucketsInTheJarMatchTheMicrometerOnes() throws Exception {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = MetricsSink.class.getResourceAsStream("/META-INF/microprofile-config.properties")) {
            p.load(in);
        }
        StringBuilder expected = new StringBuilder("outbox_batch_duration=");
        for (double s : MetricNames.BATCH_DURATION_BUCKETS_SECONDS) {
            expected.append(Math.round(s * 1000)).append("ms,");
        }
        expected.setLength(expected.length() - 1);
        assertThat(p.getProperty("mp.metrics.distribution.timer.buckets")).isEqualTo(expected.toString());
    }

    @Test
    void prometheusShowsTheDocumentedNames() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AtomicReference<GaugeRefresher.Gauges> gauges = new AtomicReference<>(GaugeRefresher.Gauges.UNKNOWN);
        RelayMetrics metrics = new RelayMetrics();
        MetricsSink sink = MicrometerSink.register(registry, new GaugeSource() {
            @Override
            public GaugeRefresher.Gauges databaseGauges() {
                return gauges.get();
            }

            @Override
            public double batchDurationP95Seconds() {
                return metrics.recentBatchDurationP95Seconds();
            }
        });
        metrics.attach(sink);

        metrics.published(RelayMetricsTest.message("order.created", 1));
        metrics.published(RelayMetricsTest.message("order.created", 1));
        metrics.failed(RelayMetricsTest.message("order.paid", 1), new RuntimeException("x"), Instant.EPOCH);
        metrics.batchCompleted(3, 2, 1, Duration.ofMillis(250));
        gauges.set(new GaugeRefresher.Gauges(1500, 2, 42.5, Instant.EPOCH));

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("\noutbox_events_published_total 2.0")
                .contains("\noutbox_events_failed_total{event_type=\"order.paid\"} 1.0")
                .contains("\noutbox_events_pending 1500.0")
                .contains("\noutbox_events_dead 2.0")
                .contains("\noutbox_oldest_pending_age_seconds 42.5")
                .contains("\noutbox_batch_duration_seconds_count 1")
                .contains("\noutbox_batch_duration_seconds_sum 0.25")
                .contains("\noutbox_batch_duration_seconds_max 0.25")
                .contains("\noutbox_batch_duration_p95_seconds 0.2425"); // 0.1 + 0.15 * 0.95, in the (0.1, 0.25] bucket

        metrics.detachAll();
        assertThat(registry.scrape()).doesNotContain("outbox_");
    }
}
