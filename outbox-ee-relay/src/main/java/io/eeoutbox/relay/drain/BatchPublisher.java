package io.eeoutbox.relay.drain;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.backoff.HeldBack;
import io.eeoutbox.relay.complete.Round;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.ErrorTexts;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The publish step: hands a claimed batch to the {@link Publisher}, in one call unless the lease budget says
 * it would not fit, and stops handing out more once the relay is stopping or the lease deadline has passed.
 *
 * <p>Messages of a held destination ({@link DestinationHolds}) are not handed over: they fail as {@link HeldBack}
 * (deferred until the hold ends), except one per batch once the hold has ended, the probe, sent with the rest of
 * the batch: if it got through, the destination's other messages of the batch go next; if not, they are held
 * back for the next, longer hold. A destination that took a message is no longer held; one that refused as
 * unavailable is held.
 */
final class BatchPublisher {

    private static final Logger LOG = Logger.getLogger(BatchPublisher.class.getName());

    private final Publisher publisher;
    private final RelayConfig config;
    private final LongSupplier nanoTime;
    private final BooleanSupplier stopping;
    private final LeaseBudget budget;
    private final DestinationHolds holds;

    BatchPublisher(Publisher publisher, RelayConfig config, LongSupplier nanoTime, BooleanSupplier stopping,
                   DestinationHolds holds) {
        this.publisher = publisher;
        this.config = config;
        this.nanoTime = nanoTime;
        this.stopping = stopping;
        this.budget = new LeaseBudget(config.lease());
        this.holds = holds;
    }

    /** @param leaseEnd when the claim's lease ends, a {@code nanoTime} value (no later than the database's) */
    Round publish(List<OutboxMessage> claimed, long leaseEnd) {
        Map<OutboxMessage, Throwable> failures = new LinkedHashMap<>();
        if (holds.isEmpty()) {
            Round round = publishUnheld(claimed, leaseEnd, failures);
            noteDestinations(round);
            return round;
        }
        List<OutboxMessage> send = new ArrayList<>(claimed.size());
        List<OutboxMessage> probes = new ArrayList<>();
        List<OutboxMessage> waiting = new ArrayList<>();
        sortByHold(claimed, send, probes, waiting, failures);
        probes.addAll(send); // the probes go with the rest: a broker that takes the rest tells a destination's outage
        Round first = publishUnheld(probes, leaseEnd, failures);
        noteDestinations(first);
        if (waiting.isEmpty()) {
            return first;
        }
        List<OutboxMessage> after = new ArrayList<>(waiting.size());
        for (OutboxMessage m : waiting) { // their destination's probe decided: go now, or wait for the next hold
            String d = destinationOf(m);
            if (holds.held(d)) {
                Duration left = holds.left(d);
                failures.put(m, new HeldBack(d, left != null ? left : Duration.ZERO, holds.error(d)));
            } else {
                after.add(m);
            }
        }
        Round second = publishUnheld(after, leaseEnd, failures);
        noteDestinations(second);
        List<OutboxMessage> published = new ArrayList<>(first.published());
        published.addAll(second.published());
        List<OutboxMessage> unpublished = new ArrayList<>(first.unpublished());
        unpublished.addAll(second.unpublished());
        return new Round(published, failures, unpublished);
    }

    /**
     * Sorts a batch by its destinations' holds: messages that may go ({@code send}), the first of each destination
     * whose hold has ended ({@code probes}), the others of those ({@code waiting}), and the messages of a destination
     * still held ({@code failures}, as {@link HeldBack}).
     */
    private void sortByHold(List<OutboxMessage> claimed, List<OutboxMessage> send, List<OutboxMessage> probes,
                            List<OutboxMessage> waiting, Map<OutboxMessage, Throwable> failures) {
        Set<String> probing = new HashSet<>();
        for (OutboxMessage m : claimed) {
            String d = destinationOf(m);
            if (!holds.held(d)) {
                send.add(m);
                continue;
            }
            Duration left = holds.left(d);
            if (left != null) {
                failures.put(m, new HeldBack(d, left, holds.error(d)));
            } else if (probing.add(d)) {
                probes.add(m);
            } else {
                waiting.add(m);
            }
        }
    }

    /** Ends the hold of each destination that took a message, then holds each one that refused as unavailable. */
    private void noteDestinations(Round round) {
        if (!holds.isEmpty()) {
            for (OutboxMessage m : round.published()) {
                holds.tookMessage(destinationOf(m));
            }
        }
        for (Map.Entry<OutboxMessage, Throwable> e : round.failures().entrySet()) {
            if (e.getValue() instanceof DestinationUnavailableException d && !(d instanceof HeldBack)
                    && d.destination().equals(destinationOf(e.getKey())) && !holds.closed(d.destination())) {
                Duration delay = holds.refused(d.destination(), ErrorTexts.describe(d));
                LOG.fine(() -> "relay " + config.name() + ": destination " + d.destination() + " held for " + delay);
            }
        }
    }

    private String destinationOf(OutboxMessage m) {
        try {
            return publisher.destinationOf(m);
        } catch (RuntimeException e) {
            return null; // the SPI says it does not throw; if it does, the message is sent as if no hold applied
        }
    }

    private Round publishUnheld(List<OutboxMessage> batch, long leaseEnd, Map<OutboxMessage, Throwable> failures) {
        List<OutboxMessage> published = new ArrayList<>(batch.size());
        long deadline = budget.deadline(leaseEnd);
        int next = 0;
        while (next < batch.size()) {
            if (stopping.getAsBoolean()) {
                int rest = batch.size() - next;
                LOG.fine(() -> "relay " + config.name() + " stopping: releasing " + rest + " unpublished rows");
                break;
            }
            int chunk = budget.nextChunk(nanoTime.getAsLong(), deadline, batch.size() - next);
            if (chunk == 0) {
                int rest = batch.size() - next;
                LOG.warning(() -> "relay " + config.name() + ": the claim's lease (" + config.lease()
                        + ") would run out before the publisher is done; releasing " + rest + " unpublished rows"
                        + " (publishing takes about " + Math.round(budget.nanosPerMessage() / 1_000) + " µs per message;"
                        + " raise " + RelaySettings.LEASE.key() + " or lower " + RelaySettings.BATCH_SIZE.key() + ")");
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
        } catch (Throwable e) {
            // The SPI says publishAll does not throw; if it does, no message of this part counts as sent, and each
            // counts an attempt: an Error too (a class missing from the client library, a stack overflow on a
            // payload), which would otherwise leave the rows claimed and reclaim them after each lease, uncounted
            // and unseen. Only an out-of-memory or internal JVM error is left to end the drain.
            if (e instanceof VirtualMachineError fatal && !(e instanceof StackOverflowError)) {
                throw fatal;
            }
            Map<UUID, Throwable> all = new LinkedHashMap<>();
            for (OutboxMessage m : part) {
                all.put(m.id(), e);
            }
            return PublishResult.of(all);
        }
    }
}
