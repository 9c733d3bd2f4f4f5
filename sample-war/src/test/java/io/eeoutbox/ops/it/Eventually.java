package io.eeoutbox.ops.it;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/** Waits for an outcome the test can observe, checking often, up to a deadline. */
final class Eventually {

    static final Duration PATIENCE = Duration.ofSeconds(30);

    private Eventually() {
    }

    static <T> T until(Callable<T> probe, Predicate<T> done, String what) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        T last = probe.call();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + PATIENCE + " waiting for " + what + "; last seen: " + last);
            }
            Thread.sleep(100);
            last = probe.call();
        }
        return last;
    }
}
