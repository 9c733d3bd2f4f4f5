package io.eeoutbox.relay;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
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
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One drain: claim a batch, publish it, complete it, and again while batches come back full.
 *
 * <p>Each claim is one short autocommit statement that leases rows to a fresh claim token until
 * {@code now + lease}. No database transaction is open while the publisher runs. Published rows are
 * completed in one statement, failed ones recorded in one statement, and rows that were not handed
 * to the publisher (the relay is stopping, or the lease would run out) are released in one
 * statement, so a batch is never half-marked: each row ends published, failed, released, or (if the
 * relay dies) leased until its lease expires and another relay takes it.
 */
final class DrainLoop {

    private static final Logger LOG = Logger.getLogger(DrainLoop.class.getName());

    private final OutboxStore store;
    private final Publisher publisher;
    private final RelayListener listener;
    private final BackoffPolicy backoff;
    private final RelayConfig config;
    private final Clock clock;
    private final RelayCounters counters;
    private final BooleanSupplier mayClaim;
    private final BooleanSupplier stopping;
    private final LongSupplier nanoTime;
    private final LeaseBudget budget;

    DrainLoop(OutboxStore store, Publisher publisher, RelayListener listener, BackoffPolicy backoff,
              RelayConfig config, Clock clock, RelayCounters counters, BooleanSupplier mayClaim,
              BooleanSupplier stopping, LongSupplier nanoTime) {
        this.store = store;
        this.publisher = publisher;
        this.listener = listener;
        this.backoff = backoff;
        this.config = config;
        this.clock = clock;
        this.counters = counters;
        this.mayClaim = mayClaim;
        this.stopping = stopping;
        this.nanoTime = nanoTime;
        this.budget = new LeaseBudget(config.lease());
    }

    /**
     * Claims and publishes until a batch comes back less than full, or claiming is no longer allowed.
     *
     * @return how many rows were claimed in all
     * @throws SQLException when the database fails; rows of the batch in flight stay leased until their lease ends
     */
    int drain() throws SQLException {
        int total = 0;
        try (OutboxStore.Session session = store.open()) {
            while (mayClaim.getAsBoolean()) {
                BatchOutcome outcome = runBatch(session);
                total += outcome.claimed();
                if (outcome.claimed() < config.batchSize() || outcome.cutShort()) {
                    break;
                }
            }
        }
        return total;
    }

    /** The result of one batch; {@code cutShort} when rows were released instead of published. */
    record BatchOutcome(int claimed, int published, int failed, int released, boolean cutShort) {
        static final BatchOutcome EMPTY = new BatchOutcome(0, 0, 0, 0, false);
    }

    BatchOutcome runBatch(OutboxStore.Session session) throws SQLException {
        long started = nanoTime.getAsLong();
        Instant now = clock.instant();
        UUID token = UUID.randomUUID();
        Instant lockedUntil = now.plus(config.lease());
        List<OutboxMessage> claimed = session.claim(new OutboxStore.Claim(token, now, lockedUntil,
                config.maxAttempts(), config.batchSize(), config.ordered()));
        if (claimed.isEmpty()) {
            return BatchOutcome.EMPTY;
        }
        BatchOrdering.Plan plan = BatchOrdering.plan(claimed, config.ordered());
        Round round = publish(plan.publish(), lockedUntil);

        List<OutboxMessage> unpublished = new ArrayList<>(plan.holdBack().size() + round.unpublished().size());
        unpublished.addAll(plan.holdBack());
        unpublished.addAll(round.unpublished());

        completePublished(session, token, round.published());
        recordFailures(session, token, round);
        release(session, token, unpublished);

        long elapsed = nanoTime.getAsLong() - started;
        counters.batch(round.published().size(), round.failures().size(), elapsed);
        listener.batchCompleted(claimed.size(), round.published().size(), round.failures().size(), Duration.ofNanos(elapsed));
        return new BatchOutcome(claimed.size(), round.published().size(), round.failures().size(), unpublished.size(),
                !round.unpublished().isEmpty());
    }

    /** What happened to the messages handed to (or kept from) the publisher. */
    record Round(List<OutboxMessage> published, Map<OutboxMessage, Throwable> failures, List<OutboxMessage> unpublished) {
    }

    /**
     * Hands the batch to the publisher, in one call unless the lease budget says it would not fit;
     * stops handing out more once the relay is stopping or the lease deadline has passed.
     */
    Round publish(List<OutboxMessage> batch, Instant lockedUntil) {
        List<OutboxMessage> published = new ArrayList<>(batch.size());
        Map<OutboxMessage, Throwable> failures = new LinkedHashMap<>();
        Instant deadline = budget.deadline(lockedUntil);
        int next = 0;
        while (next < batch.size()) {
            if (stopping.getAsBoolean()) {
                int rest = batch.size() - next;
                LOG.fine(() -> "relay " + config.name() + " stopping: releasing " + rest + " unpublished rows");
                break;
            }
            int chunk = budget.nextChunk(clock.instant(), deadline, batch.size() - next);
            if (chunk == 0) {
                int rest = batch.size() - next;
                LOG.warning(() -> "relay " + config.name() + ": the claim's lease (" + config.lease()
                        + ") would run out before the publisher is done; releasing " + rest + " unpublished rows"
                        + " (publishing takes about " + Math.round(budget.nanosPerMessage() / 1_000) + " µs per message;"
                        + " raise " + RelayConfig.LEASE + " or lower " + RelayConfig.BATCH_SIZE + ")");
                break;
            }
            List<OutboxMessage> part = batch.subList(next, next + chunk);
            long t0 = nanoTime.getAsLong();
            PublishResult result = publishAll(part);
            budget.record(part.size(), nanoTime.getAsLong() - t0);
            for (OutboxMessage m : part) {
                Throwable cause = result.failures().get(m.id());
                if (cause == null) {
                    published.add(m);
                } else {
                    failures.put(m, cause);
                }
            }
            next += chunk;
        }
        return new Round(published, failures, List.copyOf(batch.subList(next, batch.size())));
    }

    private PublishResult publishAll(List<OutboxMessage> part) {
        try {
            PublishResult result = publisher.publishAll(List.copyOf(part));
            if (result == null) {
                throw new IllegalStateException(publisher.describe() + " returned no PublishResult");
            }
            return result;
        } catch (RuntimeException e) {
            // The SPI says publishAll does not throw; if it does, no message of this part counts as sent.
            Map<UUID, Throwable> all = new LinkedHashMap<>();
            for (OutboxMessage m : part) {
                all.put(m.id(), e);
            }
            return PublishResult.of(all);
        }
    }

    private void completePublished(OutboxStore.Session session, UUID token, List<OutboxMessage> published)
            throws SQLException {
        if (published.isEmpty()) {
            return;
        }
        for (OutboxMessage m : published) {
            listener.published(m);
        }
        List<UUID> ids = ids(published);
        int completed = session.complete(config.completion(), ids, token, clock.instant());
        if (completed < ids.size()) {
            LOG.warning(() -> "relay " + config.name() + ": " + (ids.size() - completed) + " of " + ids.size()
                    + " published rows were no longer leased to this relay (the lease of " + config.lease()
                    + " ran out while publishing); another relay may publish them again");
        }
    }

    private void recordFailures(OutboxStore.Session session, UUID token, Round round) throws SQLException {
        if (round.failures().isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<OutboxStore.Failure> failures = new ArrayList<>(round.failures().size());
        Map<UUID, Instant> retryAfters = new HashMap<>();
        for (Map.Entry<OutboxMessage, Throwable> e : round.failures().entrySet()) {
            OutboxMessage m = e.getKey();
            Instant retryAfter = now.plus(backoff.delay(m.attempt()));
            retryAfters.put(m.id(), retryAfter);
            failures.add(new OutboxStore.Failure(m.id(), retryAfter, ErrorTexts.describe(e.getValue())));
        }
        List<OutboxStore.FailureOutcome> outcomes = session.recordFailures(token, now, config.maxAttempts(), failures);
        Map<UUID, OutboxStore.FailureOutcome> byId = new HashMap<>();
        for (OutboxStore.FailureOutcome o : outcomes) {
            byId.put(o.id(), o);
        }
        int dead = 0;
        for (Map.Entry<OutboxMessage, Throwable> e : round.failures().entrySet()) {
            OutboxMessage m = e.getKey();
            Throwable cause = e.getValue();
            Instant retryAfter = retryAfters.get(m.id());
            OutboxStore.FailureOutcome outcome = byId.get(m.id());
            String error = ErrorTexts.describe(cause);
            if (outcome == null) {
                LOG.warning(() -> "publish failed, row no longer leased to relay " + config.name()
                        + " (its new holder retries it): " + m.logFields() + " error=" + error);
                listener.failed(m, cause, retryAfter);
            } else if (outcome.dead()) {
                dead++;
                LOG.warning(() -> "dead letter: the last allowed attempt (" + config.maxAttempts() + ") failed, the event"
                        + " is not retried automatically: " + m.logFields() + " error=" + error);
                listener.failed(m, cause, retryAfter);
                listener.deadLettered(m, cause);
            } else {
                LOG.warning(() -> "publish failed, retry after " + retryAfter + ": " + m.logFields() + " error=" + error);
                listener.failed(m, cause, retryAfter);
            }
            LOG.log(Level.FINE, cause, () -> "publish failure of " + m.logFields());
        }
        counters.deadLettered(dead);
    }

    private void release(OutboxStore.Session session, UUID token, List<OutboxMessage> unpublished) throws SQLException {
        if (unpublished.isEmpty()) {
            return;
        }
        int released = session.release(ids(unpublished), token);
        LOG.fine(() -> "relay " + config.name() + " released " + released + " unpublished rows");
    }

    private static List<UUID> ids(List<OutboxMessage> messages) {
        List<UUID> ids = new ArrayList<>(messages.size());
        for (OutboxMessage m : messages) {
            ids.add(m.id());
        }
        return ids;
    }
}
