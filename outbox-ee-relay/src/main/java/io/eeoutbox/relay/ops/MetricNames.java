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
    /**
     * Counter, label {@value #DESTINATION}: events deferred without counting an attempt because their destination
     * could not take them ({@value #BROKER_DESTINATION} when the whole broker could not be reached). Rising for one
     * destination: that destination is held (docs/operations.md).
     */
    public static final String DEFERRED_TOTAL = "outbox_events_deferred_total";
    /** The label of {@link #DEFERRED_TOTAL}. */
    public static final String DESTINATION = "destination";
    /** The {@link #DESTINATION} of events deferred because the broker as a whole could not be reached. */
    public static final String BROKER_DESTINATION = "_broker";
    /** Gauge: rows waiting to be published. */
    public static final String PENDING = "outbox_events_pending";
    /** Gauge: delayed events not yet due (schema V14); not counted in {@link #PENDING}. */
    public static final String SCHEDULED = "outbox_events_scheduled";
    /** Gauge: dead letters. */
    public static final String DEAD = "outbox_events_dead";
    /** Gauge: age of the oldest pending row, seconds. */
    public static final String OLDEST_PENDING_AGE_SECONDS = "outbox_oldest_pending_age_seconds";
    /** Gauge, cdc mode: 1 when the connector's replication slot ({@code outbox.relay.cdc.slot}) exists, else 0. */
    public static final String CDC_SLOT_PRESENT = "outbox_cdc_slot_present";
    /** Gauge, cdc mode: 1 when a connector is connected to the slot, else 0. */
    public static final String CDC_SLOT_ACTIVE = "outbox_cdc_slot_active";
    /**
     * Gauge, cdc mode: WAL bytes between the current position and the one the connector confirmed; what replaces
     * {@link #PENDING} there (docs/cdc.md, "Cleaning the table: cdc mode").
     */
    public static final String CDC_SLOT_LAG_BYTES = "outbox_cdc_slot_lag_bytes";
    /** Gauge, cdc mode: WAL bytes the slot keeps PostgreSQL from removing. */
    public static final String CDC_SLOT_RETAINED_WAL_BYTES = "outbox_cdc_slot_retained_wal_bytes";
    /** Gauge, cdc mode: the slot's wal_status, 0 reserved, 1 extended, 2 unreserved, 3 lost. */
    public static final String CDC_SLOT_WAL_STATUS = "outbox_cdc_slot_wal_status";
    /** Timer/histogram: claim to completion of a batch, seconds. */
    public static final String BATCH_DURATION_SECONDS = "outbox_batch_duration_seconds";
    /**
     * Gauge: the 95th percentile of the batch durations of the last five minutes, seconds, computed by the
     * relay itself: the same on every server, whatever histogram support the server's metrics API gives.
     */
    public static final String BATCH_DURATION_P95_SECONDS = "outbox_batch_duration_p95_seconds";
    /** The label of {@link #FAILED_TOTAL}. */
    public static final String EVENT_TYPE = "event_type";

    /**
     * The bucket bounds of {@link #BATCH_DURATION_SECONDS} ({@code _bucket{le=..}}), in seconds, where the
     * server's metrics API publishes buckets (MicroProfile Metrics takes them from
     * {@code mp.metrics.distribution.timer.buckets} in this jar's {@code META-INF/microprofile-config.properties};
     * WildFly's Micrometer application registry publishes none), and of {@link #BATCH_DURATION_P95_SECONDS}.
     */
    public static final double[] BATCH_DURATION_BUCKETS_SECONDS = DurationHistogram.DEFAULT_BOUNDS_SECONDS;

    public static final String PUBLISHED_HELP = "Outbox events accepted by the broker";
    public static final String FAILED_HELP = "Failed publish attempts of outbox events, by event type";
    public static final String DEFERRED_HELP = "Outbox events deferred, not counted as attempts, because their destination"
            + " or the broker could not take them, by destination";
    public static final String PENDING_HELP = "Outbox events waiting to be published (refreshed on a schedule)";
    public static final String SCHEDULED_HELP = "Delayed outbox events not yet due, so not pending (refreshed on a"
            + " schedule)";
    public static final String DEAD_HELP = "Outbox events that exhausted their attempts and wait for an operator";
    public static final String AGE_HELP = "How long the oldest pending outbox event has waited";
    public static final String CDC_SLOT_PRESENT_HELP = "Whether the CDC connector's replication slot exists (cdc mode)";
    public static final String CDC_SLOT_ACTIVE_HELP = "Whether a CDC connector is connected to its replication slot"
            + " (cdc mode)";
    public static final String CDC_SLOT_LAG_HELP = "WAL bytes the CDC connector has not confirmed yet (cdc mode: in"
            + " place of pending)";
    public static final String CDC_SLOT_RETAINED_HELP = "WAL bytes the CDC connector's replication slot holds back"
            + " (cdc mode)";
    public static final String CDC_SLOT_WAL_STATUS_HELP = "The CDC slot's wal_status: 0 reserved, 1 extended,"
            + " 2 unreserved, 3 lost (cdc mode)";
    public static final String BATCH_HELP = "Claim to completion of one relay batch";
    public static final String BATCH_P95_HELP = "95th percentile of the relay's batch durations over the last five minutes";

    private MetricNames() {
    }

    /** The name without a suffix: {@code outbox_events_published_total} gives {@code outbox_events_published}. */
    public static String withoutSuffix(String name, String suffix) {
        return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
    }
}
