package io.eeoutbox.relay;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells PostgreSQL whether this relay waits for notifications, so that producers notify only then
 * (schema V8, whose header explains why no event can be missed). Decides after each drain whether
 * and when the relay looks again:
 *
 * <ul>
 *   <li>a drain that claimed events: look again after the busy-poll interval. The second such
 *       drain in a row means events keep coming: the registration is withdrawn, producers stop
 *       notifying (and stop taking PostgreSQL's notify lock) while the relay polls;</li>
 *   <li>a drain that found nothing, not registered: register the LISTEN connection, then try the
 *       quiesce lock. Got it: look once more at once, and after that wait for a notification.
 *       Not got (a producer that may have missed the registration is still open): look again
 *       soon and try again, at growing intervals up to {@link #MAX_RETRY};</li>
 *   <li>a drain that found nothing, registered and quiesced: wait (no query).</li>
 * </ul>
 *
 * <p>Without a LISTEN connection (NOTIFY off, or the listener is reconnecting) nothing is registered
 * and the relay waits for its fallback poll or an in-JVM wake-up. When the store has no waiters
 * (schema V8 not applied), the relay says so once and producers notify on every insert (V5).
 *
 * <p>Used by one drain at a time (the relay's drains never overlap), so it keeps no locks;
 * {@link #deleteStale()} (start-up, cleanup) only reads the store and logs.
 */
final class WaiterRegistration {

    private static final Logger LOG = Logger.getLogger(WaiterRegistration.class.getName());
    /** Retries of the quiesce lock start at the busy-poll interval (or this, when that is off)... */
    static final Duration MIN_RETRY = Duration.ofMillis(10);
    /** ...and double up to this. */
    static final Duration MAX_RETRY = Duration.ofMillis(100);

    private enum State { NONE, REGISTERED, WAITING }

    private final OutboxStore store;
    private final String relayName;
    private final IntSupplier listenerPid; // 0 while not listening
    private final Duration busyPoll;
    private State state = State.NONE;
    private int registeredPid; // the pid our row carries, 0 when we think there is none
    private int busyStreak;
    private int quiesceFailures;
    private volatile boolean unsupported; // also read by deleteStale on another thread

    WaiterRegistration(OutboxStore store, String relayName, IntSupplier listenerPid, Duration busyPoll) {
        this.store = Objects.requireNonNull(store, "store");
        this.relayName = Objects.requireNonNull(relayName, "relayName");
        this.listenerPid = Objects.requireNonNull(listenerPid, "listenerPid");
        this.busyPoll = Objects.requireNonNull(busyPoll, "busyPoll");
    }

    /**
     * After a drain that claimed {@code claimed} rows: updates the registration and says when to look
     * again.
     *
     * @return the delay before the next look, or null to wait for a wake-up or the fallback poll
     * @throws SQLException when the database failed (the relay treats it as a drain's error; the
     *         registration is retried after the next drain)
     */
    Duration afterDrain(int claimed) throws SQLException {
        boolean polling = !busyPoll.isZero();
        int pid = unsupported ? 0 : listenerPid.getAsInt();
        if (registeredPid != 0 && registeredPid != pid) {
            // The LISTEN connection was replaced (or lost): its row is stale.
            int old = registeredPid;
            registeredPid = 0;
            state = State.NONE;
            unregister(old);
        }
        if (claimed > 0) {
            busyStreak++;
            if (busyStreak >= 2 && polling && registeredPid != 0) {
                int old = registeredPid;
                registeredPid = 0;
                state = State.NONE;
                unregister(old);
            }
            return polling ? busyPoll : null;
        }
        busyStreak = 0;
        if (pid == 0 || state == State.WAITING) {
            return null;
        }
        if (state == State.NONE) {
            if (!register(pid)) {
                return null;
            }
            registeredPid = pid;
            state = State.REGISTERED;
            quiesceFailures = 0;
        }
        if (store.tryQuiesce()) {
            state = State.WAITING;
            return Duration.ZERO; // the look that finds what producers committed before the registration
        }
        quiesceFailures++;
        Duration first = polling ? busyPoll : MIN_RETRY;
        long millis = first.toMillis() << Math.min(quiesceFailures - 1, 10);
        return Duration.ofMillis(Math.min(Math.max(millis, 1), Math.max(MAX_RETRY.toMillis(), first.toMillis())));
    }

    /** The relay stops: withdraws the registration (best effort; a stale row only makes producers notify). */
    void close() {
        int old = registeredPid;
        registeredPid = 0;
        state = State.NONE;
        if (old != 0) {
            try {
                store.unregisterWaiter(old);
            } catch (SQLException | RuntimeException e) {
                LOG.log(Level.FINE, "relay " + relayName + ": could not withdraw its NOTIFY registration", e);
            }
        }
    }

    /** Deletes registrations of LISTEN connections that are gone (best effort, logged). */
    void deleteStale() {
        if (unsupported) {
            return;
        }
        try {
            int deleted = store.deleteStaleWaiters();
            if (deleted > 0) {
                LOG.info(() -> "relay " + relayName + ": deleted " + deleted
                        + " NOTIFY registrations of relays whose LISTEN connection is gone");
            }
        } catch (SQLException e) {
            // Without V8 there is nothing to delete; a drain finds that out and says so (on its own thread).
            if (!isUnsupported(e)) {
                LOG.log(Level.FINE, "relay " + relayName + ": could not delete stale NOTIFY registrations", e);
            }
        }
    }

    /** Whether this relay is registered and quiesced: it relies on notifications now. */
    boolean waiting() {
        return state == State.WAITING;
    }

    private boolean register(int pid) throws SQLException {
        try {
            store.registerWaiter(pid, relayName);
            return true;
        } catch (SQLException e) {
            if (isUnsupported(e)) {
                markUnsupported(e);
                return false;
            }
            throw e;
        }
    }

    private void unregister(int pid) throws SQLException {
        try {
            store.unregisterWaiter(pid);
        } catch (SQLException e) {
            if (!isUnsupported(e)) {
                throw e;
            }
            markUnsupported(e);
        }
    }

    private void markUnsupported(SQLException e) {
        if (!unsupported) {
            unsupported = true;
            registeredPid = 0;
            state = State.NONE;
            LOG.info(() -> "relay " + relayName + ": no NOTIFY registrations (" + e.getMessage()
                    + "); apply schema V8 so that producers notify only while a relay waits. Until then"
                    + " producers notify on every insert, as with V5 alone");
        }
    }

    /** The table or function of V8 is missing, or the store has none. */
    private static boolean isUnsupported(SQLException e) {
        String state = e.getSQLState();
        return e instanceof SQLFeatureNotSupportedException || "42P01".equals(state) || "42883".equals(state);
    }
}
