package io.eeoutbox.relay;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The relay's periodic housekeeping (stranded rows, the cleanup, the waiter registrations) every
 * {@code outbox.relay.cleanup.interval}, the first run within a minute of the start.
 */
final class Housekeeping {

    private final ScheduledExecutorService executor;
    private final Duration interval;
    private final BooleanSupplier stopping;
    private ScheduledFuture<?> future; // guarded by this

    Housekeeping(ScheduledExecutorService executor, Duration interval, BooleanSupplier stopping) {
        this.executor = executor;
        this.interval = interval;
        this.stopping = stopping;
    }

    synchronized void start(Runnable work) {
        long millis = interval.toMillis();
        future = executor.scheduleWithFixedDelay(() -> {
            if (!stopping.getAsBoolean()) {
                work.run();
            }
        }, Math.min(millis, TimeUnit.MINUTES.toMillis(1)), millis, TimeUnit.MILLISECONDS);
    }

    synchronized void cancel() {
        if (future != null) {
            future.cancel(false);
        }
    }
}
