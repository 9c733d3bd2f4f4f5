package io.eeoutbox.relay.complete;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.backoff.HeldBack;
import io.eeoutbox.relay.backoff.RetryPlanner;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.ErrorTexts;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.RelayListener;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The complete step: the statements that settle one published batch, one per kind of row, so a batch is
 * never half-marked. Published rows are marked (or deleted), failed ones get their attempt counted and a
 * retry time, rows the broker could not take are deferred without counting, and rows never handed to the
 * publisher are released.
 */
public final class BatchCompletion {

    /**
     * Named as before this class left the drain package: docs/operations.md tells operators to turn this logger to
     * FINE for every failed event's own line, and the shared WARNING line names it.
     */
    private static final Logger LOG = Logger.getLogger("io.eeoutbox.relay.drain.BatchCompletion");

    private final RelayConfig config;
    private final Clock clock;
    private final RetryPlanner retries;
    private final RelayListener listener;
    private final RelayCounters counters;
    private final DestinationHolds holds;

    public BatchCompletion(RelayConfig config, Clock clock, RetryPlanner retries, DestinationHolds holds, RelayListener listener,
                    RelayCounters counters) {
        this.config = config;
        this.holds = holds;
        this.clock = clock;
        this.retries = retries;
        this.listener = listener;
        this.counters = counters;
    }

    /** All of a batch's statements, on {@code session}. */
    public void settle(OutboxStore.Session session, UUID token, Round round, List<OutboxMessage> unpublished) throws SQLException {
        completePublished(session, token, round.published());
        recordFailures(session, token, round);
        release(session, token, unpublished);
    }

    void completePublished(OutboxStore.Session session, UUID token, List<OutboxMessage> published) throws SQLException {
        if (published.isEmpty()) {
            return;
        }
        List<UUID> ids = ids(published);
        warnIfNotAllCompleted(ids.size(), session.complete(config.completion(), ids, token, clock.instant()));
    }

    void warnIfNotAllCompleted(int published, int completed) {
        if (completed < published) {
            LOG.warning(() -> "relay " + config.name() + ": " + (published - completed) + " of " + published
                    + " published rows were no longer leased to this relay (the lease of " + config.lease()
                    + " ran out while publishing); another relay may publish them again");
        }
    }

    private void recordFailures(OutboxStore.Session session, UUID token, Round round) throws SQLException {
        if (!round.published().isEmpty()) {
            retries.brokerReached();
        }
        if (round.failures().isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        Map<OutboxMessage, Throwable> unavailable = new LinkedHashMap<>();
        Map<OutboxMessage, Throwable> counted = new LinkedHashMap<>();
        for (Map.Entry<OutboxMessage, Throwable> e : round.failures().entrySet()) {
            (e.getValue() instanceof BrokerUnavailableException ? unavailable : counted).put(e.getKey(), e.getValue());
        }
        defer(session, token, now, unavailable);
        if (!counted.isEmpty()) {
            count(session, token, now, counted);
        }
    }

    private void count(OutboxStore.Session session, UUID token, Instant now, Map<OutboxMessage, Throwable> counted)
            throws SQLException {
        List<OutboxStore.Failure> failures = new ArrayList<>(counted.size());
        Map<UUID, Instant> retryAfters = new HashMap<>();
        for (Map.Entry<OutboxMessage, Throwable> e : counted.entrySet()) {
            OutboxMessage m = e.getKey();
            Instant retryAfter = retries.retryAfter(now, m.attempt());
            retryAfters.put(m.id(), retryAfter);
            failures.add(new OutboxStore.Failure(m.id(), retryAfter, ErrorTexts.describe(e.getValue())));
        }
        Map<UUID, OutboxStore.FailureOutcome> byId = new HashMap<>();
        for (OutboxStore.FailureOutcome o : session.recordFailures(token, now, config.maxAttempts(), failures)) {
            byId.put(o.id(), o);
        }
        int dead = 0;
        FailureLines lines = new FailureLines(LOG, config.name(), config.maxAttempts());
        try {
            for (Map.Entry<OutboxMessage, Throwable> e : counted.entrySet()) {
                OutboxMessage m = e.getKey();
                Throwable cause = e.getValue();
                Instant retryAfter = retryAfters.get(m.id());
                OutboxStore.FailureOutcome outcome = byId.get(m.id());
                String error = ErrorTexts.describe(cause);
                if (outcome == null) {
                    lines.add(FailureLines.Outcome.LEASE_LOST, error, m, cause, retryAfter);
                    listener.failed(m, cause, retryAfter);
                } else if (outcome.dead()) {
                    dead++;
                    lines.add(FailureLines.Outcome.DEAD, error, m, cause, retryAfter);
                    listener.failed(m, cause, retryAfter);
                    listener.deadLettered(m, cause);
                } else {
                    lines.add(FailureLines.Outcome.RETRIED, error, m, cause, retryAfter);
                    listener.failed(m, cause, retryAfter);
                }
            }
        } finally {
            lines.write(); // also when a listener threw: the batch's lines are not lost with it
        }
        counters.deadLettered(dead);
    }

    /**
     * The broker, or a destination, could not take the messages: the rows go back, due again after a short
     * backoff that grows with the length of the outage, and the attempt does not count (no dead letters from an
     * outage). A whole-broker outage also holds the relay off the outbox; a held destination's rows wait for the
     * end of its hold ({@link DestinationHolds}) while the others keep flowing. One log line per deferral, not one
     * per event.
     */
    private void defer(OutboxStore.Session session, UUID token, Instant now, Map<OutboxMessage, Throwable> unavailable)
            throws SQLException {
        if (unavailable.isEmpty()) {
            return;
        }
        Map<Duration, Map<OutboxMessage, Throwable>> byDelay = new LinkedHashMap<>();
        Duration brokerDelay = null;
        for (Map.Entry<OutboxMessage, Throwable> e : unavailable.entrySet()) {
            Duration delay = destinationDelay(e.getValue());
            if (delay == null) {
                if (brokerDelay == null) {
                    brokerDelay = retries.nextDeferral();
                }
                delay = brokerDelay;
            }
            byDelay.computeIfAbsent(delay, d -> new LinkedHashMap<>()).put(e.getKey(), e.getValue());
        }
        if (brokerDelay != null) {
            retries.holdFor(brokerDelay);
        }
        for (Map.Entry<Duration, Map<OutboxMessage, Throwable>> group : byDelay.entrySet()) {
            deferFor(session, token, now, group.getKey(), group.getValue());
        }
    }

    /** How long a row refused for its destination waits (what its hold has left); null for a broker outage. */
    private Duration destinationDelay(Throwable cause) {
        if (cause instanceof HeldBack h) {
            return atLeastAMillisecond(h.left());
        }
        if (cause instanceof DestinationUnavailableException d && holds.held(d.destination())) {
            Duration left = holds.left(d.destination());
            return left != null ? atLeastAMillisecond(left) : retries.nextDeferral();
        }
        return null;
    }

    private static Duration atLeastAMillisecond(Duration d) {
        return Duration.ofMillis(Math.max(1, d.toMillis()));
    }

    private void deferFor(OutboxStore.Session session, UUID token, Instant now, Duration delay,
                          Map<OutboxMessage, Throwable> unavailable) throws SQLException {
        Instant retryAfter = now.plus(delay); // the store passes the delay: the database adds it to its own clock
        Throwable first = unavailable.values().iterator().next();
        String error = ErrorTexts.describe(first);
        int deferred = session.defer(ids(List.copyOf(unavailable.keySet())), token, now, retryAfter, error);
        if (first instanceof HeldBack) {
            LOG.fine(() -> deferred + " events deferred until " + retryAfter + " relay=" + config.name() + ": " + error);
        } else {
            String what = first instanceof DestinationUnavailableException d
                    ? "destination " + d.destination() + " cannot take messages now" : "broker unavailable";
            LOG.warning(() -> what + ": " + deferred + " events deferred until " + retryAfter
                    + " (not counted as attempts) relay=" + config.name() + " error=" + error);
        }
        for (Map.Entry<OutboxMessage, Throwable> e : unavailable.entrySet()) {
            OutboxMessage m = e.getKey();
            LOG.fine(() -> "deferred, broker unavailable: " + m.logFields());
            listener.failed(m, e.getValue(), retryAfter);
        }
    }

    private void release(OutboxStore.Session session, UUID token, List<OutboxMessage> unpublished) throws SQLException {
        if (unpublished.isEmpty()) {
            return;
        }
        int released = session.release(ids(unpublished), token);
        LOG.fine(() -> "relay " + config.name() + " released " + released + " unpublished rows");
    }

    static List<UUID> ids(List<OutboxMessage> messages) {
        List<UUID> ids = new ArrayList<>(messages.size());
        for (OutboxMessage m : messages) {
            ids.add(m.id());
        }
        return ids;
    }
}
