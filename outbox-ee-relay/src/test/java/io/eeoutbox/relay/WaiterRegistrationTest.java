package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

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

    /** Records the waiter calls; {@code quiet} answers the quiesce lock. */
    private static class Store implements OutboxStore {
        final List<String> calls = new ArrayList<>();
        boolean quiet = true;

        @Override
        public void registerWaiter(int listenerPid, String relayName) throws SQLException {
            calls.add("register " + listenerPid);
        }

        @Override
        public boolean unregisterWaiter(int listenerPid) {
            calls.add("unregister " + listenerPid);
            return true;
        }

        @Override
        public boolean tryQuiesce() {
            calls.add("quiesce " + quiet);
            return quiet;
        }

        @Override
        public int deleteStaleWaiters() {
            calls.add("deleteStale");
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
        public int retryDeadLetters(String eventType, String aggregateType, Instant from, Instant to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public OptionalInt cleanupBatch(long lockKey, Instant processedBefore, int batchSize) {
            throw new UnsupportedOperationException();
        }
    }

    private final Store store = new Store();
    private int pid = 4242;
    private final WaiterRegistration waiters = new WaiterRegistration(store, "unit", () -> pid, BUSY);

    @Test
    void anIdleRelayRegistersQuiescesLooksOnceMoreAndThenWaitsWithoutQueries() throws SQLException {
        assertThat(waiters.afterDrain(0)).isEqualTo(Duration.ZERO);
        assertThat(store.calls).containsExactly("register 4242", "quiesce true");
        assertThat(waiters.waiting()).isTrue();
        assertThat(waiters.afterDrain(0)).isNull();
        assertThat(waiters.afterDrain(0)).isNull();
        assertThat(store.calls).hasSize(2);
    }

    @Test
    void oneWakeUpWithEventsKeepsTheRegistrationTwoInARowWithdrawIt() throws SQLException {
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
    void whileAProducerMayHaveMissedTheRegistrationTheRelayKeepsLookingAtGrowingIntervals() throws SQLException {
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
    void withoutAListenConnectionNothingIsRegisteredAndAReplacedConnectionsRowIsWithdrawn() throws SQLException {
        pid = 0;
        assertThat(waiters.afterDrain(0)).isNull();
        assertThat(store.calls).isEmpty();

        pid = 11;
        waiters.afterDrain(0);
        pid = 12; // the listener reconnected
        waiters.afterDrain(0);
        assertThat(store.calls).containsExactly("register 11", "quiesce true", "unregister 11", "register 12",
                "quiesce true");

        waiters.close();
        assertThat(store.calls).endsWith("unregister 12");
    }

    @Test
    void aStoreWithoutWaitersLeavesProducersNotifyingAndIsNotAskedAgain() throws SQLException {
        OutboxStore none = new Store() {
            @Override
            public void registerWaiter(int listenerPid, String relayName) throws SQLException {
                calls.add("register " + listenerPid);
                throw new SQLException("relation \"outbox_relay_waiters\" does not exist", "42P01");
            }
        };
        WaiterRegistration w = new WaiterRegistration(none, "unit", () -> 7, BUSY);
        assertThat(w.afterDrain(0)).isNull();
        assertThat(w.afterDrain(0)).isNull();
        assertThat(w.afterDrain(4)).isEqualTo(BUSY);
        assertThat(((Store) none).calls).containsExactly("register 7");
    }

    @Test
    void withTheBusyPollOffTheRegistrationIsNeverWithdrawn() throws SQLException {
        WaiterRegistration w = new WaiterRegistration(store, "unit", () -> pid, Duration.ZERO);
        w.afterDrain(0);
        assertThat(w.afterDrain(5)).isNull();
        assertThat(w.afterDrain(5)).isNull();
        assertThat(store.calls).containsExactly("register 4242", "quiesce true");
    }
}
