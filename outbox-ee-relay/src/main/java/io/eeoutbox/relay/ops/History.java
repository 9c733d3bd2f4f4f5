package io.eeoutbox.relay.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The last hour of the relay, in memory, for the console's chart: one {@link Point} every {@link #STEP} (pending
 * rows, events published per second over the step, the relay's state), at most {@link #CAPACITY} points, the oldest
 * dropped first. Each point is made of values the relay already has: the pending count of the
 * {@link GaugeRefresher}'s last refresh (no statement of its own) and the published counter of the relay's counters.
 * Thread-safe.
 *
 * <p>Nothing is invented: a point's pending is null when the last refresh failed or is older than the gauges'
 * {@code maxGaugeAge}; its rate is null on the first point of a relay (after a start or a restart within the
 * deployment: a new relay starts its counters at 0, and a counter that went down is never read as a negative rate)
 * and while no relay runs; a paused or stopped relay's points carry that state (the console shades them) and their
 * true rate, 0 while paused. A missed
 * step (the server suspended, the executor busy) leaves a hole in time, which the chart does not bridge. See
 * docs/operations.md, "The console's chart".
 */
public final class History {

    /** The time between two points. */
    public static final Duration STEP = Duration.ofSeconds(10);
    /** At most this many points: one hour at {@link #STEP}. */
    public static final int CAPACITY = 360;
    /** The points kept are at most this old. */
    public static final Duration WINDOW = STEP.multipliedBy(CAPACITY);

    /**
     * One point of the chart.
     *
     * @param pending            rows waiting to be published as of the last gauge refresh; null: unknown then
     * @param publishedPerSecond events published per second since the previous point; null: unknown
     * @param state              the relay's state (running, paused, waiting-for-broker, stopped)
     */
    public record Point(Instant at, Long pending, Double publishedPerSecond, String state) {
    }

    /** The points of the last {@link #WINDOW} as of {@code now}, the oldest first. */
    public record Series(Instant now, Duration step, Duration window, int capacity, List<Point> points) {
    }

    private final Clock clock;
    private final Duration maxGaugeAge;
    private final ArrayDeque<Point> points = new ArrayDeque<>();
    private Object lastRelay; // whose counter lastPublished is: a relay restarted is a new one
    private long lastPublished;
    private Instant lastAt;

    /**
     * @param maxGaugeAge a gauge refresh older than this is not shown as a point's pending (the refresher stopped);
     *                    about twice the refresh interval
     */
    public History(Clock clock, Duration maxGaugeAge) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxGaugeAge = Objects.requireNonNull(maxGaugeAge, "maxGaugeAge");
    }

    /** A history that no one samples (a relay built in plain Java): always empty. */
    public static History none(Clock clock) {
        return new History(clock, Duration.ZERO);
    }

    /**
     * Adds the point of now from what is at hand, never a statement: {@code refresher}'s last values and {@code ops}'s
     * counters and state ({@code ops} null: no relay runs in this application).
     */
    public void sample(GaugeRefresher refresher, RelayOperations ops) {
        Instant at = clock.instant();
        if (ops == null) {
            record(at, refresher.latest(), refresher.failing(), null, 0, "stopped");
        } else {
            record(at, refresher.latest(), refresher.failing(), ops, ops.counters().published(), ops.state());
        }
    }

    /**
     * Adds a point at {@code at} (kept to the millisecond: a browser's {@code Date.parse} reads no finer).
     *
     * @param gauges        the gauges' last successful refresh ({@link GaugeRefresher.Gauges#UNKNOWN} before one)
     * @param gaugesFailing whether the last refresh failed (the gauges then are older values)
     * @param relay         the relay whose counter {@code published} is (any object that stands for it); null: none
     *                      runs, {@code published} is ignored
     * @param published     events published since that relay started
     */
    public synchronized void record(Instant at, GaugeRefresher.Gauges gauges, boolean gaugesFailing, Object relay,
                                    long published, String state) {
        at = at.truncatedTo(ChronoUnit.MILLIS);
        Long pending = null;
        Instant refreshed = gauges.refreshedAt();
        if (!gaugesFailing && refreshed != null && !Double.isNaN(gauges.pending())
                && Duration.between(refreshed, at).compareTo(maxGaugeAge) <= 0) {
            pending = Math.round(gauges.pending());
        }
        Double rate = null;
        if (relay != null && relay == lastRelay && published >= lastPublished && at.isAfter(lastAt)) {
            rate = (published - lastPublished) / (Duration.between(lastAt, at).toNanos() / 1e9);
        }
        lastRelay = relay;
        lastPublished = published;
        lastAt = at;
        points.addLast(new Point(at, pending, rate, Objects.requireNonNull(state, "state")));
        while (points.size() > CAPACITY) {
            points.removeFirst();
        }
    }

    /** The points of the last {@link #WINDOW}, the oldest first. */
    public synchronized Series series() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Instant from = now.minus(WINDOW);
        List<Point> shown = new ArrayList<>(points.size());
        for (Point p : points) {
            if (!p.at().isBefore(from)) {
                shown.add(p);
            }
        }
        return new Series(now, STEP, WINDOW, CAPACITY, List.copyOf(shown));
    }
}
