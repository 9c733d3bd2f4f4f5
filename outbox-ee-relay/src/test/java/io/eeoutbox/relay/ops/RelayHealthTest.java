package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.MutableClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Readiness and liveness on a fixed clock. */
class RelayHealthTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private final RelayHealth health = new RelayHealth(clock, OpsConfig.defaults()); // threshold PT30S

    private static OutboxMessage event() {
        return new OutboxMessage(UUID.randomUUID(), 1, "order.created", "{}",
                new OutboxMessage.Aggregate("order", "o1"), OutboxMessage.Delivery.of(Instant.EPOCH, 1));
    }

    private static final SQLException DB_DOWN = new SQLException("Connection refused", "08001");
    private static final Exception BROKER_DOWN = new IllegalStateException("AMQ219007: Cannot connect to server(s)");

    @Test
    void readyWhileNothingIsWrong() {
        RelayHealth.Report r = health.readiness();
        assertThat(r.up()).isTrue();
        assertThat(r.data()).containsEntry("database", "reachable").containsEntry("broker", "reachable");
    }

    @Test
    void aDatabaseOutageMakesReadinessDownOnlyAfterTheThreshold() {
        health.loopRan(clock.instant());
        health.relayError(DB_DOWN);
        clock.advance(Duration.ofSeconds(29));
        health.loopRan(clock.instant());
        health.relayError(DB_DOWN);
        assertThat(health.readiness().up()).isTrue();

        clock.advance(Duration.ofSeconds(1));
        RelayHealth.Report down = health.readiness();
        assertThat(down.up()).isFalse();
        assertThat(down.data().get("database").toString()).startsWith("unreachable since 2026-03-01T12:00:00Z (30 s)");
        assertThat(down.data().get("databaseError").toString()).contains("Connection refused");
    }

    @Test
    void aLoopThatEndsWithoutErrorMeansTheDatabaseIsBack() {
        health.loopRan(clock.instant());
        health.relayError(DB_DOWN);
        clock.advance(Duration.ofMinutes(1));
        health.loopRan(clock.instant());   // this loop fails no more...
        assertThat(health.readiness().up()).isFalse();
        clock.advance(Duration.ofSeconds(1));
        health.loopRan(clock.instant());   // ...as the next one shows
        assertThat(health.readiness().up()).isTrue();
    }

    @Test
    void theGaugeQueryIsADatabaseProbeToo() {
        health.refreshFailed(DB_DOWN, clock.instant());
        clock.advance(Duration.ofSeconds(31));
        assertThat(health.readiness().up()).isFalse();
        health.refreshed(clock.instant());
        assertThat(health.readiness().up()).isTrue();
    }

    @Test
    void anUnreachableBrokerShowsInTheDataButReadinessStaysUp() {
        health.failed(event(), BROKER_DOWN, clock.instant());
        health.failed(event(), BROKER_DOWN, clock.instant());
        clock.advance(Duration.ofHours(1));
        RelayHealth.Report outage = health.readiness();
        assertThat(outage.up()).as("the application still takes writes: stay in rotation").isTrue();
        assertThat(outage.data().get("broker").toString()).startsWith("every publish failing since").contains("(3600 s)");
        assertThat(outage.data().get("brokerError").toString()).contains("AMQ219007");

        health.published(event());
        assertThat(health.readiness().data()).containsEntry("broker", "reachable");
    }

    @Test
    void onePoisonEventRetriedAloneIsNotAnUnreachableBroker() {
        OutboxMessage poison = event();
        for (int i = 0; i < 10; i++) {
            health.failed(poison, new IllegalArgumentException("message too large"), clock.instant());
            clock.advance(Duration.ofSeconds(10));
        }
        assertThat(health.readiness().up()).isTrue();
    }

    @Test
    void livenessIsDownWhenTheLoopHasBeenSilentForThreePollIntervals() {
        Duration poll = Duration.ofSeconds(5);
        health.loopRan(clock.instant());
        clock.advance(Duration.ofSeconds(15));
        assertThat(health.liveness(true, false, poll).up()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        RelayHealth.Report down = health.liveness(true, false, poll);
        assertThat(down.up()).isFalse();
        assertThat(down.data()).containsEntry("silentSeconds", 16L).containsEntry("threshold", "PT15S");
    }

    @Test
    void aCompletedBatchCountsAsActivityDuringALongDrain() {
        Duration poll = Duration.ofSeconds(5);
        health.loopRan(clock.instant());
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(10));
            health.batchCompleted(100, 100, 0, Duration.ofSeconds(10));
        }
        assertThat(health.liveness(true, false, poll).up()).isTrue();
    }

    @Test
    void aPublishWithinItsLeaseKeepsTheRelayAliveAndOnePastItDoesNot() {
        Duration poll = Duration.ofSeconds(5);
        health.loopRan(clock.instant());
        java.time.Instant leaseEnd = clock.instant().plusSeconds(60);
        clock.advance(Duration.ofSeconds(35)); // a Kafka batch waiting out its delivery timeout
        RelayHealth.Report slow = health.liveness(true, false, poll, leaseEnd);
        assertThat(slow.up()).as("a publish under way within its lease").isTrue();
        assertThat(slow.data()).containsEntry("publishingUntil", leaseEnd.toString()).containsEntry("silentSeconds", 35L);
        assertThat(health.liveness(true, false, poll, null).up()).as("the same silence with no publish under way").isFalse();
        clock.advance(Duration.ofSeconds(26));
        assertThat(health.liveness(true, false, poll, leaseEnd).up()).as("a publish past its lease is stuck").isFalse();
    }

    @Test
    void aPausedRelayIsAliveAndARelayThatDoesNotRunIsNotChecked() {
        Duration poll = Duration.ofSeconds(5);
        clock.advance(Duration.ofHours(1));
        assertThat(health.liveness(true, false, poll).up()).isFalse();
        assertThat(health.liveness(true, true, poll).up()).isTrue();
        assertThat(health.liveness(false, false, poll).up()).isTrue();
    }

    @Test
    void shortPollIntervalsUseTheFloor() {
        health.loopRan(clock.instant());
        clock.advance(Duration.ofSeconds(9));
        assertThat(health.liveness(true, false, Duration.ofSeconds(1)).up()).isTrue();  // 3 x 1 s < 10 s floor
        clock.advance(Duration.ofSeconds(2));
        assertThat(health.liveness(true, false, Duration.ofSeconds(1)).up()).isFalse();
    }
}
