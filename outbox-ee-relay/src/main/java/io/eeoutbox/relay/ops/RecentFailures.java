package io.eeoutbox.relay.ops;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.RelayListener;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The last {@value #KEPT} failed publish attempts of a relay, for {@link RelayOperations#recentFailures()}: a
 * {@link RelayListener} (in a server, {@code ops.ee.OpsBootstrap} hands it every failure). Keeps what the relay's
 * log lines carry (event id, type, aggregate id, attempt, the error's text), never the payload.
 */
public final class RecentFailures implements RelayListener {

    static final int KEPT = 20;
    private static final int ERROR_CHARS = 500;

    private final Deque<RelayOperations.Failure> failures = new ArrayDeque<>();
    private final Clock clock = Clock.systemUTC();

    @Override
    public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
        add(message, cause, false);
    }

    @Override
    public void deadLettered(OutboxMessage message, Throwable cause) {
        add(message, cause, true);
    }

    /** The newest first. */
    public synchronized List<RelayOperations.Failure> list() {
        return new ArrayList<>(failures);
    }

    private synchronized void add(OutboxMessage m, Throwable cause, boolean dead) {
        String error = cause == null ? "" : cause.getClass().getSimpleName() + ": " + cause.getMessage();
        if (error.length() > ERROR_CHARS) {
            error = error.substring(0, ERROR_CHARS) + "…";
        }
        RelayOperations.Failure head = failures.peekFirst();
        if (dead && head != null && m.id().equals(head.attempt().eventId()) && head.attempt().number() == m.attempt()) {
            failures.removeFirst(); // the same attempt, reported as failed and then as dead-lettered: one line
        }
        failures.addFirst(new RelayOperations.Failure(clock.instant(),
                new RelayOperations.Attempt(m.id(), m.eventType(), m.aggregateId(), m.attempt()), error, dead));
        while (failures.size() > KEPT) {
            failures.removeLast();
        }
    }
}
