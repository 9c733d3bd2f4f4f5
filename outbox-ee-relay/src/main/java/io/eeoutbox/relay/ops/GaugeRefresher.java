package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.store.CdcStatements;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the gauges that need a query ({@code outbox_events_pending}, {@code outbox_events_dead},
 * {@code outbox_oldest_pending_age_seconds}) fresh on a schedule of their own: one cheap statement
 * ({@code OutboxStats}, one pass over the partial index of unprocessed rows; in cdc mode {@code OutboxCdcStats},
 * which reads the dead letters' index only, docs/cdc.md) every refresh interval, whatever the number of scrapes or
 * batches. The counts come from the database, so every server of
 * a cluster reports the same values.
 *
 * <p>Readers get the values of the last successful refresh; before the first one, NaN. A failed
 * refresh keeps the previous values, is reported to the {@link Observer} (health) and logged once
 * per streak.
 */
public final class GaugeRefresher {

    private static final Logger LOG = Logger.getLogger(GaugeRefresher.class.getName());

    /** The relay's {@code stats()}: a single short query. */
    @FunctionalInterface
    public interface StatsSource {
        RelayStats stats() throws SQLException;
    }

    /** Told about each refresh: the health checks use it as a database probe. */
    public interface Observer {
        void refreshed(Instant at);

        void refreshFailed(Throwable cause, Instant at);
    }

    /**
     * The gauges as of {@code refreshedAt} (null and NaN values before the first refresh).
     *
     * @param pending                  rows waiting to be published
     * @param dead                     dead letters
     * @param oldestPendingAgeSeconds  how long the oldest pending row had waited, 0 when none
     * @param scheduled                delayed events not yet due (schema V14)
     * @param cdcSlot                  in cdc mode the connector's replication slot (then pending and the oldest
     *                                 pending age are NaN: they do not apply); null in relay mode or before a refresh
     */
    public record Gauges(double pending, double dead, double oldestPendingAgeSeconds, double scheduled,
                         Instant refreshedAt, CdcStatements.Slot cdcSlot) {
        public static final Gauges UNKNOWN = new Gauges(Double.NaN, Double.NaN, Double.NaN, Double.NaN, null);

        /** Without delayed events. */
        public Gauges(double pending, double dead, double oldestPendingAgeSeconds, Instant refreshedAt) {
            this(pending, dead, oldestPendingAgeSeconds, 0, refreshedAt);
        }

        /** In relay mode. */
        public Gauges(double pending, double dead, double oldestPendingAgeSeconds, double scheduled, Instant refreshedAt) {
            this(pending, dead, oldestPendingAgeSeconds, scheduled, refreshedAt, null);
        }

        /** {@link MetricNames#CDC_SLOT_PRESENT}: 1 or 0; NaN in relay mode. */
        public double cdcSlotPresent() {
            return cdcSlot == null ? Double.NaN : cdcSlot.present() ? 1 : 0;
        }

        /** {@link MetricNames#CDC_SLOT_ACTIVE}: 1 when a connector is connected, else 0; NaN in relay mode. */
        public double cdcSlotActive() {
            return cdcSlot == null ? Double.NaN : cdcSlot.active() ? 1 : 0;
        }

        /** {@link MetricNames#CDC_SLOT_LAG_BYTES}; NaN in relay mode or without the slot. */
        public double cdcSlotLagBytes() {
            return cdcSlot == null || !cdcSlot.present() ? Double.NaN : cdcSlot.lagBytes();
        }

        /** {@link MetricNames#CDC_SLOT_RETAINED_WAL_BYTES}; NaN in relay mode or without the slot. */
        public double cdcSlotRetainedWalBytes() {
            return cdcSlot == null || !cdcSlot.present() ? Double.NaN : cdcSlot.retainedWalBytes();
        }

        /** {@link MetricNames#CDC_SLOT_WAL_STATUS}: 0 reserved, 1 extended, 2 unreserved, 3 lost; NaN otherwise. */
        public double cdcSlotWalStatus() {
            int code = cdcSlot == null ? -1 : java.util.List.of("reserved", "extended", "unreserved", "lost")
                    .indexOf(cdcSlot.walStatus());
            return code < 0 ? Double.NaN : code;
        }
    }

    private final String relayName;
    private final StatsSource source;
    private final Clock clock;
    private final Duration interval;
    private final Observer observer;
    private final AtomicInteger failureStreak = new AtomicInteger();
    private volatile Gauges latest = Gauges.UNKNOWN;
    private ScheduledFuture<?> future;

    public GaugeRefresher(String relayName, StatsSource source, Clock clock, Duration interval, Observer observer) {
        this.relayName = Objects.requireNonNull(relayName, "relayName");
        this.source = Objects.requireNonNull(source, "source");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.observer = observer != null ? observer : new Observer() {
            @Override
            public void refreshed(Instant at) {
            }

            @Override
            public void refreshFailed(Throwable cause, Instant at) {
            }
        };
    }

    /** Refreshes at once and then every interval on {@code executor} (which this never shuts down). */
    public synchronized void start(ScheduledExecutorService executor) {
        if (future != null) {
            throw new IllegalStateException("the gauge refresher of relay " + relayName + " was already started");
        }
        long millis = Math.max(1, interval.toMillis());
        future = executor.scheduleWithFixedDelay(this::refreshNow, 0, millis, TimeUnit.MILLISECONDS);
    }

    /** Cancels the schedule; a refresh that is running finishes. */
    public synchronized void stop() {
        if (future != null) {
            future.cancel(false);
        }
    }

    public Duration interval() {
        return interval;
    }

    /** The values of the last successful refresh. */
    public Gauges latest() {
        return latest;
    }

    /** Whether the last refresh failed ({@link #latest()} then holds older values). */
    public boolean failing() {
        return failureStreak.get() > 0;
    }

    /** Runs the query now; never throws (a failure keeps the previous values). */
    public Gauges refreshNow() {
        Instant at = clock.instant();
        try {
            RelayStats s = source.stats();
            // cdc mode: nothing waits on a relay, so pending and the oldest pending age are NaN (docs/cdc.md)
            Gauges g = s.cdc() ? new Gauges(Double.NaN, s.dead(), Double.NaN, s.scheduled(), at, s.cdcSlot())
                    : new Gauges(s.pending(), s.dead(), s.oldestPendingAge().toNanos() / 1e9, s.scheduled(), at);
            latest = g;
            int failures = failureStreak.getAndSet(0);
            if (failures > 0) {
                LOG.info(() -> "relay " + relayName + ": the gauges are refreshed again after " + failures + " failures");
            }
            observer.refreshed(at);
            return g;
        } catch (SQLException | RuntimeException e) {
            if (failureStreak.incrementAndGet() == 1) {
                LOG.warning(() -> "relay " + relayName + ": could not refresh the outbox gauges (keeping the values of "
                        + latest.refreshedAt() + "): " + e);
            } else {
                LOG.log(Level.FINE, e, () -> "relay " + relayName + ": gauge refresh failed again");
            }
            observer.refreshFailed(e, at);
            return latest;
        }
    }

    /** Whether {@link #start} was called and {@link #stop} was not. */
    public synchronized boolean isScheduled() {
        return future != null && !future.isCancelled();
    }
}
