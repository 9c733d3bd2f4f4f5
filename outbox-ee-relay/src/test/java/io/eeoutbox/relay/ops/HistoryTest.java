package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.FakeOutboxStore;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The console's history: bounded, rates from the counter's deltas, and gaps where a value is not known. */
class HistoryTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final Object RELAY = new Object();

    private final MutableClock clock = new MutableClock(T0);
    private final History history = new History(clock, Duration.ofSeconds(40));
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    @Test
    void keepsAtMostAnHourOfPointsTheOldestDropped() {
        for (int i = 0; i < History.CAPACITY + 25; i++) {
            step(gauges(i), false, RELAY, 100L * i, "running");
        }
        List<History.Point> points = history.series().points();
        assertThat(points).hasSize(History.CAPACITY);
        assertThat(points.get(0).pending()).isEqualTo(25L);
        assertThat(points.get(points.size() - 1).pending()).isEqualTo(History.CAPACITY + 24L);
        assertThat(points.get(0).at()).isEqualTo(T0.plus(History.STEP.multipliedBy(25)));
        assertThat(History.WINDOW).isEqualTo(Duration.ofHours(1));
        assertThat(history.series().capacity()).isEqualTo(360);
    }

    @Test
    void theRateIsTheCountersDeltaOverTheTimeBetweenPoints() {
        step(gauges(10), false, RELAY, 1000, "running");
        step(gauges(10), false, RELAY, 1250, "running"); // 250 in 10 s
        clock.advance(Duration.ofSeconds(15)); // a late tick: 30 in 25 s
        step(gauges(10), false, RELAY, 1280, "running");
        step(gauges(10), false, RELAY, 1280, "paused");

        assertThat(rates()).containsExactly(null, 25.0, 1.2, 0.0);
        assertThat(history.series().points()).extracting(History.Point::state)
                .containsExactly("running", "running", "running", "paused");
    }

    @Test
    void aRestartedRelayOrACounterThatWentDownGivesNoRateNeverANegativeOne() {
        Object restarted = new Object();
        step(gauges(5), false, RELAY, 5000, "running");
        step(gauges(5), false, RELAY, 5100, "running");
        step(gauges(5), false, null, 0, "stopped"); // no relay runs
        step(gauges(5), false, restarted, 30, "running"); // a new relay, its counters from 0
        step(gauges(5), false, restarted, 130, "running");
        step(gauges(5), false, restarted, 40, "running"); // the same relay's counter went down: not read as a rate
        step(gauges(5), false, restarted, 60, "running");
        // a new relay whose counter is already above the old one's: still no rate across the restart
        step(gauges(5), false, RELAY, 100_000, "running");

        assertThat(rates()).containsExactly(null, 10.0, null, null, 10.0, null, 2.0, null);
    }

    @Test
    void aFailedOrStaleRefreshAndNoRefreshYetAreGapsNotTheOldValue() {
        step(GaugeRefresher.Gauges.UNKNOWN, false, RELAY, 0, "running"); // before the first refresh
        step(gauges(7), false, RELAY, 0, "running");
        step(gauges(7), true, RELAY, 0, "running"); // the last refresh failed: the 7 is older
        Instant old = clock.instant();
        step(new GaugeRefresher.Gauges(9, 0, 0, old), false, RELAY, 0, "running");
        clock.advance(Duration.ofSeconds(30)); // 40 s after it: still shown (maxGaugeAge)
        history.record(clock.instant(), new GaugeRefresher.Gauges(9, 0, 0, old), false, RELAY, 0, "running");
        clock.advance(Duration.ofSeconds(1)); // older than that: the refresher stopped
        history.record(clock.instant(), new GaugeRefresher.Gauges(9, 0, 0, old), false, RELAY, 0, "running");

        assertThat(history.series().points()).extracting(History.Point::pending)
                .containsExactly(null, 7L, null, 9L, 9L, null);
    }

    @Test
    void timesAreKeptToTheMillisecondThatABrowserReads() {
        history.record(T0.plusNanos(123_456_789), gauges(1), false, RELAY, 0, "running");
        clock.set(T0.plusNanos(987_654_321));
        assertThat(history.series().points().get(0).at()).isEqualTo(T0.plusMillis(123));
        assertThat(history.series().now()).isEqualTo(T0.plusMillis(987));
    }

    @Test
    void theSeriesShowsTheLastHourOnly() {
        step(gauges(1), false, RELAY, 0, "running");
        step(gauges(2), false, RELAY, 0, "running");
        clock.advance(Duration.ofMinutes(59).plusSeconds(45)); // no sample since: the first point is now over an hour old
        assertThat(history.series().points()).extracting(History.Point::pending).containsExactly(2L);
        assertThat(history.series().now()).isEqualTo(clock.instant());
        assertThat(history.series().step()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aSampleReadsTheRefreshersLastValuesAndTheCountersWithoutAStatement() throws Exception {
        AtomicInteger queries = new AtomicInteger();
        AtomicReference<SQLException> fail = new AtomicReference<>();
        GaugeRefresher refresher = new GaugeRefresher("unit", () -> {
            queries.incrementAndGet();
            if (fail.get() != null) {
                throw fail.get();
            }
            return new RelayStats(42, 1, Duration.ZERO);
        }, clock, Duration.ofSeconds(15), null);
        RelayOperations ops = new RelayOperations(relay(), clock);

        history.sample(refresher, ops); // before the first refresh
        refresher.refreshNow();
        clock.advance(History.STEP);
        history.sample(refresher, ops);
        fail.set(new SQLException("connection refused"));
        refresher.refreshNow();
        clock.advance(History.STEP);
        history.sample(refresher, ops);
        clock.advance(History.STEP);
        history.sample(refresher, null); // the relay stopped

        assertThat(queries).hasValue(2); // the two refreshes, none for the samples
        assertThat(history.series().points()).extracting(History.Point::pending).containsExactly(null, 42L, null, null);
        assertThat(history.series().points()).extracting(History.Point::state)
                .containsExactly("stopped", "stopped", "stopped", "stopped"); // the relay here was never started
        assertThat(rates()).containsExactly(null, 0.0, 0.0, null);
    }

    private void step(GaugeRefresher.Gauges g, boolean failing, Object relay, long published, String state) {
        history.record(clock.instant(), g, failing, relay, published, state);
        clock.advance(History.STEP);
    }

    private GaugeRefresher.Gauges gauges(long pending) {
        return new GaugeRefresher.Gauges(pending, 0, 0, clock.instant());
    }

    private List<Double> rates() {
        return history.series().points().stream().map(History.Point::publishedPerSecond).toList();
    }

    private OutboxRelay relay() {
        return OutboxRelay.builder()
                .config(RelayConfig.builder().set(RelaySettings.NAME, "orders").set(RelaySettings.NOTIFY_ENABLED, false)
                        .set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1)).build())
                .store(new FakeOutboxStore()).executor(executor).clock(clock).publisher(message -> { }).build();
    }
}
