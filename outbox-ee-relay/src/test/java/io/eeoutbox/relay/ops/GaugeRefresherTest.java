package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.RelayStats;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class GaugeRefresherTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private final List<String> observed = new ArrayList<>();
    private final GaugeRefresher.Observer observer = new GaugeRefresher.Observer() {
        @Override
        public void refreshed(Instant at) {
            observed.add("ok " + at);
        }

        @Override
        public void refreshFailed(Throwable cause, Instant at) {
            observed.add("failed " + cause.getMessage());
        }
    };

    @Test
    void unknownUntilTheFirstRefreshThenTheQueriedValues() {
        GaugeRefresher r = new GaugeRefresher("unit", () -> new RelayStats(1200, 3, Duration.ofMillis(2500)), clock,
                Duration.ofSeconds(15), observer);
        assertThat(r.latest()).isEqualTo(GaugeRefresher.Gauges.UNKNOWN);
        assertThat(Double.isNaN(r.latest().pending())).isTrue();

        GaugeRefresher.Gauges g = r.refreshNow();
        assertThat(g).isEqualTo(new GaugeRefresher.Gauges(1200, 3, 2.5, clock.instant()));
        assertThat(r.latest()).isSameAs(g);
        assertThat(observed).containsExactly("ok 2026-03-01T12:00:00Z");
    }

    @Test
    void aFailedRefreshKeepsThePreviousValuesAndIsReported() {
        AtomicReference<SQLException> fail = new AtomicReference<>();
        GaugeRefresher r = new GaugeRefresher("unit", () -> {
            if (fail.get() != null) {
                throw fail.get();
            }
            return new RelayStats(7, 0, Duration.ZERO);
        }, clock, Duration.ofSeconds(15), observer);
        GaugeRefresher.Gauges first = r.refreshNow();
        fail.set(new SQLException("connection refused"));
        clock.advance(Duration.ofSeconds(15));

        assertThat(r.refreshNow()).isSameAs(first);
        assertThat(observed).containsExactly("ok 2026-03-01T12:00:00Z", "failed connection refused");
    }

    @Test
    void queriesOnItsOwnScheduleAndStopsWhenStopped() throws Exception {
        AtomicInteger queries = new AtomicInteger();
        CountDownLatch three = new CountDownLatch(3);
        GaugeRefresher r = new GaugeRefresher("unit", () -> {
            queries.incrementAndGet();
            three.countDown();
            return new RelayStats(0, 0, Duration.ZERO);
        }, clock, Duration.ofMillis(100), observer);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        try {
            r.start(executor);
            assertThat(three.await(5, TimeUnit.SECONDS)).isTrue();
            r.stop();
            assertThat(r.isScheduled()).isFalse();
            assertThat(queries.get()).isGreaterThanOrEqualTo(3);
        } finally {
            executor.shutdownNow();
        }
    }
}
