package io.eeoutbox.relay.bench;

import io.eeoutbox.relay.config.RelaySettings;

import io.agroal.api.AgroalDataSource;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.RelayStates;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One ee-outbox relay as a server runs it: its own pool of plain connections (counted by a
 * {@link CountingDataSource}), its own scheduled executor, its publisher. Counts the rows it
 * completed (published and marked), so a drain's end is known without asking the database.
 */
final class RelayInstance implements AutoCloseable {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final BenchDatabase db;
    private final AgroalDataSource pool;
    private final CountingDataSource counting;
    private final ScheduledExecutorService executor;
    private final OutboxRelay relay;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final Samples batchNanos = new Samples(); // guarded by itself: batches end on the executor's threads

    RelayInstance(BenchDatabase db, RelayConfig config, Publisher publisher) throws SQLException {
        this(db, config, publisher, null);
    }

    /** @param serverOptions settings for the relay's connections (diagnostic variants), or null */
    RelayInstance(BenchDatabase db, RelayConfig config, Publisher publisher, String serverOptions) throws SQLException {
        this(db, config, publisher, serverOptions, true);
    }

    /** @param pipelined {@link io.eeoutbox.relay.RelayBuilder#pipelined(boolean)} (the library's default: true) */
    RelayInstance(BenchDatabase db, RelayConfig config, Publisher publisher, String serverOptions, boolean pipelined)
            throws SQLException {
        this.db = db;
        this.pool = db.pool(4, serverOptions);
        this.counting = new CountingDataSource(pool);
        this.executor = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "bench-" + config.name() + "-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.relay = OutboxRelay.builder()
                .config(config)
                .dataSource(counting.dataSource())
                .executor(executor)
                .publisher(publisher)
                .pipelined(pipelined)
                .listener(new RelayListener() {
                    @Override
                    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
                        completed.addAndGet(published);
                        batches.incrementAndGet();
                        synchronized (batchNanos) {
                            batchNanos.add(elapsed.toNanos());
                        }
                    }
                })
                .build();
    }

    /**
     * The benchmark's relay settings: the library's defaults, the recommended batch size, NOTIFY as
     * asked, a name; {@code -Dbench.busy-poll-interval} (ISO-8601) overrides the busy-poll interval.
     */
    static RelayConfig.Builder config(String name, boolean notify) {
        RelayConfig.Builder b = RelayConfig.builder().set(RelaySettings.NAME, name).set(RelaySettings.NOTIFY_ENABLED, notify)
                .set(RelaySettings.BATCH_SIZE, RelaySettings.RECOMMENDED_BATCH_SIZE);
        String busyPoll = System.getProperty("bench.busy-poll-interval", "");
        if (!busyPoll.isBlank()) {
            b.set(RelaySettings.BUSY_POLL_INTERVAL, Duration.parse(busyPoll.trim()));
        }
        return b;
    }

    OutboxRelay relay() {
        return relay;
    }

    CountingDataSource counting() {
        return counting;
    }

    long completed() {
        return completed.get();
    }

    long batches() {
        return batches.get();
    }

    /** How long each batch took, claim to mark (sorted, nanoseconds). */
    long[] batchTimes() {
        synchronized (batchNanos) {
            return batchNanos.sorted();
        }
    }

    void start() {
        relay.start();
    }

    /**
     * Waits until the started relay has settled: its NOTIFY listener is connected and it is registered
     * as waiting for notifications (NOTIFY on), or it has made its first look and waits for a wake-up
     * (NOTIFY off). Fails after {@code timeout}.
     */
    void awaitSettled(Duration timeout) throws InterruptedException {
        if (relay.config().notifyEnabled()) {
            BenchContext.await("the relay to listen and wait for notifications", timeout.toMillis(),
                    () -> relay.isListening() && RelayStates.waitingForNotifications(relay));
        } else {
            BenchContext.await("the relay to make its first look and wait", timeout.toMillis(),
                    () -> RelayStates.awaitingWakeUp(relay));
        }
    }

    @Override
    public void close() {
        try {
            relay.stop(Duration.ofSeconds(30));
        } finally {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            db.closePool(pool);
        }
    }
}
