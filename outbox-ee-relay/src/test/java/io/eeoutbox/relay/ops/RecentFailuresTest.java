package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The console's recent failures: the newest first, an attempt that failed and died on one line, at most 20. */
class RecentFailuresTest {

    private static OutboxMessage message(String aggregateId, int attempt) {
        return new OutboxMessage(UUID.randomUUID(), 1, "order.created", "{\"secret\":1}",
                new OutboxMessage.Aggregate("order", aggregateId), OutboxMessage.Delivery.of(Instant.EPOCH, attempt));
    }

    @Test
    void theNewestFirstWithoutThePayload() {
        RecentFailures failures = new RecentFailures();
        OutboxMessage first = message("o1", 1);
        OutboxMessage second = message("o2", 3);
        failures.failed(first, new IllegalStateException("broker refused"), Instant.EPOCH);
        failures.failed(second, null, Instant.EPOCH);

        assertThat(failures.list()).extracting(f -> f.attempt().aggregateId()).containsExactly("o2", "o1");
        RelayOperations.Failure older = failures.list().get(1);
        assertThat(older.attempt().eventId()).isEqualTo(first.id());
        assertThat(older.attempt().number()).isEqualTo(1);
        assertThat(older.error()).isEqualTo("IllegalStateException: broker refused");
        assertThat(older.deadLettered()).isFalse();
        assertThat(failures.list()).allSatisfy(f -> assertThat(f.toString()).doesNotContain("secret"));
    }

    @Test
    void anAttemptThatFailedAndDiedIsOneLineAndTwentyAreKept() {
        RecentFailures failures = new RecentFailures();
        OutboxMessage poison = message("o1", 5);
        failures.failed(poison, new IllegalArgumentException("bad"), Instant.EPOCH);
        failures.deadLettered(poison, new IllegalArgumentException("bad"));
        assertThat(failures.list()).singleElement().satisfies(f -> assertThat(f.deadLettered()).isTrue());

        for (int i = 0; i < 30; i++) {
            failures.failed(message("a" + i, 1), new RuntimeException("x"), Instant.EPOCH);
        }
        assertThat(failures.list()).hasSize(RecentFailures.KEPT);
        assertThat(failures.list().get(0).attempt().aggregateId()).isEqualTo("a29");
    }
}
