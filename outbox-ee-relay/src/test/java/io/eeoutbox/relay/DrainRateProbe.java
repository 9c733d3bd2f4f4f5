package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.config.RelayConfig;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A quick local look at the drain rate into a no-op publisher (not a test, not the benchmark of
 * issue 7): {@code java -cp <test classpath> io.eeoutbox.relay.DrainRateProbe [events]}.
 */
public final class DrainRateProbe {

    private DrainRateProbe() {
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Object[][] runs = {{100, CompletionMode.MARK}, {500, CompletionMode.MARK}, {1000, CompletionMode.MARK},
                {1000, CompletionMode.DELETE}};
        for (Object[] run : runs) {
            for (int repeat = 0; repeat < 2; repeat++) {
                for (boolean pipelined : new boolean[] {false, true}) {
                    measure(events, (Integer) run[0], (CompletionMode) run[1], pipelined);
                }
            }
        }
        System.exit(0);
    }

    private static void measure(int events, int batchSize, CompletionMode mode, boolean pipelined) throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("drain_probe", false);
        RelayIt.writeCommitted(db, events, i -> new RelayIt.Event("order", "o" + (i % 1000), "order.created"));
        db.execute("VACUUM ANALYZE outbox_events");
        AtomicLong published = new AtomicLong();
        Publisher noop = new Publisher() {
            @Override
            public void publish(OutboxMessage message) {
            }

            @Override
            public io.eeoutbox.spi.PublishResult publishAll(java.util.List<OutboxMessage> batch) {
                return io.eeoutbox.spi.PublishResult.allPublished();
            }
        };
        RelayListener counter = new RelayListener() {
            @Override
            public void batchCompleted(int claimed, int done, int failed, Duration elapsed) {
                published.addAndGet(done);
            }
        };
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        OutboxRelay relay = OutboxRelay.builder()
                .config(RelayConfig.builder().set(RelaySettings.NAME, "probe").set(RelaySettings.NOTIFY_ENABLED, false).set(RelaySettings.BATCH_SIZE, batchSize).set(RelaySettings.COMPLETION, mode)
                        .set(RelaySettings.POLL_INTERVAL, Duration.ofSeconds(30)).build())
                .dataSource(db.dataSource()).executor(executor).publisher(noop).listener(counter).pipelined(pipelined).build();
        long start = System.nanoTime();
        relay.start();
        while (published.get() < events) {
            Thread.sleep(1);
        }
        long nanos = System.nanoTime() - start;
        relay.stop(Duration.ofSeconds(5));
        executor.shutdownNow();
        System.out.printf("[DrainRateProbe] batch=%d completion=%s pipelined=%s events=%d: %.0f events/s (%d ms)%n",
                batchSize, mode, pipelined, events, events / (nanos / 1e9), nanos / 1_000_000);
    }
}
