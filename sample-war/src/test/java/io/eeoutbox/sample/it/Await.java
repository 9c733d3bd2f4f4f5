package io.eeoutbox.sample.it;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/** Waits for an outcome the test can observe, checking often, up to a deadline. */
public final class Await {

    private Await() {
    }

    public static <T> T until(Duration timeout, Callable<T> probe, Predicate<T> done, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = probe.call();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last seen: " + last);
            }
            Thread.sleep(50);
            last = probe.call();
        }
        return last;
    }
}
