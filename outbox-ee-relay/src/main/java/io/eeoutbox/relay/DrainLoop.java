package io.eeoutbox.relay;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.BrokerUnavailableException;
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
    private final ClaimFloor floor;
    /** Consecutive batches in which the broker could not be reached; 0 once a publish succeeds. */
    private volatile int outageStreak;
    /** Until when the broker is taken to be down (the last deferral's retry time); null when it is not. */
    private volatile Instant brokerRetryAt;
    private final java.util.concurrent.Executor completionExecutor; // null: complete inline
    /** Complete a fully published batch together with the next claim (one transaction), see {@link #drain()}. */
    private final boolean fused;
    /**
     * With a completion executor, a batch is fused only when publishing it took less than this: a
     * slower publisher (a broker) leaves time to complete the previous batch on the second
     * connection meanwhile, a faster one (measured: a no-op) leaves nothing to overlap.
     */
    static final long FUSE_BELOW_NANOS = 2_000_000L;

    DrainLoop(OutboxStore store, Publisher publisher, RelayListener listener, BackoffPolicy backoff,
              RelayConfig config, Clock clock, RelayCounters counters, BooleanSupplier mayClaim,
              BooleanSupplier stopping, LongSupplier nanoTime, java.util.concurrent.Executor completionExecutor) {
        this(store, publisher, listener, backoff, config, clock, counters, mayClaim, stopping, nanoTime,
                completionExecutor, false);
    }

    DrainLoop(OutboxStore store, Publisher publisher, RelayListener listener, BackoffPolicy backoff,
              RelayConfig config, Clock clock, RelayCounters counters, BooleanSupplier mayClaim,
              BooleanSupplier stopping, LongSupplier nanoTime, java.util.concurrent.Executor completionExecutor,
              boolean fused) {
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
        this.floor = new ClaimFloor(config.claimRescanInterval());
        this.completionExecutor = completionExecutor;
        this.fused = fused;
    }

    /**
     * Claims and publishes until a batch comes back less than full, or claiming is no longer allowed.
     *
     * <p>With a completion executor, batch N is completed on a second connection while batch N+1 is
     * claimed and published (at most one completion in flight; the drain waits for it before handing
     * over the next one, and before it ends). Without one, each batch is completed before the next claim.
     * When fused, a full batch that was published whole is completed by the next claim's own statement
     * ({@link OutboxStore.Session#completeAndClaim}: one transaction, one commit per batch), and the
     * last one by itself before the drain ends; with a completion executor only when publishing the
     * batch took less than {@link #FUSE_BELOW_NANOS}.
     *
     * @return how many rows were claimed in all
     * @throws SQLException when the database fails; rows of the batch in flight stay leased until their lease ends
     */
    int drain() throws SQLException {
        try {
            return drainOnSession();
        } catch (SQLException | RuntimeException e) {
            floor.reset();
            throw e;
        } finally {
            floor.runEnded();
        }
    }

    private int drainOnSession() throws SQLException {
        int total = 0;
        try (OutboxStore.Session session = store.open();
             Completer completer = new Completer(completionExecutor == null ? session : null)) {
            Carry carry = null;
            while (mayClaim.getAsBoolean()) {
                BatchOutcome outcome = runBatch(session, completer, carry);
                carry = outcome.carry();
                total += outcome.claimed();
                if (!outcome.full() || outcome.cutShort() || outcome.brokerUnavailable()) {
                    break; // a broker outage: the next batch would fail the same way (see holdsForBroker)
                }
            }
            if (carry != null) {
                carry.done(session.complete(config.completion(), carry.ids(), carry.token(), clock.instant()));
            }
            completer.flush();
        }
        return total;
    }

    /**
     * Whether the relay should leave the outbox alone at {@code now} because the broker was
     * unreachable and the retry time of the rows it deferred has not come: claiming new rows would
     * only defer them too (one more round of updates, one more log line per event burst).
     */
    boolean holdsForBroker(Instant now) {
        Instant until = brokerRetryAt;
        return until != null && now.isBefore(until);
    }

    /** When the hold of {@link #holdsForBroker} ends, or null when there is none. */
    Instant brokerHoldUntil() {
        return brokerRetryAt;
    }

    /**
     * A batch that was published whole and whose completion rides on the next claim; {@link #done}
     * reports it once its rows are marked (or deleted).
     */
    private final class Carry {
        private final UUID token;
        private final List<OutboxMessage> published;
        private final long started;

        Carry(UUID token, List<OutboxMessage> published, long started) {
            this.token = token;
            this.published = published;
            this.started = started;
        }

        UUID token() {
            return token;
        }

        List<UUID> ids() {
            return DrainLoop.ids(published);
        }

        void done(int completed) {
            warnIfNotAllCompleted(published.size(), completed);
            long elapsed = nanoTime.getAsLong() - started;
            counters.batch(published.size(), 0, elapsed);
            listener.batchCompleted(published.size(), published.size(), 0, Duration.ofNanos(elapsed));
        }
    }

    /**
     * The result of one batch; {@code full} when its claim stopped at the row or byte limit (more rows
     * may be due), {@code cutShort} when rows were released instead of published,
     * {@code brokerUnavailable} when none was published because the broker could not be reached,
     * {@code carry} when its completion is left to the next claim (fused drains only).
     */
    record BatchOutcome(int claimed, boolean full, int published, int failed, int released, boolean cutShort,
                        boolean brokerUnavailable, Carry carry) {
        static final BatchOutcome EMPTY = new BatchOutcome(0, false, 0, 0, 0, false, false, null);
    }

    /** Claims, publishes and completes one batch on {@code session}, before returning. */
    BatchOutcome runBatch(OutboxStore.Session session) throws SQLException {
        try (Completer inline = new Completer(session)) {
            BatchOutcome outcome = runBatch(session, inline, null);
            inline.flush();
            return outcome;
        }
    }

    /** @param carry the previous batch, completed by this claim's statement; or null */
    private BatchOutcome runBatch(OutboxStore.Session session, Completer completer, Carry carry) throws SQLException {
        long started = nanoTime.getAsLong();
        Instant now = clock.instant();
        UUID token = UUID.randomUUID();
        Instant lockedUntil = now.plus(config.lease());
        OutboxStore.Claim next = new OutboxStore.Claim(token, now, lockedUntil, config.maxAttempts(), config.batchSize(),
                config.batchMaxBytes(), config.ordered(), floor.next(started));
        List<OutboxMessage> claimed;
        boolean full;
        if (carry != null) {
            OutboxStore.CompletedAndClaimed both = session.completeAndClaim(config.completion(), carry.ids(),
                    carry.token(), next);
            carry.done(both.completed());
            claimed = both.claimed();
            full = both.full();
        } else {
            OutboxStore.Claimed one = session.claim(next);
            claimed = one.messages();
            full = one.full();
        }
        if (claimed.isEmpty()) {
            return BatchOutcome.EMPTY;
        }
        floor.claimed(started, claimed.stream().mapToLong(OutboxMessage::seq).min().orElse(0L),
                claimed.stream().mapToLong(OutboxMessage::seq).max().orElse(0L), full);
        BatchOrdering.Plan plan = BatchOrdering.plan(claimed, config.ordered());
        long publishStarted = nanoTime.getAsLong();
        Round round = publish(plan.publish(), lockedUntil);
        long publishNanos = nanoTime.getAsLong() - publishStarted;

        List<OutboxMessage> unpublished = new ArrayList<>(plan.holdBack().size() + round.unpublished().size());
        unpublished.addAll(plan.holdBack());
        unpublished.addAll(round.unpublished());
        for (OutboxMessage m : round.published()) {
            listener.published(m);
        }
        if (fused && (completer.inline() || publishNanos < FUSE_BELOW_NANOS) && unpublished.isEmpty() && round.failures().isEmpty()
                && full && mayClaim.getAsBoolean()) {
            // A full batch, all published: the next claim completes it, in the same transaction.
            outageStreak = 0;
            brokerRetryAt = null;
            return new BatchOutcome(claimed.size(), true, round.published().size(), 0, 0, false, false,
                    new Carry(token, round.published(), started));
        }
        completer.submit(s -> {
            completePublished(s, token, round.published());
            recordFailures(s, token, round);
            release(s, token, unpublished);
            long elapsed = nanoTime.getAsLong() - started;
            counters.batch(round.published().size(), round.failures().size(), elapsed);
            listener.batchCompleted(claimed.size(), round.published().size(), round.failures().size(),
                    Duration.ofNanos(elapsed));
        });
        boolean brokerUnavailable = round.published().isEmpty() && round.failures().values().stream()
                .anyMatch(BrokerUnavailableException.class::isInstance);
        return new BatchOutcome(claimed.size(), full, round.published().size(), round.failures().size(),
                unpublished.size(), !round.unpublished().isEmpty(), brokerUnavailable, null);
    }

    /** The statements that complete one batch. */
    @FunctionalInterface
    private interface Completion {
        void run(OutboxStore.Session session) throws SQLException;
    }

    /**
     * Runs completions: inline on a given session, or on the completion executor with a session of its
     * own, one at a time. A completion the executor has not started when the drain needs it done is run
     * by the drain itself, so a busy or single-threaded executor never deadlocks the drain.
     */
    private final class Completer implements AutoCloseable {
        private final OutboxStore.Session inlineSession;
        private OutboxStore.Session ownSession;
        private Pending pending;

        Completer(OutboxStore.Session inlineSession) {
            this.inlineSession = inlineSession;
        }

        boolean inline() {
            return inlineSession != null;
        }

        void submit(Completion completion) throws SQLException {
            flush();
            if (inlineSession != null || completionExecutor == null) {
                completion.run(inlineSession != null ? inlineSession : session());
                return;
            }
            OutboxStore.Session s = session();
            pending = new Pending(() -> completion.run(s));
            try {
                completionExecutor.execute(pending);
            } catch (RuntimeException rejected) {
                // run by flush(), on this thread
            }
        }

        /** Waits for (or runs) the completion in flight; rethrows its failure. */
        void flush() throws SQLException {
            Pending p = pending;
            pending = null;
            if (p != null) {
                p.await();
            }
        }

        private OutboxStore.Session session() throws SQLException {
            if (ownSession == null) {
                ownSession = store.open();
            }
            return ownSession;
        }

        @Override
        public void close() throws SQLException {
            try {
                Pending p = pending;
                pending = null;
                if (p != null) {
                    p.awaitQuietly();
                }
            } finally {
                if (ownSession != null) {
                    ownSession.close();
                }
            }
        }
    }

    /** A completion handed to the executor; whoever starts it first runs it. */
    private static final class Pending implements Runnable {
        private final ThrowingRunnable work;
        private final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
        private final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        private volatile Throwable failure;

        Pending(ThrowingRunnable work) {
            this.work = work;
        }

        @Override
        public void run() {
            if (!started.compareAndSet(false, true)) {
                return;
            }
            try {
                work.run();
            } catch (Throwable t) {
                failure = t;
            } finally {
                done.countDown();
            }
        }

        void await() throws SQLException {
            run(); // not started yet: run it here
            boolean interrupted = false;
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            Throwable t = failure;
            if (t instanceof SQLException e) {
                throw e;
            } else if (t instanceof RuntimeException e) {
                throw e;
            } else if (t instanceof Error e) {
                throw e;
            } else if (t != null) {
                throw new IllegalStateException(t);
            }
        }

        void awaitQuietly() {
            try {
                await();
            } catch (SQLException | RuntimeException e) {
                LOG.log(Level.FINE, "completion failed while the drain was ending", e);
            }
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws SQLException;
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
        List<UUID> ids = ids(published);
        warnIfNotAllCompleted(ids.size(), session.complete(config.completion(), ids, token, clock.instant()));
    }

    private void warnIfNotAllCompleted(int published, int completed) {
        if (completed < published) {
            LOG.warning(() -> "relay " + config.name() + ": " + (published - completed) + " of " + published
                    + " published rows were no longer leased to this relay (the lease of " + config.lease()
                    + " ran out while publishing); another relay may publish them again");
        }
    }

    /**
     * The longest outage deferral, in backoff steps: with the default backoff (PT1S, ×2) rows wait
     * at most about 16 s during an outage, so the backlog drains soon after the broker is back.
     */
    static final int MAX_OUTAGE_STEPS = 5;

    private void recordFailures(OutboxStore.Session session, UUID token, Round round) throws SQLException {
        if (!round.published().isEmpty()) {
            outageStreak = 0;
            brokerRetryAt = null;
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
        if (counted.isEmpty()) {
            return;
        }
        List<OutboxStore.Failure> failures = new ArrayList<>(counted.size());
        Map<UUID, Instant> retryAfters = new HashMap<>();
        for (Map.Entry<OutboxMessage, Throwable> e : counted.entrySet()) {
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
        for (Map.Entry<OutboxMessage, Throwable> e : counted.entrySet()) {
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

    /**
     * The broker could not be reached: the rows go back, due again after a short backoff that grows
     * with the length of the outage, and the attempt does not count (no dead letters from an
     * outage). One log line per batch, not one per event.
     */
    private void defer(OutboxStore.Session session, UUID token, Instant now, Map<OutboxMessage, Throwable> unavailable)
            throws SQLException {
        if (unavailable.isEmpty()) {
            return;
        }
        outageStreak = Math.min(outageStreak + 1, MAX_OUTAGE_STEPS);
        Instant retryAfter = now.plus(backoff.delay(outageStreak));
        Throwable first = unavailable.values().iterator().next();
        String error = ErrorTexts.describe(first);
        int deferred = session.defer(ids(List.copyOf(unavailable.keySet())), token, now, retryAfter, error);
        brokerRetryAt = retryAfter;
        LOG.warning(() -> "broker unavailable: " + deferred + " events deferred until " + retryAfter
                + " (not counted as attempts) relay=" + config.name() + " error=" + error);
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

    private static List<UUID> ids(List<OutboxMessage> messages) {
        List<UUID> ids = new ArrayList<>(messages.size());
        for (OutboxMessage m : messages) {
            ids.add(m.id());
        }
        return ids;
    }
}
