package io.eeoutbox.relay.complete;

import io.eeoutbox.OutboxMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The WARNING lines for a batch's counted failures. An event that fails for its own reason (a record too
 * large, a payload the broker refuses) gets its own line, as an operator needs to find it. A cause that every
 * event of the batch meets (a topic the producer may not write to, a queue that does not exist) would give
 * one line per event per attempt: a backlog of 100,000 events at 10 attempts is a million lines. So
 * events of one batch that fail the same way, with the same outcome, share one line once there are more
 * than {@link #EACH_UP_TO}: it gives their number, the error and the first few events' fields. Every event's
 * own line, with its stack trace, stays at FINE.
 */
final class FailureLines {

    /** Up to this many events that fail the same way get a line each. */
    static final int EACH_UP_TO = 3;

    enum Outcome {
        RETRIED, DEAD, LEASE_LOST
    }

    private record Failure(OutboxMessage message, Instant retryAfter) {
    }

    private record Key(Outcome outcome, String error) {
    }

    private final Logger log;
    private final String relayName;
    private final int maxAttempts;
    private final Map<Key, List<Failure>> groups = new LinkedHashMap<>();

    FailureLines(Logger log, String relayName, int maxAttempts) {
        this.log = log;
        this.relayName = relayName;
        this.maxAttempts = maxAttempts;
    }

    void add(Outcome outcome, String error, OutboxMessage message, Throwable cause, Instant retryAfter) {
        groups.computeIfAbsent(new Key(outcome, error), k -> new ArrayList<>()).add(new Failure(message, retryAfter));
        log.log(Level.FINE, cause, () -> "publish failure of " + message.logFields());
    }

    /** Writes the lines: one per event, or one per group of more than {@link #EACH_UP_TO}. */
    void write() {
        for (Map.Entry<Key, List<Failure>> g : groups.entrySet()) {
            Key key = g.getKey();
            List<Failure> failures = g.getValue();
            if (failures.size() <= EACH_UP_TO) {
                for (Failure f : failures) {
                    log.warning(() -> each(key, f));
                }
            } else {
                log.warning(() -> shared(key, failures));
            }
        }
        groups.clear();
    }

    private String each(Key key, Failure f) {
        String fields = f.message().logFields() + " error=" + key.error();
        return switch (key.outcome()) {
            case RETRIED -> "publish failed, retry after " + f.retryAfter() + ": " + fields;
            case DEAD -> "dead letter: the last allowed attempt (" + maxAttempts + ") failed, the event"
                    + " is not retried automatically: " + fields;
            case LEASE_LOST -> "publish failed, row no longer leased to relay " + relayName
                    + " (its new holder retries it): " + fields;
        };
    }

    private String shared(Key key, List<Failure> failures) {
        int n = failures.size();
        String head = switch (key.outcome()) {
            case RETRIED -> "publish failed for " + n + " events of one batch, each retried after its backoff (the"
                    + " earliest at " + earliest(failures) + ")";
            case DEAD -> "dead letter: " + n + " events of one batch failed their last allowed attempt (" + maxAttempts
                    + ") and are not retried automatically";
            case LEASE_LOST -> "publish failed for " + n + " events of one batch no longer leased to relay " + relayName
                    + " (their new holder retries them)";
        };
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < EACH_UP_TO; i++) {
            first.append(i == 0 ? "" : "; ").append(failures.get(i).message().logFields());
        }
        return head + ": relay=" + relayName + " error=" + key.error() + " first " + EACH_UP_TO + ": " + first
                + " (every event's line at FINE on " + log.getName() + ")";
    }

    private static Instant earliest(List<Failure> failures) {
        Instant min = failures.get(0).retryAfter();
        for (Failure f : failures) {
            if (f.retryAfter().isBefore(min)) {
                min = f.retryAfter();
            }
        }
        return min;
    }
}
