package io.eeoutbox.relay.jms;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Bounds how long a batch's sends may go without progress. A broker whose flow control blocks a producer (Artemis'
 * {@code BLOCK} address policy on a full address: the send waits for credits the broker does not grant while the
 * consumers are down) would hold the relay's thread past its lease, and another relay would claim the same rows.
 * When no send completed for the bound, the watchdog interrupts the sending thread (the client's wait for
 * credits gives up on an interrupt), and the publisher reports the batch's unsent messages as their
 * destination's outage (docs/decisions/0015-a-full-destination-is-an-outage.md).
 *
 * <p>One daemon thread per publisher, made on the first batch and ended by {@link #close()}; a batch costs one
 * scheduled check, not one per message.
 */
final class SendWatchdog implements AutoCloseable {

    private final Duration bound;
    private ScheduledExecutorService timer; // guarded by this

    /** @param bound how long the sends may go without progress; null or zero: no watchdog */
    SendWatchdog(Duration bound) {
        this.bound = bound == null || bound.isZero() || bound.isNegative() ? null : bound;
    }

    Duration bound() {
        return bound;
    }

    /** Watches the calling thread's sends until the returned guard is closed. */
    Guard watch() {
        return new Guard(Thread.currentThread());
    }

    private synchronized ScheduledExecutorService timer() {
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "ee-outbox-jms-send-watchdog");
                t.setDaemon(true);
                return t;
            });
        }
        return timer;
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    /** One batch's watch: {@link #progress()} after each send; closed when the batch's sends are done. */
    final class Guard implements AutoCloseable {
        private final Thread sender;
        private volatile long lastProgress = System.nanoTime();
        private boolean done; // guarded by this
        private boolean fired; // guarded by this
        private ScheduledFuture<?> check; // guarded by this

        private Guard(Thread sender) {
            this.sender = sender;
            if (bound != null) {
                schedule(bound.toNanos());
            }
        }

        private synchronized void schedule(long nanos) {
            if (!done) {
                check = timer().schedule(this::check, nanos, TimeUnit.NANOSECONDS);
            }
        }

        private void check() {
            long idle = System.nanoTime() - lastProgress;
            long left = bound.toNanos() - idle;
            if (left > 0) {
                schedule(left);
                return;
            }
            synchronized (this) {
                if (!done) {
                    fired = true;
                    sender.interrupt(); // inside the lock: close() clears it after, never before
                }
            }
        }

        /** A send completed. */
        void progress() {
            lastProgress = System.nanoTime();
        }

        /** Whether the watchdog interrupted the sends. */
        synchronized boolean fired() {
            return fired;
        }

        @Override
        public void close() {
            boolean clear;
            synchronized (this) {
                done = true;
                if (check != null) {
                    check.cancel(false);
                }
                clear = fired;
            }
            if (clear) {
                Thread.interrupted(); // the interrupt was ours: the relay's thread goes on uninterrupted
            }
        }
    }
}
