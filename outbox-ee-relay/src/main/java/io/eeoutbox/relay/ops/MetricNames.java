package io.eeoutbox.relay.ops;

/**
 * The metric names as Prometheus shows them, identical on every server; each adapter derives the
 * name its API wants from these (Micrometer adds {@code _total} and unit suffixes itself, MicroProfile
 * Metrics too).
 */
public final class MetricNames {

    /** Counter: messages accepted by the broker. */
    public static final String PUBLISHED_TOTAL = "outbox_events_published_total";
    /** Counter, label {@value #EVENT_TYPE}: failed publish attempts. */
    public static final String FAILED_TOTAL = "outbox_events_failed_total";
    /** Gauge: rows waiting to be published. */
    public static final String PENDING = "outbox_events_pending";
    /** Gauge: dead letters. */
    public static final String DEAD = "outbox_events_dead";
    /** Gauge: age of the oldest pending row, seconds. */
    public static final String OLDEST_PENDING_AGE_SECONDS = "outbox_oldest_pending_age_seconds";
    /** Timer/histogram: claim to completion of a batch, seconds. */
    public static final String BATCH_DURATION_SECONDS = "outbox_batch_duration_seconds";
    /** The label of {@link #FAILED_TOTAL}. */
    public static final String EVENT_TYPE = "event_type";

    /** The percentiles published for {@link #BATCH_DURATION_SECONDS} as {@code quantile} labels. */
    public static final double[] PERCENTILES = {0.5, 0.95, 0.99};

    public static final String PUBLISHED_HELP = "Outbox events accepted by the broker";
    public static final String FAILED_HELP = "Failed publish attempts of outbox events, by event type";
    public static final String PENDING_HELP = "Outbox events waiting to be published (refreshed on a schedule)";
    public static final String DEAD_HELP = "Outbox events that exhausted their attempts and wait for an operator";
    public static final String AGE_HELP = "How long the oldest pending outbox event has waited";
    public static final String BATCH_HELP = "Claim to completion of one relay batch";

    private MetricNames() {
    }

    /** The name without a suffix: {@code outbox_events_published_total} gives {@code outbox_events_published}. */
    public static String withoutSuffix(String name, String suffix) {
        return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
    }
}
