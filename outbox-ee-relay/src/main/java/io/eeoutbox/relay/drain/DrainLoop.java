package io.eeoutbox.relay.drain;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.backoff.RetryPlanner;
import io.eeoutbox.relay.claim.BatchOrdering;
import io.eeoutbox.relay.claim.ClaimFloor;
import io.eeoutbox.relay.complete.BatchCompletion;
import io.eeoutbox.relay.complete.CarriedBatch;
import io.eeoutbox.relay.complete.Completer;
import io.eeoutbox.relay.complete.CompletionRule;
import io.eeoutbox.relay.complete.InlineCompleter;
import io.eeoutbox.relay.complete.Round;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One drain: claim a batch, publish it ({@link BatchPublisher}), complete it ({@link BatchCompletion}, by the
 * route {@link CompletionRule} picks), and again while batches come back full.
 *
 * <p>Each claim is one short autocommit statement that leases rows to a fresh claim token until
 * {@code now + lease}. No database transaction is open while the publisher runs. Each row ends published,
 * failed, released, or (if the relay dies) leased until its lease expires and another relay takes it.
 */
public final class DrainLoop {

    private final OutboxStore store;
    private final RelayConfig config;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final RelayListener listener;
    private final RelayCounters counters;
    private final BooleanSupplier mayClaim;
    private final RetryPlanner retries;
    private final DestinationHolds holds;
    private final BatchPublisher publisher;
    private final BatchCompletion completion;
    private final ClaimFloor floor;
    private final Executor completionExecutor; // null: complete inline
    private final boolean fused;
    private final Consumer<OutboxStore.Session> onSession; // before the first claim, on the drain's session

    private DrainLoop(Builder b) {
        this.store = Objects.requireNonNull(b.store, "store");
        this.config = Objects.requireNonNull(b.config, "config");
        this.clock = b.clock != null ? b.clock : Clock.systemUTC();
        this.nanoTime = b.nanoTime != null ? b.nanoTime : System::nanoTime;
        this.listener = GuardedListener.of(b.listener != null ? b.listener : new RelayListener() { });
        this.counters = b.counters != null ? b.counters : new RelayCounters();
        this.mayClaim = b.mayClaim != null ? b.mayClaim : () -> true;
        BooleanSupplier stopping = b.stopping != null ? b.stopping : () -> false;
        this.retries = new RetryPlanner(Objects.requireNonNull(b.backoff, "backoff"), nanoTime);
        this.holds = new DestinationHolds(b.backoff, nanoTime, clock);
        this.publisher = new BatchPublisher(Objects.requireNonNull(b.publisher, "publisher"), config, nanoTime, stopping,
                holds);
        this.completion = new BatchCompletion(config, clock, retries, holds, listener, counters);
        this.floor = new ClaimFloor(config.claimRescanInterval());
        this.completionExecutor = b.completionExecutor;
        this.fused = b.fused;
        this.onSession = b.onSession != null ? b.onSession : s -> { };
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Claims and publishes until a batch comes back less than full, or claiming is no longer allowed.
     *
     * @return how many rows were claimed in all
     * @throws SQLException when the database fails; rows of the batch in flight stay leased until their lease ends
     */
    public int drain() throws SQLException {
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
             Completer completer = CompletionRule.completerFor(store, session, completionExecutor)) {
            onSession.accept(session);
            CarriedBatch carry = null;
            while (mayClaim.getAsBoolean()) {
                BatchOutcome outcome = runBatch(session, completer, carry);
                carry = outcome.carry();
                total += outcome.claimed();
                // Ordered mode goes on after any batch that published: completing an event makes its aggregate's
                // next one due, which no notification announces (decision 0014).
                boolean more = outcome.full() || (config.ordered() && outcome.published() > 0);
                if (!more || outcome.end() != BatchOutcome.End.NONE) {
                    break; // after a broker outage the next batch would fail the same way (see holdsForBroker)
                }
            }
            if (carry != null) {
                carry.done(session.complete(config.completion(), carry.ids(), carry.token(), clock.instant()),
                        nanoTime.getAsLong(), completion, counters, listener);
                if (config.ordered()) {
                    reportCompleted(carry.published(), List.of(), false); // for the next drain's first claim
                }
            }
            completer.flush();
        }
        return total;
    }

    /** See {@link RetryPlanner#holdsForBroker}. */
    public boolean holdsForBroker() {
        return retries.holdsForBroker();
    }

    /** How long the broker hold still lasts, or null when there is none (or it has ended). */
    public Duration brokerHoldLeft() {
        return retries.brokerHoldLeft();
    }

    /** The destinations held now because they could not take messages (decision 0015). */
    public List<DestinationHolds.Held> heldDestinations() {
        return holds.snapshot();
    }

    /** Claims, publishes and completes one batch on {@code session}, before returning. */
    BatchOutcome runBatch(OutboxStore.Session session) throws SQLException {
        try (Completer inline = new InlineCompleter(session)) {
            return runBatch(session, inline, null);
        }
    }

    /** @param carry the previous batch, completed by this claim's statement; or null */
    private BatchOutcome runBatch(OutboxStore.Session session, Completer completer, CarriedBatch carry)
            throws SQLException {
        if (config.ordered()) {
            completer.flush(); // the claim must see the previous batch completed: its successors are due then
        }
        long started = nanoTime.getAsLong();
        Instant now = clock.instant();
        UUID token = UUID.randomUUID();
        Instant lockedUntil = now.plus(config.lease());
        OutboxStore.Claim next = new OutboxStore.Claim(token, now, lockedUntil, new OutboxStore.ClaimLimits(
                config.maxAttempts(), config.batchSize(), config.batchMaxBytes(), config.ordered()), floor.next(started));
        List<OutboxMessage> claimed;
        boolean full;
        long walkNext;
        if (carry != null) {
            OutboxStore.CompletedAndClaimed both = session.completeAndClaim(config.completion(), carry.ids(),
                    carry.token(), next);
            carry.done(both.completed(), nanoTime.getAsLong(), completion, counters, listener);
            claimed = both.claimed();
            full = both.full();
            walkNext = both.walkNext();
            if (config.ordered()) {
                reportCompleted(carry.published(), claimed, walkNext >= 0);
            }
        } else {
            OutboxStore.Claimed one = session.claim(next);
            claimed = one.messages();
            full = one.full();
            walkNext = one.walkNext();
        }
        if (claimed.isEmpty()) {
            return BatchOutcome.EMPTY;
        }
        floor.claimed(started, claimed.stream().mapToLong(OutboxMessage::seq).min().orElse(0L),
                claimed.stream().mapToLong(OutboxMessage::seq).max().orElse(0L), full);
        if (config.ordered() && walkNext >= 0) {
            floor.walked(walkNext, nanoTime.getAsLong() - started);
        }
        BatchOrdering.Plan plan = BatchOrdering.plan(claimed, config.ordered());
        long publishStarted = nanoTime.getAsLong();
        Round round;
        counters.publishing(started + config.lease().toNanos()); // liveness: a slow publish in its lease is alive
        try {
            // The lease counted from before the claim (the database's lease starts later): on the monotonic clock.
            round = publisher.publish(plan.publish(), started + config.lease().toNanos());
        } finally {
            counters.publishDone();
        }
        long publishNanos = nanoTime.getAsLong() - publishStarted;

        List<OutboxMessage> unpublished = new ArrayList<>(plan.holdBack().size() + round.unpublished().size());
        unpublished.addAll(plan.holdBack());
        unpublished.addAll(round.unpublished());
        boolean allPublished = unpublished.isEmpty() && round.failures().isEmpty();
        for (OutboxMessage m : unpublished) {
            floor.mayBeDueFrom(m.seq()); // given back: due again at once
        }
        if (CompletionRule.withNextClaim(fused, completer, publishNanos, full || config.ordered(), allPublished,
                mayClaim.getAsBoolean(), config.ordered())) {
            // completed by the next claim's statement, which reports them (reportCompleted)
            retries.brokerReached();
            CarriedBatch carried = new CarriedBatch(token, round.published(), started);
            announcePublished(round);
            return new BatchOutcome(claimed.size(), true, round.published().size(), 0, BatchOutcome.End.NONE, carried);
        }
        if (config.ordered()) {
            reportCompleted(round.published(), List.of(), false); // completed on their own: no claim takes their successors
        }
        completer.submit(s -> {
            completion.settle(s, token, round, unpublished);
            long elapsed = nanoTime.getAsLong() - started;
            counters.batch(round.published().size(), round.failures().size(), elapsed);
            listener.batchCompleted(claimed.size(), round.published().size(), round.failures().size(),
                    Duration.ofNanos(elapsed));
        });
        announcePublished(round); // after the completion is handed over: the listener cannot keep it from running
        BatchOutcome.End end = BatchOutcome.End.NONE;
        if (!round.unpublished().isEmpty()) {
            end = BatchOutcome.End.CUT_SHORT;
        } else if (round.published().isEmpty() && nothingGotThrough(round, full)) {
            end = BatchOutcome.End.BROKER_UNAVAILABLE;
        }
        return new BatchOutcome(claimed.size(), full, round.published().size(), unpublished.size(), end, null);
    }

    /**
     * For a batch that published nothing: whether the broker could not take it (the drain stops). A batch whose
     * messages only failed for held destinations stops the drain only when it was not full: then every due row is
     * a held destination's, and the relay holds off the outbox until the first hold ends, as for a broker outage,
     * instead of claiming only to defer. A full one does not: the next batch may hold other destinations' rows
     * (decision 0015).
     */
    private boolean nothingGotThrough(Round round, boolean full) {
        boolean unavailable = false;
        boolean heldOnly = true;
        for (Throwable cause : round.failures().values()) {
            unavailable |= cause instanceof BrokerUnavailableException;
            heldOnly &= cause instanceof DestinationUnavailableException d && holds.held(d.destination());
        }
        if (!unavailable) {
            return false;
        }
        if (!heldOnly) {
            return true; // a broker outage: BatchCompletion holds the relay
        }
        if (full) {
            return false;
        }
        Duration shortest = holds.shortestLeft();
        if (shortest != null) {
            retries.holdFor(shortest);
        }
        return true;
    }

    private void announcePublished(Round round) {
        for (OutboxMessage m : round.published()) {
            listener.published(m);
        }
    }

    /**
     * Ordered mode: tells the claim floor where the next event of each completed row may lie, due once that row is
     * completed (decision 0014). When the claim that completed them took the next due event of each of their
     * aggregates ({@code successorsTaken}, schema V11), only the rows whose aggregate got nothing in {@code claimed}
     * are reported: the others' next events are claimed already, and the next claim need not walk below its bound
     * to find them (decision 0017).
     */
    private void reportCompleted(List<OutboxMessage> completed, List<OutboxMessage> claimed, boolean successorsTaken) {
        Set<OutboxMessage.Aggregate> taken = new HashSet<>();
        if (successorsTaken) {
            for (OutboxMessage m : claimed) {
                taken.add(m.aggregate());
            }
        }
        for (OutboxMessage m : completed) {
            if (!taken.contains(m.aggregate())) {
                floor.mayBeDueFrom(m.seq() + 1);
            }
        }
    }

    /** Sets up a drain loop; {@code store}, {@code publisher}, {@code backoff} and {@code config} are required. */
    public static final class Builder {
        private OutboxStore store;
        private Publisher publisher;
        private RelayListener listener;
        private BackoffPolicy backoff;
        private RelayConfig config;
        private Clock clock;
        private RelayCounters counters;
        private BooleanSupplier mayClaim;
        private BooleanSupplier stopping;
        private LongSupplier nanoTime;
        private Executor completionExecutor;
        private boolean fused;
        private Consumer<OutboxStore.Session> onSession;

        private Builder() {
        }

        /** Runs on each drain's session before its first claim (the promotion of due delayed events); must not throw. */
        public Builder onSession(Consumer<OutboxStore.Session> value) {
            this.onSession = value;
            return this;
        }

        public Builder store(OutboxStore value) {
            this.store = value;
            return this;
        }

        public Builder publisher(Publisher value) {
            this.publisher = value;
            return this;
        }

        public Builder listener(RelayListener value) {
            this.listener = value;
            return this;
        }

        public Builder backoff(BackoffPolicy value) {
            this.backoff = value;
            return this;
        }

        public Builder config(RelayConfig value) {
            this.config = value;
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        public Builder counters(RelayCounters value) {
            this.counters = value;
            return this;
        }

        /** Asked before each claim: false once the relay is paused or stopping. */
        public Builder mayClaim(BooleanSupplier value) {
            this.mayClaim = value;
            return this;
        }

        /** Asked while publishing: true once the relay is stopping (the rest of the batch is released). */
        public Builder stopping(BooleanSupplier value) {
            this.stopping = value;
            return this;
        }

        public Builder nanoTime(LongSupplier value) {
            this.nanoTime = value;
            return this;
        }

        /** Completes batch N on a second connection on this executor while batch N+1 is published; null: inline. */
        public Builder completionExecutor(Executor value) {
            this.completionExecutor = value;
            return this;
        }

        /** Lets a full, wholly published batch be completed by the next claim's statement ({@link CarriedBatch}). */
        public Builder fused(boolean value) {
            this.fused = value;
            return this;
        }

        public DrainLoop build() {
            return new DrainLoop(this);
        }
    }
}
