package io.eeoutbox.relay.backoff;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * After a database error the relay waits one poll interval before it drains again (unless asked to run
 * now), and logs the first error of a streak only. Times are {@code System.nanoTime()} values.
 */
public final class DatabaseBackoff {

    private static final Logger LOG = Logger.getLogger(DatabaseBackoff.class.getName());

    private final AtomicInteger streak = new AtomicInteger();
    private volatile long retryAtNanos;

    /** Records a failure at {@code nowNanos}; the next drain waits {@code wait}. Returns the streak's length. */
    public int failed(long nowNanos, Duration wait) {
        int failures = streak.incrementAndGet();
        retryAtNanos = nowNanos + wait.toNanos();
        return failures;
    }

    /** Records a success; returns how many failures it ended (0: there was no streak). */
    public int succeeded() {
        return streak.getAndSet(0);
    }

    /** Records a failure of relay {@code relay}'s drain and logs it: the first of a streak as a warning. */
    public void failed(String relay, Exception error, long nowNanos, Duration wait) {
        int failures = failed(nowNanos, wait);
        if (failures == 1) {
            LOG.log(Level.WARNING, "relay " + relay + ": database error, retrying every " + wait
                    + " until it works again: " + error, error);
        } else {
            LOG.fine(() -> "relay " + relay + ": database error again (" + failures + "): " + error);
        }
    }

    /** Records a successful drain of relay {@code relay}; logs the end of a streak of failures. */
    public void succeeded(String relay) {
        int failures = succeeded();
        if (failures > 0) {
            LOG.info(() -> "relay " + relay + ": the database answers again after " + failures + " failed attempts");
        }
    }

    /** Whether a drain at {@code nowNanos} should wait out the backoff. */
    public boolean waiting(long nowNanos) {
        return streak.get() > 0 && nowNanos - retryAtNanos < 0;
    }
}
