package io.eeoutbox.spi;

import io.eeoutbox.OutboxMessage;
import java.time.Duration;
import java.time.Instant;

/**
 * Observes a relay: metrics adapters, health checks and tests (as latches) implement it. Every
 * method has an empty default. Methods are called on the relay's thread and must return quickly
 * and not throw (an exception is logged and ignored).
 */
public interface RelayListener {

    /** A message was accepted by the broker (before its row is marked). */
    default void published(OutboxMessage message) {
    }

    /** A publish attempt failed; the row will be retried at {@code retryAfter}. */
    default void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
    }

    /** The last allowed attempt failed: the row is now a dead letter. */
    default void deadLettered(OutboxMessage message, Throwable cause) {
    }

    /** A batch went through claim, publish and complete. */
    default void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
    }

    /** The relay could not reach the database or failed outside a single message's publish. */
    default void relayError(Throwable cause) {
    }

    /** The relay's loop ran (whether or not it found work): liveness. */
    default void loopRan(Instant at) {
    }
}
