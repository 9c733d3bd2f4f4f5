package io.eeoutbox.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.GaugeRefresher;
import io.eeoutbox.relay.ops.History;
import io.eeoutbox.relay.ops.OperatorInput.BadInput;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.FakeOutboxStore;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code GET api/history}: the service's history as JSON, unknown values as null. */
class ConsoleHistoryTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final History history = new History(clock, Duration.ofSeconds(40));
    private final ConsoleApi console = new ConsoleApi(() -> new RelayOperations(relay(), null, List::of, Map.of(),
            clock, history));

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    @Test
    void theHistoryAsJsonTheOldestPointFirst() throws Exception {
        Object relay = new Object();
        history.record(clock.instant(), GaugeRefresher.Gauges.UNKNOWN, false, relay, 100, "running");
        clock.advance(History.STEP);
        history.record(clock.instant(), new GaugeRefresher.Gauges(1234, 0, 0, clock.instant()), false, relay, 623,
                "running");
        clock.advance(History.STEP);
        history.record(clock.instant(), new GaugeRefresher.Gauges(1200, 0, 0, clock.instant()), false, relay, 623,
                "paused");

        JsonObject json = console.read("/api/history", Map.of());

        assertThat(json).isEqualTo(Json.createReader(new StringReader("""
                {"now": "2026-03-01T12:00:20Z", "stepSeconds": 10, "windowSeconds": 3600, "maxPoints": 360, "points": [
                  {"at": "2026-03-01T12:00:00Z", "pending": null, "publishedPerSecond": null, "state": "running"},
                  {"at": "2026-03-01T12:00:10Z", "pending": 1234, "publishedPerSecond": 52.3, "state": "running"},
                  {"at": "2026-03-01T12:00:20Z", "pending": 1200, "publishedPerSecond": 0.0, "state": "paused"}
                ]}""")).readObject());
    }

    @Test
    void noPointsYetIsAnEmptyList() throws Exception {
        JsonObject json = new ConsoleApi(() -> new RelayOperations(relay(), clock)).read("/api/history", Map.of());
        assertThat(json.getJsonArray("points")).isEmpty();
        assertThat(json.getInt("stepSeconds")).isEqualTo(10);
    }

    @Test
    void parametersAreRefused() {
        assertThatThrownBy(() -> console.read("/api/history", Map.of("since", new String[] {"1h"})))
                .isInstanceOfSatisfying(BadInput.class, e -> assertThat(e.field()).isEqualTo("since"));
    }

    private OutboxRelay relay() {
        return OutboxRelay.builder()
                .config(RelayConfig.builder().set(RelaySettings.NAME, "orders").set(RelaySettings.NOTIFY_ENABLED, false)
                        .set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1)).build())
                .store(new FakeOutboxStore()).executor(executor).clock(clock).publisher(message -> { }).build();
    }
}
