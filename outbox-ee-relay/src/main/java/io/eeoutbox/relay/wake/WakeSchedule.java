package io.eeoutbox.relay.wake;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The relay's timed looks: the fallback poll (a drain when no drain has ended for a whole poll interval, so an
 * idle relay sends one claim per interval and a busy one none extra) and the one delayed look after a drain
 * (busy poll, a retried quiesce, the end of a broker hold). It only schedules; what a look does is the
 * relay's, through {@link Callbacks}.
 */
public final class WakeSchedule {

    /** What the schedule asks of the relay. */
    public interface Callbacks {
        /** The poll interval in force now. */
        Duration pollInterval();

        /** {@code System.nanoTime()} when the last drain ended. */
        long lastDrainEndNanos();

        /** True once the relay is stopping: nothing more is scheduled. */
        boolean stopping();

        /** A delayed look is due: wake the relay (a no-op while paused). */
        void wakeUp();

        /** Drain as soon as possible (a delayed look asked for no delay). */
        void drainSoon();

        /** The fallback poll is due: drain even during a backoff. */
        void pollDue();
    }

    private static final Logger LOG = Logger.getLogger(WakeSchedule.class.getName());
    private static final long POLL_TOLERANCE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final String relayName;
    private final ScheduledExecutorService executor;
    private final LongSupplier nanoTime;
    private final Callbacks relay;
    private ScheduledFuture<?> followUp; // guarded by this: the one pending delayed look
    private long followUpDueNanos; // guarded by this
    private ScheduledFuture<?> pollFuture; // guarded by this

    public WakeSchedule(String relayName, ScheduledExecutorService executor, LongSupplier nanoTime, Callbacks relay) {
        this.relayName = relayName;
        this.executor = executor;
        this.nanoTime = nanoTime;
        this.relay = relay;
    }

    /** Starts the fallback poll. */
    public void startPoll() {
        schedulePoll(relay.pollInterval());
    }

    /** Cancels the poll and the pending look. */
    public synchronized void cancel() {
        if (pollFuture != null) {
            pollFuture.cancel(false);
        }
        if (followUp != null) {
            followUp.cancel(false);
        }
    }

    /** Whether a delayed look is scheduled and has not fired yet. */
    public synchronized boolean followUpPending() {
        return followUp != null && !followUp.isDone();
    }

    /** Looks again after {@code delay}; at most one delayed look is pending, the earliest asked for. */
    public void followUp(Duration delay) {
        if (relay.stopping()) {
            return;
        }
        if (delay.isZero() || delay.isNegative()) {
            relay.drainSoon();
            return;
        }
        long delayNanos = delay.toNanos();
        long due = System.nanoTime() + delayNanos;
        synchronized (this) {
            // Only a look that has not started yet will look after the drain that asks: one already firing (its
            // delay is up, its task not done) may have woken the very drain that is asking now, and dropping this
            // look would leave a busy relay, no longer registered for notifications, to its fallback poll.
            if (followUp != null && !followUp.isDone() && followUp.getDelay(TimeUnit.NANOSECONDS) > 0
                    && followUpDueNanos - due <= 0) {
                return; // an earlier look is already scheduled
            }
            if (followUp != null) {
                followUp.cancel(false);
            }
            followUpDueNanos = due;
            try {
                followUp = executor.schedule(relay::wakeUp, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                followUp = null; // shutting down; the poll or the next wake-up covers it
            }
        }
    }

    private void schedulePoll(Duration delay) {
        synchronized (this) {
            if (relay.stopping()) {
                return;
            }
            try {
                pollFuture = executor.schedule(this::pollTick, Math.max(1, delay.toNanos()), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                if (!relay.stopping()) {
                    LOG.log(Level.WARNING, "relay " + relayName + ": the executor refused the poll; the relay stops polling", e);
                }
            }
        }
    }

    private void pollTick() {
        if (relay.stopping()) {
            return;
        }
        Duration interval = relay.pollInterval();
        long remaining = interval.toNanos() - (nanoTime.getAsLong() - relay.lastDrainEndNanos());
        if (remaining <= POLL_TOLERANCE_NANOS) {
            relay.pollDue();
            schedulePoll(interval);
        } else {
            schedulePoll(Duration.ofNanos(remaining));
        }
    }
}
