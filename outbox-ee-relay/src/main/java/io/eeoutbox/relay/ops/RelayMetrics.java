package io.eeoutbox.relay.ops;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.RelayListener;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The relay's counters and batch-duration histogram, collected by listening to the relay, with no
 * metrics library: {@code outbox_events_published_total}, {@code outbox_events_failed_total{event_type}}
 * and {@code outbox_batch_duration_seconds}. Each observation is also handed to the attached
 * {@link MetricsSink}s, which export it through the server's metrics API. The database gauges come
 * from {@link GaugeRefresher}, not from here.
 *
 * <p>{@code event_type} values are capped at {@value #MAX_EVENT_TYPES} distinct ones; further types are
 * counted under {@value #OTHER_EVENT_TYPE}, so a bug that invents event types cannot flood the registry.
 */
public final class RelayMetrics implements RelayListener {

    private static final Logger LOG = Logger.getLogger(RelayMetrics.class.getName());
    public static final int MAX_EVENT_TYPES = 200;
    public static final String OTHER_EVENT_TYPE = "_other";
    /** The window of {@link #recentBatchDurationP95Seconds()}. */
    public static final Duration RECENT_WINDOW = Duration.ofMinutes(5);

    private final LongAdder published = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final Map<String, LongAdder> failedByType = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> deferredByDestination = new ConcurrentHashMap<>();
    private final DurationHistogram batchDurations = new DurationHistogram();
    private final SlidingHistogram recentBatchDurations;
    private final CopyOnWriteArrayList<MetricsSink> sinks = new CopyOnWriteArrayList<>();

    /** Metrics on the system clock. */
    public RelayMetrics() {
        this(Clock.systemUTC());
    }

    /** {@code clock} times the window of {@link #recentBatchDurationP95Seconds()}. */
    public RelayMetrics(Clock clock) {
        this.recentBatchDurations = new SlidingHistogram(clock, RECENT_WINDOW, 5, DurationHistogram.DEFAULT_BOUNDS_SECONDS);
    }

    /** Forwards every later observation to {@code sink} too. */
    public void attach(MetricsSink sink) {
        sinks.add(Objects.requireNonNull(sink, "sink"));
    }

    /** Stops forwarding to {@code sink} and closes it (its meters are removed). */
    public void detach(MetricsSink sink) {
        if (sinks.remove(sink)) {
            try {
                sink.close();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not remove the relay's metrics from " + sink, e);
            }
        }
    }

    /** Detaches every sink. */
    public void detachAll() {
        for (MetricsSink sink : sinks) {
            detach(sink);
        }
    }

    @Override
    public void published(OutboxMessage message) {
        published.increment();
        for (MetricsSink s : sinks) {
            s.published();
        }
    }

    @Override
    public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
        String type = eventTypeLabel(message.eventType());
        failed.increment();
        failedByType.computeIfAbsent(type, t -> new LongAdder()).increment();
        for (MetricsSink s : sinks) {
            s.failed(type);
        }
        if (cause instanceof BrokerUnavailableException unavailable) {
            String destination = destinationLabel(unavailable instanceof DestinationUnavailableException d
                    ? d.destination() : MetricNames.BROKER_DESTINATION);
            deferredByDestination.computeIfAbsent(destination, t -> new LongAdder()).increment();
            for (MetricsSink s : sinks) {
                s.deferred(destination);
            }
        }
    }

    /** The label for a destination: itself while fewer than {@value #MAX_EVENT_TYPES} are known. */
    private String destinationLabel(String destination) {
        if (deferredByDestination.containsKey(destination) || deferredByDestination.size() < MAX_EVENT_TYPES) {
            return destination;
        }
        return OTHER_EVENT_TYPE;
    }

    /** Events deferred (no attempt counted) by destination, sorted by destination. */
    public Map<String, Long> deferredByDestination() {
        Map<String, Long> copy = new TreeMap<>();
        deferredByDestination.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    @Override
    public void deadLettered(OutboxMessage message, Throwable cause) {
        deadLettered.increment();
    }

    @Override
    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
        batchDurations.record(elapsed);
        recentBatchDurations.record(elapsed);
        for (MetricsSink s : sinks) {
            s.batchCompleted(elapsed);
        }
    }

    /** The label for an event type: itself while fewer than {@value #MAX_EVENT_TYPES} are known. */
    String eventTypeLabel(String eventType) {
        if (failedByType.containsKey(eventType) || failedByType.size() < MAX_EVENT_TYPES) {
            return eventType;
        }
        return OTHER_EVENT_TYPE;
    }

    public long published() {
        return published.sum();
    }

    public long failed() {
        return failed.sum();
    }

    public long deadLettered() {
        return deadLettered.sum();
    }

    /** Failed attempts by event type, sorted by type. */
    public Map<String, Long> failedByEventType() {
        Map<String, Long> copy = new TreeMap<>();
        failedByType.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    public DurationHistogram.Snapshot batchDurations() {
        return batchDurations.snapshot();
    }

    /**
     * The 95th percentile of the batch durations of the last {@link #RECENT_WINDOW}, in seconds, estimated
     * from the histogram's buckets ({@code outbox_batch_duration_p95_seconds}); 0 without batches.
     */
    public double recentBatchDurationP95Seconds() {
        return recentBatchDurations.snapshot().quantile(0.95);
    }
}
