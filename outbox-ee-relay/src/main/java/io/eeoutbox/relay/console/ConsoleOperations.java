package io.eeoutbox.relay.console;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What the operator console reads and does: the same operations as the relay's MBean (pause, resume,
 * run now, retry dead letters, purge) plus the reads a page needs. Implementations check nothing about
 * the caller; the console's web part does (roles, CSRF) and logs every action with its user.
 */
public interface ConsoleOperations {

    /** The relay of this application: name, state, counters since start. */
    RelayView relay();

    /** Pending rows and dead letters now, with the pending rows per event type (at most {@code maxTypes}). */
    Backlog backlog(int maxTypes) throws SQLException;

    /** One page of the dead letters that match {@code filter}, in write order after the cursor {@code afterSeq}. */
    DeadLetterPage deadLetters(DeadLetterFilter filter, long afterSeq, int limit, int payloadChars) throws SQLException;

    /** One dead letter, with its whole payload; empty when {@code id} is no dead letter. */
    Optional<DeadLetter> deadLetter(UUID id) throws SQLException;

    /** How many dead letters match {@code filter} now. */
    long countDeadLetters(DeadLetterFilter filter) throws SQLException;

    /** Makes one dead letter due again; false when {@code id} is no dead letter. */
    boolean retryDeadLetter(UUID id) throws SQLException;

    /** Makes every dead letter that matches {@code filter} due again; how many. */
    int retryDeadLetters(DeadLetterFilter filter) throws SQLException;

    void pause();

    void resume();

    void runNow();

    /** Deletes published rows processed more than {@code age} ago; how many. */
    long purgeProcessedOlderThan(Duration age) throws SQLException;

    /** The last failed publish attempts seen by this relay, the newest first. */
    List<Failure> recentFailures();

    /** The settings in effect, secrets masked, in a stable order. */
    Map<String, String> settings();

    /** The relay's state now. {@code state} is one of running, paused, waiting-for-broker, stopped. */
    record RelayView(String name, String state, String publisher, boolean listening, Activity activity,
                     Counters counters) {
    }

    /**
     * When the relay's loop last ran, how long its last batch took (null before the first), events/s lately, and the
     * destinations it holds because they cannot take messages now (one line each).
     */
    record Activity(Instant lastLoopAt, Long lastBatchMillis, double eventsPerSecond, List<String> heldDestinations) {
    }

    /** Counters since the relay started. */
    record Counters(long published, long failed, long deadLettered, long batches, String lastError,
                    Instant lastErrorAt) {
    }

    /** Pending rows (dead letters not included), dead letters, and pending rows per event type. */
    record Backlog(long pending, long dead, Duration oldestPendingAge, List<PendingType> byType) {
    }

    /** Pending rows of one event type. */
    record PendingType(String eventType, long pending, Duration oldestAge) {
    }

    /** A dead letter; {@code payload} may be cut (then {@code payloadCut}). */
    record DeadLetter(UUID id, long seq, Event event, Outcome outcome, String payload, boolean payloadCut) {
    }

    /** What an event is about. */
    record Event(String aggregateType, String aggregateId, String eventType, Instant createdAt) {
    }

    /** How a dead letter's publishing ended. */
    record Outcome(int attempts, Instant deadAt, String lastError) {
    }

    /** A page of dead letters; {@code nextAfterSeq} is the cursor of the next page, null on the last. */
    record DeadLetterPage(List<DeadLetter> items, Long nextAfterSeq) {
    }

    /** A failed publish attempt. */
    record Failure(Instant at, Attempt attempt, String error, boolean deadLettered) {
    }

    /** Which publish attempt of which event. */
    record Attempt(UUID eventId, String eventType, String aggregateId, int number) {
    }
}
