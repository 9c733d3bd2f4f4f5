package io.eeoutbox.relay.fleet;

import io.eeoutbox.relay.store.FleetStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A relay's membership of its outbox's fleet (schema V13): a heartbeat on the relay's executor, one statement every
 * {@code outbox.relay.fleet.heartbeat-interval}, that writes the relay's row and reads whether the fleet is paused.
 *
 * <p>While the fleet is paused, and from the start until the first heartbeat has said whether it is, the relay claims
 * nothing ({@link #holds()}): a relay started while the fleet is paused stays paused. A change is acknowledged in the
 * row (the epoch applied) by a heartbeat of its own right after it was applied: after a pause, once the relay's drain
 * is idle (its batch in flight published and completed), so nothing is published after the acknowledgement.
 *
 * <p>Without the tables (SQLSTATE 42P01, no V13) or without the right to write them (42501) the relay leaves the
 * fleet, says so once, and runs on unpaused: pause all cannot reach it. Any other failure keeps the state last read and
 * is tried again at the next heartbeat (a relay that cannot reach its database claims nothing anyway). See
 * docs/operations.md, "Every relay of the outbox".
 */
public final class FleetMembership {

    private static final Logger LOG = Logger.getLogger(FleetMembership.class.getName());
    private static final Set<String> LEAVE_FLEET = Set.of("42P01", "42501");
    private static final long ACK_CHECK_MILLIS = 20;
    private static final long CLEANUP_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    /** What the heartbeat asks of its relay. */
    public interface Relay {
        /** The relay's state for its row: running, paused, fleet-paused, waiting-for-broker, stopped, starting. */
        String state();

        boolean pausedLocally();

        /** Published, failed, dead-lettered since start, and the last error (or null). */
        FleetStore.Tally counts();

        /** Whether no drain runs or is asked for: nothing is being published. */
        boolean idle();

        /** Asks for a drain (the fleet was resumed, or its state became known). */
        void wakeUp();
    }

    private final FleetStore store;
    private final FleetStore.Identity identity;
    private final Duration interval;
    private final Duration retention;
    private final ScheduledExecutorService executor;
    private final Relay relay;
    private final LongSupplier nanoTime;

    private volatile boolean known;         // a heartbeat has read the control row (or the relay left the fleet)
    private volatile boolean off;           // no V13, or no right to write it: not a member
    private volatile boolean fleetPaused;
    private volatile String changedBy;
    private volatile FleetStore.Beat last;  // the last heartbeat's read: the control row and the fleet
    private volatile long epochRead = -1;
    private volatile long epochApplied;
    private volatile boolean failing;
    private volatile boolean stopped;
    private long lastCleanupNanos;          // heartbeat thread only
    private ScheduledFuture<?> beats;        // guarded by this

    /**
     * @param interval  {@code outbox.relay.fleet.heartbeat-interval}
     * @param retention {@code outbox.relay.fleet.retention}: rows unseen this long are deleted
     */
    public FleetMembership(FleetStore store, FleetStore.Identity identity, Duration interval, Duration retention,
                           ScheduledExecutorService executor, Relay relay) {
        this.store = Objects.requireNonNull(store, "store");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.relay = Objects.requireNonNull(relay, "relay");
        this.nanoTime = System::nanoTime;
        this.lastCleanupNanos = nanoTime.getAsLong() - CLEANUP_EVERY_NANOS;
    }

    /** Starts the heartbeat: the first one at once. */
    public synchronized void start() {
        beats = executor.scheduleWithFixedDelay(this::beatQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the heartbeat and writes the row once more, as stopped (a relay stopped cleanly is not shown missing);
     * waits for that at most {@code grace}.
     */
    public void stop(Duration grace) {
        stopped = true;
        synchronized (this) {
            if (beats != null) {
                beats.cancel(false);
            }
        }
        if (off) {
            return;
        }
        try {
            executor.submit(this::beatQuietly).get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RejectedExecutionException | java.util.concurrent.ExecutionException
                 | java.util.concurrent.TimeoutException e) {
            LOG.log(Level.FINE, "relay " + identity.relayName() + ": the last heartbeat was not written", e);
        }
    }

    /** Whether the fleet keeps this relay from claiming: paused, or not known yet. */
    public boolean holds() {
        return !off && (!known || fleetPaused);
    }

    /** Whether the fleet is paused, as the last heartbeat read it. */
    public boolean fleetPaused() {
        return !off && fleetPaused;
    }

    /** Whether the relay takes part in the fleet (false without schema V13). */
    public boolean member() {
        return !off;
    }

    /** Whether the last heartbeat failed. */
    public boolean failing() {
        return failing;
    }

    /** Who paused or resumed the fleet last, as the last heartbeat read it (or null). */
    public String changedBy() {
        return changedBy;
    }

    /** What the last heartbeat read (the fleet at most one interval old), or null before the first. */
    public FleetStore.Beat lastRead() {
        return last;
    }

    /** The fleet's statements, for the operations service (pause all, resume all, a fresh read). */
    public FleetStore store() {
        return store;
    }

    public FleetStore.Identity identity() {
        return identity;
    }

    public Duration interval() {
        return interval;
    }

    /** Writes the row and reads the control row now, on the calling thread (pause all: the acting relay at once). */
    public void beatNow() {
        beatQuietly();
    }

    private synchronized void beatQuietly() {
        if (off) {
            return;
        }
        try {
            beat();
            failing = false;
        } catch (SQLException e) {
            if (LEAVE_FLEET.contains(e.getSQLState())) {
                off = true;
                LOG.warning(() -> "relay " + identity.relayName() + " is not part of the fleet: " + e.getMessage().strip()
                        + " (the fleet needs schema V13 and the right to write outbox_relays); pause all does not reach it");
                relay.wakeUp();
                return;
            }
            LOG.log(failing ? Level.FINE : Level.WARNING, e, () -> "relay " + identity.relayName()
                    + ": the fleet heartbeat failed (tried again in " + interval + "): " + e.getMessage());
            failing = true;
        } catch (RuntimeException e) { // a scheduled task that throws is not run again
            LOG.log(Level.WARNING, "relay " + identity.relayName() + ": the fleet heartbeat failed", e);
            failing = true;
        }
    }

    private void beat() throws SQLException {
        String state = stopped ? "stopped" : relay.state();
        FleetStore.Beat read = store.beat(identity, new FleetStore.Report(interval, state, relay.pausedLocally(),
                relay.counts(), epochApplied));
        FleetStore.Control control = read.control();
        last = read;
        boolean wasKnown = known;
        boolean changed = control.epoch() != epochRead;
        changedBy = control.changedBy();
        fleetPaused = control.paused();
        epochRead = control.epoch();
        known = true;
        if (changed && wasKnown) {
            LOG.info(() -> "relay " + identity.relayName() + (control.paused() ? " paused" : " resumed") + " by the fleet"
                    + " (epoch " + control.epoch() + ", by " + control.changedBy() + ")");
        } else if (!wasKnown && control.paused()) {
            LOG.info(() -> "relay " + identity.relayName() + " starts paused: the fleet was paused by "
                    + control.changedBy() + " (epoch " + control.epoch() + ")");
        }
        if (!control.paused() && (changed || !wasKnown)) {
            relay.wakeUp();
        }
        if ((control.epoch() != epochApplied || !wasKnown) && !stopped) {
            acknowledgeWhenApplied(control.epoch()); // on the first heartbeat too: the row then shows the state known
        }
        cleanUp();
    }

    /** Writes the row again once the change is applied: at once after a resume, when the drain is idle after a pause. */
    private void acknowledgeWhenApplied(long epoch) {
        try {
            executor.schedule(() -> {
                if (stopped || epoch != epochRead) {
                    return; // a later heartbeat has read a newer change: it acknowledges that one
                }
                if (fleetPaused && !relay.idle()) {
                    acknowledgeWhenApplied(epoch);
                    return;
                }
                epochApplied = epoch;
                beatQuietly();
            }, ACK_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "relay " + identity.relayName() + ": the executor refused the acknowledgement", e);
        }
    }

    private void cleanUp() throws SQLException {
        long now = nanoTime.getAsLong();
        if (now - lastCleanupNanos >= CLEANUP_EVERY_NANOS) {
            lastCleanupNanos = now;
            int deleted = store.deleteGone(retention);
            if (deleted > 0) {
                LOG.info(() -> "relay " + identity.relayName() + ": " + deleted + " relays unseen for " + retention
                        + " removed from the fleet");
            }
        }
    }
}
