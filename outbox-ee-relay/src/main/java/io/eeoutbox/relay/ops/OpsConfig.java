package io.eeoutbox.relay.ops;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The settings of the relay's observability and operations: metrics, health checks and the MBean.
 * Keys follow the relay's ({@code outbox.relay.*}, MicroProfile Config naming, ISO-8601 durations);
 * an invalid value fails with an {@link IllegalArgumentException} that names the key and the value.
 *
 * <table>
 *   <caption>Keys and defaults</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #METRICS_ENABLED}</td><td>true</td>
 *       <td>export the metrics through the server's metrics API (MicroProfile Metrics or Micrometer)</td></tr>
 *   <tr><td>{@value #METRICS_REFRESH_INTERVAL}</td><td>PT15S</td>
 *       <td>how often the database gauges (pending, dead letters, oldest pending age) are queried</td></tr>
 *   <tr><td>{@value #HEALTH_ENABLED}</td><td>true</td>
 *       <td>add the readiness and liveness checks where MicroProfile Health is available</td></tr>
 *   <tr><td>{@value #HEALTH_UNREACHABLE_THRESHOLD}</td><td>PT30S</td>
 *       <td>readiness is DOWN once the database or the broker has been unreachable this long</td></tr>
 *   <tr><td>{@value #HEALTH_LIVENESS_POLL_MULTIPLE}</td><td>3</td>
 *       <td>liveness is DOWN once the relay's loop has not run for this many poll intervals ...</td></tr>
 *   <tr><td>{@value #HEALTH_LIVENESS_MIN}</td><td>PT10S</td><td>... and at least this long</td></tr>
 *   <tr><td>{@value #JMX_ENABLED}</td><td>true</td><td>register the relay's MBean on the platform MBean server</td></tr>
 * </table>
 */
public record OpsConfig(boolean metricsEnabled, Duration refreshInterval, boolean healthEnabled,
                        Duration unreachableThreshold,
                        int livenessPollMultiple, Duration livenessMin, boolean jmxEnabled) {

    public static final String METRICS_ENABLED = "outbox.relay.metrics.enabled";
    public static final String METRICS_REFRESH_INTERVAL = "outbox.relay.metrics.refresh-interval";
    public static final String HEALTH_ENABLED = "outbox.relay.health.enabled";
    public static final String HEALTH_UNREACHABLE_THRESHOLD = "outbox.relay.health.unreachable-threshold";
    public static final String HEALTH_LIVENESS_POLL_MULTIPLE = "outbox.relay.health.liveness-poll-multiple";
    public static final String HEALTH_LIVENESS_MIN = "outbox.relay.health.liveness-min";
    public static final String JMX_ENABLED = "outbox.relay.jmx.enabled";

    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(15);
    public static final Duration DEFAULT_UNREACHABLE_THRESHOLD = Duration.ofSeconds(30);
    public static final int DEFAULT_LIVENESS_POLL_MULTIPLE = 3;
    public static final Duration DEFAULT_LIVENESS_MIN = Duration.ofSeconds(10);

    public OpsConfig {
        Objects.requireNonNull(refreshInterval, "refreshInterval");
        Objects.requireNonNull(unreachableThreshold, "unreachableThreshold");
        Objects.requireNonNull(livenessMin, "livenessMin");
        if (refreshInterval.compareTo(Duration.ofMillis(100)) < 0 || refreshInterval.compareTo(Duration.ofHours(1)) > 0) {
            throw invalid(METRICS_REFRESH_INTERVAL, refreshInterval.toString(), "a duration from PT0.1S to PT1H");
        }
        if (unreachableThreshold.isNegative()) {
            throw invalid(HEALTH_UNREACHABLE_THRESHOLD, unreachableThreshold.toString(), "a duration of zero or more");
        }
        if (livenessPollMultiple < 1 || livenessPollMultiple > 1000) {
            throw invalid(HEALTH_LIVENESS_POLL_MULTIPLE, Integer.toString(livenessPollMultiple), "a whole number from 1 to 1000");
        }
        if (livenessMin.isNegative()) {
            throw invalid(HEALTH_LIVENESS_MIN, livenessMin.toString(), "a duration of zero or more");
        }
    }

    /** All defaults. */
    public static OpsConfig defaults() {
        return new OpsConfig(true, DEFAULT_REFRESH_INTERVAL, true, DEFAULT_UNREACHABLE_THRESHOLD,
                DEFAULT_LIVENESS_POLL_MULTIPLE, DEFAULT_LIVENESS_MIN, true);
    }

    /** Reads every key from {@code lookup}; absent keys keep their defaults. */
    public static OpsConfig load(Function<String, Optional<String>> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        OpsConfig d = defaults();
        return new OpsConfig(
                bool(lookup, METRICS_ENABLED).orElse(d.metricsEnabled()),
                duration(lookup, METRICS_REFRESH_INTERVAL).orElse(d.refreshInterval()),
                bool(lookup, HEALTH_ENABLED).orElse(d.healthEnabled()),
                duration(lookup, HEALTH_UNREACHABLE_THRESHOLD).orElse(d.unreachableThreshold()),
                integer(lookup, HEALTH_LIVENESS_POLL_MULTIPLE).orElse(d.livenessPollMultiple()),
                duration(lookup, HEALTH_LIVENESS_MIN).orElse(d.livenessMin()),
                bool(lookup, JMX_ENABLED).orElse(d.jmxEnabled()));
    }

    /** How long the loop may stay silent before liveness is DOWN, for a given poll interval. */
    public Duration livenessThreshold(Duration pollInterval) {
        Duration multiple = pollInterval.multipliedBy(livenessPollMultiple);
        return multiple.compareTo(livenessMin) >= 0 ? multiple : livenessMin;
    }

    private static Optional<String> value(Function<String, Optional<String>> lookup, String key) {
        Optional<String> v = lookup.apply(key);
        return v == null ? Optional.empty() : v.map(String::trim).filter(s -> !s.isEmpty());
    }

    private static Optional<Boolean> bool(Function<String, Optional<String>> lookup, String key) {
        return value(lookup, key).map(v -> switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw invalid(key, v, "true or false");
        });
    }

    private static Optional<Integer> integer(Function<String, Optional<String>> lookup, String key) {
        return value(lookup, key).map(v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw invalid(key, v, "a whole number");
            }
        });
    }

    private static Optional<Duration> duration(Function<String, Optional<String>> lookup, String key) {
        return value(lookup, key).map(v -> {
            try {
                return Duration.parse(v);
            } catch (DateTimeParseException e) {
                throw invalid(key, v, "an ISO-8601 duration such as PT15S or PT1M");
            }
        });
    }

    private static IllegalArgumentException invalid(String key, String value, String allowed) {
        return new IllegalArgumentException("invalid configuration: " + key + "=" + value + " is not allowed: it must be "
                + allowed);
    }
}
