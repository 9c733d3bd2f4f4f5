package io.eeoutbox.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.relay.MutableClock;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.ops.JmxAdapter;
import io.eeoutbox.relay.ops.OperatorInput.BadInput;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.FakeOutboxStore;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every surface is a thin adapter over one {@link RelayOperations}: each action asked through the MBean
 * ({@link JmxAdapter}) and through the console's JSON API ({@link ConsoleApi}) reaches the same service instance,
 * with the same arguments (one parser), and a refused argument reaches it from neither.
 */
class OneServiceTest {

    private static final UUID ID = UUID.fromString("6f1c7a52-8a3e-4c55-9d6b-0b8e1f0c2a11");

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final Recording service = new Recording(relay(), clock);
    private final JmxAdapter mbean = new JmxAdapter(service, clock);
    private final ConsoleApi console = new ConsoleApi(() -> service);

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    @Test
    void pauseResumeAndRunNowReachTheServiceFromEverySurface() throws Exception {
        mbean.pause();
        mbean.resume();
        mbean.runNow();
        List<String> viaJmx = service.take();

        act("/api/relay/pause", "{}");
        act("/api/relay/resume", "{}");
        act("/api/relay/run-now", "{}");

        assertThat(viaJmx).containsExactly("pause", "resume", "runNow");
        assertThat(service.take()).isEqualTo(viaJmx);
    }

    @Test
    void retriesReachTheServiceWithTheSameFilterFromEverySurface() throws Exception {
        assertThat(mbean.retryDeadLetter(ID.toString())).isTrue();
        assertThat(mbean.retryDeadLetters("order.created", " ", "2026-02-03", null)).isEqualTo(3);
        List<String> viaJmx = service.take();

        assertThat(act("/api/dead-letters/" + ID + "/retry", "{}").getInt("retried")).isEqualTo(1);
        assertThat(act("/api/dead-letters/retry", "{\"eventType\":\"order.created\",\"aggregateType\":\" \","
                + "\"createdFrom\":\"2026-02-03\"}").getInt("retried")).isEqualTo(3);

        assertThat(viaJmx).containsExactly("retryDeadLetter " + ID,
                "retryDeadLetters " + new DeadLetterFilter("order.created", null, null,
                        Instant.parse("2026-02-03T00:00:00Z"), null, null));
        assertThat(service.take()).isEqualTo(viaJmx);
    }

    @Test
    void purgeReachesTheServiceWithTheSameAgeFromEverySurface() throws Exception {
        assertThat(mbean.purgeProcessedOlderThan(7)).isEqualTo(5);
        List<String> viaJmx = service.take();

        assertThat(act("/api/purge", "{\"olderThan\":\"P7D\"}").getJsonNumber("deleted").longValue()).isEqualTo(5);

        assertThat(viaJmx).containsExactly("purgeProcessedOlderThan PT168H");
        assertThat(service.take()).isEqualTo(viaJmx);
    }

    @Test
    void countsAreReadFromTheService() throws Exception {
        assertThat(mbean.getDeadLetters()).isEqualTo(2);
        assertThat(service.take()).containsExactly("stats");
        JsonObject count = console.read("/api/dead-letters/count", Map.of("eventType", new String[] {"order.created"}));
        assertThat(count.getInt("matching")).isEqualTo(2);
        assertThat(service.take()).containsExactly(
                "countDeadLetters " + new DeadLetterFilter("order.created", null, null, null, null, null));
    }

    @Test
    void aRefusedArgumentReachesTheServiceFromNoSurfaceAndIsRefusedAlike() {
        assertThatThrownBy(() -> mbean.retryDeadLetters(null, null, "yesterday", null))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("createdFrom must be an ISO-8601 instant such as 2026-03-01T12:00:00Z or a date such as"
                        + " 2026-03-01, was 'yesterday'");
        assertThatThrownBy(() -> act("/api/dead-letters/retry", "{\"createdFrom\":\"yesterday\"}"))
                .isInstanceOfSatisfying(BadInput.class, e -> {
                    assertThat(e.field()).isEqualTo("createdFrom");
                    assertThat(e.getMessage()).isEqualTo("createdFrom must be an ISO-8601 instant such as"
                            + " 2026-03-01T12:00:00Z or a date such as 2026-03-01, was 'yesterday'");
                });
        assertThatThrownBy(() -> mbean.retryDeadLetter("nope")).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("eventId");
        assertThatThrownBy(() -> act("/api/dead-letters/nope/retry", "{}"))
                .isInstanceOfSatisfying(BadInput.class, e -> assertThat(e.field()).isEqualTo("id"));
        assertThatThrownBy(() -> mbean.purgeProcessedOlderThan(-1)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> act("/api/purge", "{\"olderThan\":\"-P1D\"}")).isInstanceOf(BadInput.class);
        assertThat(service.take()).isEmpty();
    }

    private JsonObject act(String path, String body) throws Exception {
        return console.act(path, Map.of(), Json.createReader(new java.io.StringReader(body)).readObject(), "alice");
    }

    private OutboxRelay relay() {
        return OutboxRelay.builder()
                .config(RelayConfig.builder().set(RelaySettings.NAME, "orders").set(RelaySettings.NOTIFY_ENABLED, false)
                        .set(RelaySettings.POLL_INTERVAL, Duration.ofHours(1)).build())
                .store(new FakeOutboxStore()).executor(executor).clock(clock).publisher(message -> { }).build();
    }

    /** The service, recording which calls reach it (and answering without a database). */
    static final class Recording extends RelayOperations {
        private final List<String> calls = new ArrayList<>();

        Recording(OutboxRelay relay, MutableClock clock) {
            super(relay, clock);
        }

        synchronized List<String> take() {
            List<String> out = List.copyOf(calls);
            calls.clear();
            return out;
        }

        private synchronized void record(String call) {
            calls.add(call);
        }

        @Override
        public void pause() {
            record("pause");
        }

        @Override
        public void resume() {
            record("resume");
        }

        @Override
        public void runNow() {
            record("runNow");
        }

        @Override
        public boolean retryDeadLetter(UUID id) {
            record("retryDeadLetter " + id);
            return true;
        }

        @Override
        public int retryDeadLetters(DeadLetterFilter filter) {
            record("retryDeadLetters " + filter);
            return 3;
        }

        @Override
        public long purgeProcessedOlderThan(Duration age) {
            record("purgeProcessedOlderThan " + age);
            return 5;
        }

        @Override
        public RelayStats stats() {
            record("stats");
            return new RelayStats(1, 2, Duration.ZERO);
        }

        @Override
        public long countDeadLetters(DeadLetterFilter filter) {
            record("countDeadLetters " + filter);
            return 2;
        }
    }
}
