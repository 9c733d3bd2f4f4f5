package io.eeoutbox.relay.wake;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.ListenerId;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The registration's decisions after each drain, against a store that records its calls. */
class WaiterRegistrationTest {

    private static final Duration BUSY = Duration.ofMillis(10);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final ListenerId L1 = new ListenerId(4242, Instant.parse("2026-12-01T00:00:00Z"));
    private static final ListenerId L2 = new ListenerId(4343, Instant.parse("2026-12-01T00:05:00Z"));

    /** Records the waiter calls; {@code quiet} answers the quiesce lock, {@code fail} makes the next call throw. */
    private static class Store implements OutboxStore {
        final List<String> calls = new ArrayList<>();
        boolean quiet = true;
        boolean present = true;
        SQLException fail;

        private void call(String what) throws SQLException {
            calls.add(what);
            SQLException e = fail;
            if (e != null) {
                fail = null;
                throw e;
            }
        }

        @Override
        public void registerWaiter(ListenerId listener, String relayName) throws SQLException {
            call("register " + listener.pid());
        }

        @Override
        public boolean renewWaiter(ListenerId listener) throws SQLException {
            call("renew " + listener.pid());
            return present;
        }

        @Override
        public boolean unregisterWaiter(ListenerId listener) throws SQLException {
            call("unregister " + listener.pid());
            return true;
        }

        @Override
        public boolean tryQuiesce() throws SQLException {
            call("quiesce " + quiet);
            return quiet;
        }

        @Override
        public int deleteStaleWaiters() throws SQLException {
            call("deleteStale");
            return 0;
        }

        @Override
        public Session open() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Stats stats() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean retryDeadLetter(UUID id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int retryDeadLetters(DeadLetterFilter filter) {
            throw new UnsupportedOperationException();
        }

        @Override
        public OptionalInt cleanupBatch(long lockKey, Instant now, java.time.Duration retention, int batchSize) {
            throw new UnsupportedOperationException();
        }
    }

    private final Store store = new Store();
    private ListenerId listening = L1;
    private long nanos;
    private final WaiterRegistration waiters = registration(BUSY);

    private WaiterRegistration registration(Duration busy) {
        return new WaiterRegistration(store, "unit", () -> listening, busy, () -> POLL, () -> nanos);
    }

    @Test
    void anIdleRelayRegistersQuiescesLooksOnceMoreAndThenWaitsWithoutQueries() {
        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO);
        assertThat(store.calls).containsExactly("register 4242", "quiesce true");
        assertThat(waiters.waiting()).isTrue();
        assertThat(waiters.afterDrain(0)).isNull();
        assertThat(waiters.afterDrain(0)).isNull();
        assertThat(store.calls).hasSize(2);
    }

    @Test
    void oneWakeUpWithEventsKeepsTheRegistrationTwoInARowWithdrawIt() {
        waiters.afterDrain(0);
        store.calls.clear();
        assertThat(waiters.afterDrain(3)).isEqualTo(BUSY); // woken by a notification
        assertThat(waiters.afterDrain(0)).isNull();        // the busy look finds nothing: still waiting
        assertThat(store.calls).isEmpty();

        assertThat(waiters.afterDrain(5)).isEqualTo(BUSY);
        assertThat(waiters.afterDrain(7)).isEqualTo(BUSY); // events keep coming: producers need not notify
        assertThat(store.calls).containsExactly("unregister 4242");
        assertThat(waiters.afterDrain(2)).isEqualTo(BUSY);
        assertThat(store.calls).hasSize(1);

        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO); // idle again: register anew
        assertThat(store.calls).containsExactly("unregister 4242", "register 4242", "quiesce true");
    }

    @Test
    void whileAProducerMayHaveMissedTheRegistrationTheRelayKeepsLookingAtGrowingIntervals() {
        store.quiet = false;
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            delays.add(waiters.afterDrain(0));
        }
        assertThat(delays).extracting(Duration::toMillis).containsExactly(10L, 20L, 40L, 80L, 100L, 100L);
        assertThat(waiters.waiting()).isFalse();
        assertThat(store.calls.stream().filter(c -> c.startsWith("register"))).hasSize(1);

        store.quiet = true;
        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO);
        assertThat(waiters.waiting()).isTrue();
    }

    @Test
    void withoutNotificationsEmptyLooksComeSoonAfterWorkThenDoubleUpToThePoll() {
        listening = null; // NOTIFY off
        assertThat(waiters.afterDrain(40)).isEqualTo(BUSY);
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Duration d = waiters.afterDrain(0);
            delays.add(d == null ? null : d.toMillis());
        }
        assertThat(delays).as("10 ms doubling while the looks find nothing; then only the 1 s fallback poll")
                .containsExactly(10L, 20L, 40L, 80L, 160L, 320L, 640L, null, null, null, null, null);
        assertThat(waiters.afterDrain(1)).as("work again").isEqualTo(BUSY);
        assertThat(waiters.afterDrain(0)).as("the next empty look comes soon again").isEqualTo(BUSY);
        assertThat(store.calls).as("nothing registered without a LISTEN connection").isEmpty();

        WaiterRegistration wakeUpsOnly = registration(Duration.ZERO);
        wakeUpsOnly.afterDrain(3);
        assertThat(wakeUpsOnly.afterDrain(0)).as("busy poll off: the fallback poll only").isNull();
    }

    @Test
    void withoutAListenConnectionNothingIsRegisteredAndAReplacedConnectionsRowIsWithdrawn() {
        listening = null;
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        waiters.afterDrain(0);
        assertThat(waiters.afterDrain(0)).as("idle: the poll only").isNull();
        assertThat(store.calls).isEmpty();

        listening = L1;
        waiters.afterDrain(0);
        listening = L2; // the listener reconnected
        waiters.afterDrain(0);
        assertThat(store.calls).containsExactly("register 4242", "quiesce true", "unregister 4242", "register 4343",
                "quiesce true");

        waiters.close();
        assertThat(store.calls).endsWith("unregister 4343");
        assertThat(waiters.afterDrain(0)).as("closed: registers nothing any more").isNull();
        assertThat(store.calls).endsWith("unregister 4343");
    }

    @Test
    void aFailedRegistrationStatementDoesNotFailTheDrainTheRelayKeepsLookingAndTriesAgain() {
        store.fail = new SQLException("connection refused", "08001");
        assertThat(waiters.afterDrain(0)).isEqualTo(WaiterRegistration.MAX_RETRY);
        assertThat(waiters.waiting()).isFalse();
        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO);
        assertThat(store.calls).containsExactly("register 4242", "register 4242", "quiesce true");

        store.fail = new SQLException("timeout", "08006");
        waiters.afterDrain(0); // nothing to do while waiting: no statement, so nothing fails
        assertThat(store.calls).hasSize(3);
    }

    @Test
    void aRegistrationDeletedBySomeoneIsNoticedAtTheNextCleanupAndMadeAgain() {
        waiters.afterDrain(0);
        store.present = false;
        waiters.renewAtNextDrain();
        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO);
        assertThat(store.calls).containsExactly("register 4242", "quiesce true", "renew 4242", "register 4242",
                "quiesce true");
        waiters.afterDrain(0);
        assertThat(store.calls).hasSize(5);
    }

    @Test
    void withoutV8TheRelayLeavesProducersAsTheyAreAndChecksAgainAMinuteLater() {
        store.fail = new SQLException("relation \"outbox_relay_waiters\" does not exist", "42P01");
        assertThat(waiters.afterDrain(0)).as("no registration: notifications are not to be relied on").isNull();
        assertThat(waiters.afterDrain(0)).as("so the looks come soon, as without NOTIFY").isEqualTo(BUSY.multipliedBy(2));
        assertThat(waiters.afterDrain(4)).isEqualTo(BUSY);
        assertThat(store.calls).containsExactly("register 4242");

        nanos += WaiterRegistration.UNSUPPORTED_RECHECK.toNanos();
        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO); // applied meanwhile
        assertThat(store.calls).containsExactly("register 4242", "register 4242", "quiesce true");
    }

    @Test
    void withTheBusyPollOffTheRelayRegistersEvenAfterDrainsWithEventsAndNeverWithdraws() {
        WaiterRegistration w = registration(Duration.ZERO);
        // A first drain that catches up a backlog (start-up, reconnect) must not leave it unregistered.
        assertThat(w.afterDrain(50)).isEqualTo(Duration.ZERO);
        assertThat(w.afterDrain(5)).isNull();
        assertThat(w.afterDrain(5)).isNull();
        assertThat(store.calls).containsExactly("register 4242", "quiesce true");

        WaiterRegistration busyProducer = registration(Duration.ZERO);
        store.quiet = false;
        assertThat(busyProducer.afterDrain(5)).isEqualTo(WaiterRegistration.MIN_RETRY);
    }
}
