package io.eeoutbox.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/** How long a failed event waits before its next attempt. */
@FunctionalInterface
public interface BackoffPolicy {

    /**
     * @param failedAttempts how many attempts have failed so far, 1 after the first failure
     * @return the delay before the next attempt (never negative)
     */
    Duration delay(int failedAttempts);

    /**
     * Exponential backoff with jitter: {@code initial * factor^(failedAttempts-1)}, capped at
     * {@code max}, then spread by up to {@code ±jitter} (a fraction, 0 for none) so that rows
     * that failed together are not retried together.
     *
     * @param random a source of numbers in [0, 1), for example {@code ThreadLocalRandom.current()::nextDouble};
     *               tests pass a fixed one
     */
    static BackoffPolicy exponential(Duration initial, double factor, Duration max, double jitter,
                                     DoubleSupplier random) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        Objects.requireNonNull(random, "random");
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial must be positive, was " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max (" + max + ") must not be below initial (" + initial + ")");
        }
        if (!(factor >= 1.0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("factor must be a finite number >= 1, was " + factor);
        }
        if (!(jitter >= 0.0 && jitter <= 1.0)) {
            throw new IllegalArgumentException("jitter must be between 0 and 1, was " + jitter);
        }
        double initialMs = initial.toMillis();
        double maxMs = max.toMillis();
        return failedAttempts -> {
            int exponent = Math.max(0, failedAttempts - 1);
            double base = Math.min(maxMs, initialMs * Math.pow(factor, exponent));
            double spread = jitter == 0.0 ? 0.0 : base * jitter * (2.0 * random.getAsDouble() - 1.0);
            long ms = Math.round(Math.min(maxMs, Math.max(0.0, base + spread)));
            return Duration.ofMillis(ms);
        };
    }
}
