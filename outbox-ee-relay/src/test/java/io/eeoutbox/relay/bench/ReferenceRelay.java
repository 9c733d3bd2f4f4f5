package io.eeoutbox.relay.bench;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.FetchOutboxBatchParams;
import io.eeoutbox.jpa.generated.FetchOutboxBatchRow;
import io.eeoutbox.jpa.generated.OutboxEventTestingJdbc;
import io.eeoutbox.spi.Publisher;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The baseline: the reference article's relay ("Il pattern Outbox transazionale in Go con
 * PostgreSQL", {@code processBatch}), implemented faithfully with ee-outbox's generated DAO.
 *
 * <p>Per batch: one database transaction that stays open while the batch is published;
 * {@code FetchOutboxBatch} ({@code SELECT ... ORDER BY ... LIMIT 100 FOR UPDATE SKIP LOCKED}), all rows
 * read before the first publish; then for each row in turn a synchronous publish and one
 * {@code UPDATE} for that row ({@code MarkOutboxProcessed}, or {@code IncrementOutboxAttempts} when the
 * publish failed, going on with the next row); commit. A failed mark rolls the whole batch back,
 * as the article's {@code return fmt.Errorf("mark processed: ...")} with its deferred rollback does.
 *
 * <p>One difference, in the baseline's favour: the article runs one batch per ticker tick; here a
 * worker runs its batches back to back while they find rows, so a drain is not limited by the tick.
 */
final class ReferenceRelay {

    private static final Logger LOG = Logger.getLogger(ReferenceRelay.class.getName());

    private final DataSource dataSource;
    private final Publisher publisher;
    private final int batchSize;
    private final int maxAttempts;

    ReferenceRelay(DataSource dataSource, Publisher publisher, int batchSize, int maxAttempts) {
        this.dataSource = dataSource;
        this.publisher = publisher;
        this.batchSize = batchSize;
        this.maxAttempts = maxAttempts;
    }

    /**
     * Runs batches back to back on one connection until a fetch finds nothing, or {@code keepGoing}
     * turns false (checked between batches).
     *
     * @return rows fetched in all
     */
    long drain(BooleanSupplier keepGoing) throws SQLException {
        long total = 0;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            while (keepGoing.getAsBoolean()) {
                int n = processBatch(c);
                if (n == 0) {
                    break;
                }
                total += n;
            }
            c.setAutoCommit(true);
        }
        return total;
    }

    /** One batch, as the article's {@code processBatch}; returns how many rows it fetched. */
    int processBatch(Connection c) throws SQLException {
        boolean done = false;
        try {
            OutboxEventTestingJdbc dao = new OutboxEventTestingJdbc(c);
            List<FetchOutboxBatchRow> batch = dao.fetchOutboxBatch(new FetchOutboxBatchParams(maxAttempts, batchSize));
            for (FetchOutboxBatchRow e : batch) {
                try {
                    publisher.publish(new OutboxMessage(e.id(), 0, e.eventType(), e.payload(),
                            new OutboxMessage.Aggregate(e.aggregateType(), e.aggregateId()),
                            OutboxMessage.Delivery.of(null, e.attempts() + 1)));
                } catch (Exception publishFailure) {
                    LOG.log(Level.WARNING, "publish failed event_id=" + e.id(), publishFailure);
                    try {
                        dao.incrementOutboxAttempts(e.id());
                    } catch (SQLException incrementFailure) {
                        LOG.log(Level.WARNING, "increment attempts failed event_id=" + e.id(), incrementFailure);
                    }
                    continue;
                }
                dao.markOutboxProcessed(e.id());
            }
            c.commit();
            done = true;
            return batch.size();
        } finally {
            if (!done) {
                c.rollback();
            }
        }
    }

    /** How long some reference relays ran side by side, and the CPU they used. */
    record Run(long nanos, CpuMeter.Usage usage) {
        double seconds() {
            return nanos / 1e9;
        }
    }

    /**
     * Runs {@code workers} side by side, one thread each, until each finds nothing more to claim or {@code capNanos}
     * ({@code System.nanoTime()}) has passed.
     *
     * @throws IllegalStateException when a worker failed
     */
    static Run drainTogether(List<ReferenceRelay> workers, long capNanos, String threadName) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        CpuMeter cpu = new CpuMeter();
        long t0 = System.nanoTime();
        for (ReferenceRelay w : workers) {
            Thread t = new Thread(() -> {
                try {
                    w.drain(() -> System.nanoTime() < capNanos);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, threadName);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long t1 = System.nanoTime();
        CpuMeter.Usage usage = cpu.stop();
        if (failure.get() != null) {
            throw new IllegalStateException("baseline drain failed", failure.get());
        }
        return new Run(t1 - t0, usage);
    }
}
