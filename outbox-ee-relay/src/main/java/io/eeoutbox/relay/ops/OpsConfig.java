package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.config.Setting;
import io.eeoutbox.relay.config.SettingValues;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The settings of the relay's observability and operations (metrics, health checks, the MBean), each
 * declared once; docs/operations.md's table of them is rendered from {@link #ALL} and checked by a test.
 */
public final class OpsConfig {

    public static final Setting<Boolean> METRICS_ENABLED = Setting.flag("outbox.relay.metrics.enabled", true,
            "export the metrics through the server's metrics API (MicroProfile Metrics or Micrometer)");
    public static final Setting<Duration> METRICS_REFRESH_INTERVAL = Setting.duration(
            "outbox.relay.metrics.refresh-interval", Duration.ofSeconds(15), Duration.ofMillis(100), Duration.ofHours(1),
            "how often the database gauges (pending, dead letters, oldest pending age) are queried");
    public static final Setting<Boolean> HEALTH_ENABLED = Setting.flag("outbox.relay.health.enabled", true,
            "add the readiness and liveness checks where MicroProfile Health is available");
    public static final Setting<Duration> HEALTH_UNREACHABLE_THRESHOLD = Setting.duration(
            "outbox.relay.health.unreachable-threshold", Duration.ofSeconds(30), Duration.ZERO, Duration.ofDays(1),
            "readiness DOWN after the database was unreachable this long (a broker outage only shows in the data)");
    public static final Setting<Integer> HEALTH_LIVENESS_POLL_MULTIPLE = Setting.integer(
            "outbox.relay.health.liveness-poll-multiple", 3, 1, 1000,
            "liveness DOWN once the relay's loop has not run for this many poll intervals ...");
    public static final Setting<Duration> HEALTH_LIVENESS_MIN = Setting.duration("outbox.relay.health.liveness-min",
            Duration.ofSeconds(10), Duration.ZERO, Duration.ofDays(1), "... and at least this long");
    public static final Setting<Boolean> JMX_ENABLED = Setting.flag("outbox.relay.jmx.enabled", true,
            "register the relay's MBean on the platform MBean server");

    /** Every observability setting, in the order docs/operations.md lists them. */
    public static final List<Setting<?>> ALL = List.of(METRICS_ENABLED, METRICS_REFRESH_INTERVAL, HEALTH_ENABLED,
            HEALTH_UNREACHABLE_THRESHOLD, HEALTH_LIVENESS_POLL_MULTIPLE, HEALTH_LIVENESS_MIN, JMX_ENABLED);

    private final SettingValues values;

    private OpsConfig(SettingValues values) {
        this.values = values;
    }

    /** All defaults. */
    public static OpsConfig defaults() {
        return load(key -> Optional.empty());
    }

    /** Reads every key from {@code lookup}; absent keys keep their defaults. */
    public static OpsConfig load(Function<String, Optional<String>> lookup) {
        return new OpsConfig(SettingValues.load(ALL, lookup));
    }

    /** Settings given by key (tests). */
    public static OpsConfig of(Map<String, String> settings) {
        return load(key -> Optional.ofNullable(settings.get(key)));
    }

    public boolean metricsEnabled() {
        return values.get(METRICS_ENABLED);
    }

    public Duration refreshInterval() {
        return values.get(METRICS_REFRESH_INTERVAL);
    }

    public boolean healthEnabled() {
        return values.get(HEALTH_ENABLED);
    }

    public Duration unreachableThreshold() {
        return values.get(HEALTH_UNREACHABLE_THRESHOLD);
    }

    public int livenessPollMultiple() {
        return values.get(HEALTH_LIVENESS_POLL_MULTIPLE);
    }

    public Duration livenessMin() {
        return values.get(HEALTH_LIVENESS_MIN);
    }

    public boolean jmxEnabled() {
        return values.get(JMX_ENABLED);
    }

    /** How long the loop may stay silent before liveness is DOWN, for a given poll interval. */
    public Duration livenessThreshold(Duration pollInterval) {
        Duration multiple = pollInterval.multipliedBy(livenessPollMultiple());
        return multiple.compareTo(livenessMin()) >= 0 ? multiple : livenessMin();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OpsConfig other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "OpsConfig" + values;
    }
}
