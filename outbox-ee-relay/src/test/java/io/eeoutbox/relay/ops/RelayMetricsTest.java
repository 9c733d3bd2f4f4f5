package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RelayMetricsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    static OutboxMessage message(String eventType, int attempt) {
        return new OutboxMessage(UUID.randomUUID(), 1, eventType, "{}",
                new OutboxMessage.Aggregate("order", "o1"), OutboxMessage.Delivery.of(T0, attempt));
    }

    /** Records what it is told, for assertions. */
    static final class RecordingSink implements MetricsSink {
        final List<String> calls = new ArrayList<>();

        @Override
        public void published() {
            calls.add("published");
        }

        @Override
        public void failed(String eventType) {
            calls.add("failed " + eventType);
        }

        @Override
        public void deferred(String destination) {
            calls.add("deferred " + destination);
        }

        @Override
        public void batchCompleted(Duration elapsed) {
            calls.add("batch " + elapsed.toMillis());
        }

        @Override
        public void close() {
            calls.add("closed");
        }
    }

    @Test
    void countsPublishedFailedByEventTypeAndDeadLetters() {
        RelayMetrics m = new RelayMetrics();
        m.published(message("order.created", 1));
        m.published(message("order.created", 1));
        m.failed(message("order.created", 1), new RuntimeException("x"), T0);
        m.failed(message("order.paid", 3), new RuntimeException("x"), T0);
        m.failed(message("order.paid", 4), new RuntimeException("x"), T0);
        m.deadLettered(message("order.paid", 4), new RuntimeException("x"));

        assertThat(m.published()).isEqualTo(2);
        assertThat(m.failed()).isEqualTo(3);
        assertThat(m.deadLettered()).isEqualTo(1);
        assertThat(m.failedByEventType()).containsExactly(
                java.util.Map.entry("order.created", 1L), java.util.Map.entry("order.paid", 2L));
    }

    @Test
    void batchDurationsGoIntoTheHistogram() {
        RelayMetrics m = new RelayMetrics();
        m.batchCompleted(100, 100, 0, Duration.ofMillis(40));
        m.batchCompleted(100, 99, 1, Duration.ofSeconds(6));

        DurationHistogram.Snapshot s = m.batchDurations();
        assertThat(s.count()).isEqualTo(2);
        assertThat(s.maxSeconds()).isEqualTo(6.0);
        assertThat(s.quantile(0.95)).isGreaterThan(5.0);
    }

    @Test
    void theRecentP95CoversTheLastFiveMinutesOnly() {
        io.eeoutbox.relay.MutableClock clock = new io.eeoutbox.relay.MutableClock(T0);
        RelayMetrics m = new RelayMetrics(clock);
        assertThat(m.recentBatchDurationP95Seconds()).isZero();
        for (int i = 0; i < 20; i++) {
            m.batchCompleted(100, 100, 0, Duration.ofSeconds(8)); // slow batches: p95 in (5, 10]
        }
        assertThat(m.recentBatchDurationP95Seconds()).isGreaterThan(5.0).isLessThanOrEqualTo(10.0);

        clock.advance(Duration.ofMinutes(3));
        for (int i = 0; i < 20; i++) {
            m.batchCompleted(100, 100, 0, Duration.ofMillis(20));
        }
        assertThat(m.recentBatchDurationP95Seconds()).as("half the window is still slow").isGreaterThan(5.0);

        clock.advance(Duration.ofMinutes(3)); // the slow ones are older than five minutes now
        assertThat(m.recentBatchDurationP95Seconds()).isLessThanOrEqualTo(0.025);
        clock.advance(Duration.ofMinutes(5));
        assertThat(m.recentBatchDurationP95Seconds()).isZero();
    }

    @Test
    void everyObservationReachesTheAttachedSinksUntilDetached() {
        RelayMetrics m = new RelayMetrics();
        RecordingSink sink = new RecordingSink();
        m.attach(sink);
        m.published(message("order.created", 1));
        m.failed(message("order.paid", 1), new RuntimeException("x"), T0);
        m.batchCompleted(2, 1, 1, Duration.ofMillis(7));
        m.detachAll();
        m.published(message("order.created", 1));

        assertThat(sink.calls).containsExactly("published", "failed order.paid", "batch 7", "closed");
        assertThat(m.published()).isEqualTo(2);
    }

    @Test
    void eventTypeLabelsAreCapped() {
        RelayMetrics m = new RelayMetrics();
        for (int i = 0; i < RelayMetrics.MAX_EVENT_TYPES + 5; i++) {
            m.failed(message("type-" + i, 1), new RuntimeException("x"), T0);
        }
        m.failed(message("type-0", 1), new RuntimeException("x"), T0); // a known type keeps its label

        assertThat(m.failedByEventType()).hasSize(RelayMetrics.MAX_EVENT_TYPES + 1);
        assertThat(m.failedByEventType().get(RelayMetrics.OTHER_EVENT_TYPE)).isEqualTo(5L);
        assertThat(m.failedByEventType().get("type-0")).isEqualTo(2L);
    }
}
