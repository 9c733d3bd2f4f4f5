package io.eeoutbox.relay.wake;

import io.eeoutbox.relay.store.ListenerId;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells PostgreSQL whether this relay waits for notifications, so that producers notify only then
 * (schema V8, whose header explains why no event can be missed). Decides after each drain whether
 * and when the relay looks again:
 *
 * <ul>
 *   <li>a drain that claimed events (busy poll on): look again after the busy-poll interval. The
 *       second such drain in a row means events keep coming: the registration is withdrawn, and
 *       producers stop notifying (and stop taking PostgreSQL's notify lock) while the relay polls;</li>
 *   <li>a drain that found nothing (or any drain, with the busy poll off), not registered: register
 *       the LISTEN connection, then try the quiesce lock. Got it: look once more at once, and after
 *       that wait for a notification. Not got (a producer that may have missed the registration is
 *       still open): look again soon and try again, at growing intervals up to {@link #MAX_RETRY};</li>
 *   <li>registered and quiesced: wait (no query). At each cleanup the relay checks that its row is
 *       still there (one statement), and registers again if someone deleted it.</li>
 * </ul>
 *
 * <p>Without a LISTEN connection (NOTIFY off, or the listener is reconnecting) nothing is registered
 * and no notification can come: after a look that found nothing the relay looks again after the busy-poll
 * interval, then after twice that, and so on, doubling while the looks find nothing, until the delay reaches
 * the fallback poll; from then on only the poll (and in-JVM wake-ups) start a look. So a relay that was busy a
 * moment ago finds events that arrive a few milliseconds apart within milliseconds, and an idle relay still
 * sends about one claim per poll (issue 29; docs/decisions/0005-busy-poll-and-notify-only-while-waiting.md). When the schema has no V8 (or the
 * relay's role may not write the table), the relay says so once, tries again a minute later, and
 * meanwhile producers notify as V5 alone has them do (without V8) or not at all (missing grant).
 * A failed registration statement never fails the drain: the relay keeps looking and tries again.
 *
 * <p>The relay calls {@link #afterDrain} from one drain at a time; {@link #close()} and
 * {@link #renewAtNextDrain()} come from other threads, so the state is guarded by this object.
 */
public final class WaiterRegistration {

    private static final Logger LOG = Logger.getLogger(WaiterRegistration.class.getName());
    /** Retries of the quiesce lock start at the busy-poll interval (or this, when that is off)... */
    static final Duration MIN_RETRY = Duration.ofMillis(10);
    /** ...and double up to this (or the busy-poll interval, when that is longer). */
    static final Duration MAX_RETRY = Duration.ofMillis(100);
    /** How long the relay believes that the schema has no V8 before it tries again. */
    static final Duration UNSUPPORTED_RECHECK = Duration.ofMinutes(1);

    private enum State { NONE, REGISTERED, WAITING }

    private final OutboxStore store;
    private final String relayName;
    private final Supplier<ListenerId> listener; // null while not listening
    private final Duration busyPoll;
    private final Supplier<Duration> pollInterval;
    private final LongSupplier nanoTime;
    private State state = State.NONE;
    private ListenerId registered; // the listener our row names, null when we think there is none
    private int busyStreak;
    private int emptyStreak; // looks in a row that found nothing
    private int retries;
    private boolean renew;
    private boolean errorLogged;
    private volatile long unsupportedUntil; // nanoTime; meaningful while unsupported
    private volatile boolean unsupported;
    private boolean closed;

    public WaiterRegistration(OutboxStore store, String relayName, Supplier<ListenerId> listener, Duration busyPoll,
                       Supplier<Duration> pollInterval, LongSupplier nanoTime) {
        this.store = Objects.requireNonNull(store, "store");
        this.relayName = Objects.requireNonNull(relayName, "relayName");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.busyPoll = Objects.requireNonNull(busyPoll, "busyPoll");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * After a drain that claimed {@code claimed} rows: updates the registration and says when to look
     * again. Never throws for the registration's statements (they are logged and retried).
     *
     * @return the delay before the next look, or null to wait for a wake-up or the fallback poll
     */
    public synchronized Duration afterDrain(int claimed) {
        if (closed) {
            return null;
        }
        boolean polling = !busyPoll.isZero();
        if (claimed > 0) {
            busyStreak++;
            emptyStreak = 0;
        } else {
            busyStreak = 0;
            emptyStreak = Math.min(emptyStreak + 1, 62);
        }
        try {
            Duration next = decide(claimed, polling);
            errorLogged = false;
            return next;
        } catch (SQLException e) {
            if (isUnsupported(e)) {
                markUnsupported(e);
                return claimed > 0 && polling ? busyPoll : null;
            }
            if (!errorLogged) {
                errorLogged = true;
                LOG.log(Level.WARNING, "relay " + relayName + ": a NOTIFY registration statement failed (" + e
                        + "); looking again every " + MAX_RETRY.toMillis() + " ms until it works", e);
            } else {
                LOG.log(Level.FINE, "relay " + relayName + ": a NOTIFY registration statement failed again", e);
            }
            return max(MAX_RETRY, busyPoll);
        }
    }

    private Duration decide(int claimed, boolean polling) throws SQLException {
        ListenerId now = isUnsupported() ? null : listener.get();
        if (registered != null && !registered.equals(now)) {
            // The LISTEN connection was replaced (or lost): its row is stale.
            ListenerId old = registered;
            registered = null;
            state = State.NONE;
            store.unregisterWaiter(old);
        }
        if (state == State.WAITING && renew) {
            renew = false;
            if (!store.renewWaiter(registered)) {
                LOG.info(() -> "relay " + relayName + ": its NOTIFY registration was gone; registering again");
                registered = null;
                state = State.NONE;
            }
        }
        if (polling && claimed > 0) {
            if (busyStreak >= 2 && registered != null) {
                ListenerId old = registered;
                registered = null;
                state = State.NONE;
                store.unregisterWaiter(old);
            }
            return busyPoll;
        }
        if (state == State.WAITING) {
            return null;
        }
        if (now == null) {
            return polling ? soonerThanThePoll() : null;
        }
        if (state == State.NONE) {
            store.registerWaiter(now, relayName);
            registered = now;
            state = State.REGISTERED;
            retries = 0;
        }
        if (store.tryQuiesce()) {
            state = State.WAITING;
            return Duration.ZERO; // the look that finds what producers committed before the registration
        }
        retries++;
        Duration first = polling ? busyPoll : MIN_RETRY;
        long millis = first.toMillis() << Math.min(retries - 1, 10);
        return Duration.ofMillis(Math.max(1, Math.min(millis, max(MAX_RETRY, first).toMillis())));
    }

    /**
     * Without notifications, after the {@code emptyStreak}-th look in a row that found nothing: the busy-poll
     * interval doubled once per further empty look, or null (the fallback poll) once that reaches the poll.
     */
    private Duration soonerThanThePoll() {
        long poll = pollInterval.get().toNanos();
        long delay = busyPoll.toNanos();
        for (int i = 1; i < emptyStreak && delay < poll; i++) {
            delay *= 2;
        }
        return delay < poll ? Duration.ofNanos(delay) : null;
    }

    /** The relay stops: withdraws the registration (best effort; a stale row only makes producers notify). */
    public synchronized void close() {
        closed = true;
        ListenerId old = registered;
        registered = null;
        state = State.NONE;
        if (old != null) {
            try {
                store.unregisterWaiter(old);
            } catch (SQLException | RuntimeException e) {
                LOG.log(Level.FINE, "relay " + relayName + ": could not withdraw its NOTIFY registration", e);
            }
        }
    }

    /** Asks the next drain to check that the registration is still there (one statement). */
    public synchronized void renewAtNextDrain() {
        renew = true;
    }

    /**
     * Deletes registrations of LISTEN connections that are gone (best effort, logged). Success also
     * shows that V8 is there, so a relay that found it missing tries again.
     */
    public void deleteStale() {
        try {
            int deleted = store.deleteStaleWaiters();
            unsupported = false;
            if (deleted > 0) {
                LOG.info(() -> "relay " + relayName + ": deleted " + deleted
                        + " NOTIFY registrations of relays whose LISTEN connection is gone");
            }
        } catch (SQLException e) {
            // Without V8 there is nothing to delete; a drain finds that out and says so.
            if (!isUnsupported(e)) {
                LOG.log(Level.FINE, "relay " + relayName + ": could not delete stale NOTIFY registrations", e);
            }
        }
    }

    /** Whether this relay is registered and quiesced: it relies on notifications now. */
    public synchronized boolean waiting() {
        return state == State.WAITING;
    }

    private boolean isUnsupported() {
        return unsupported && nanoTime.getAsLong() - unsupportedUntil < 0;
    }

    private void markUnsupported(SQLException e) {
        boolean first = !unsupported;
        unsupported = true;
        unsupportedUntil = nanoTime.getAsLong() + UNSUPPORTED_RECHECK.toNanos();
        registered = null;
        state = State.NONE;
        if (first) {
            String why = "42501".equals(e.getSQLState())
                    ? "grant SELECT, INSERT, UPDATE, DELETE on outbox_relay_waiters to the relay's database role"
                    : "apply schema V8";
            LOG.warning(() -> "relay " + relayName + ": cannot register for notifications (" + e.getMessage() + "); "
                    + why + " so that producers notify only while a relay waits. Until then producers notify on"
                    + " every insert if the schema has only V5, and not at all if it has V8 (events then wait for"
                    + " this relay's fallback poll). Trying again every " + UNSUPPORTED_RECHECK.toSeconds() + " s");
        } else {
            LOG.log(Level.FINE, "relay " + relayName + ": still cannot register for notifications", e);
        }
    }

    /** The table or function of V8 is missing, the role may not use it, or the store has none. */
    private static boolean isUnsupported(SQLException e) {
        String state = e.getSQLState();
        return e instanceof SQLFeatureNotSupportedException || "42P01".equals(state) || "42883".equals(state)
                || "42501".equals(state);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
