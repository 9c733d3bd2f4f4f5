package io.eeoutbox.relay.drain;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The publish step: hands a claimed batch to the {@link Publisher}, in one call unless the lease budget says
 * it would not fit, and stops handing out more once the relay is stopping or the lease deadline has passed.
 */
final class BatchPublisher {

    private static final Logger LOG = Logger.getLogger(BatchPublisher.class.getName());

    private final Publisher publisher;
    private final RelayConfig config;
    private final LongSupplier nanoTime;
    private final BooleanSupplier stopping;
    private final LeaseBudget budget;

    BatchPublisher(Publisher publisher, RelayConfig config, LongSupplier nanoTime, BooleanSupplier stopping) {
        this.publisher = publisher;
        this.config = config;
        this.nanoTime = nanoTime;
        this.stopping = stopping;
        this.budget = new LeaseBudget(config.lease());
    }

    /** @param leaseEnd when the claim's lease ends, a {@code nanoTime} value (no later than the database's) */
    Round publish(List<OutboxMessage> batch, long leaseEnd) {
        List<OutboxMessage> published = new ArrayList<>(batch.size());
        Map<OutboxMessage, Throwable> failures = new LinkedHashMap<>();
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
