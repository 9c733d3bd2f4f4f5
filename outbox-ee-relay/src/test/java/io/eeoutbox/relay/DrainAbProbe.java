package io.eeoutbox.relay;

import io.eeoutbox.relay.config.RelaySettings;

import io.eeoutbox.relay.config.RelayConfig;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A quick A/B look at one relay's drain into a no-op publisher, for comparing two builds back to back
 * (not a test, not the benchmark of issue 7). Every setting is a system property:
 * {@code -Dprobe.events=100000 -Dprobe.repeats=2 -Dprobe.pipelined=true -Dprobe.fillfactor=} and any
 * {@code outbox.relay.*} key (e.g. {@code -Doutbox.relay.batch-size=500}); keys the build does not know
 * are ignored, so the same command runs on an older build. Prints the rate, the machine's load average
 * and how many of the table's updates were HOT.
 */
public final class DrainAbProbe {

    private DrainAbProbe() {
    }

    public static void main(String[] args) throws Exception {
        int events = Integer.getInteger("probe.events", 100_000);
        int repeats = Integer.getInteger("probe.repeats", 2);
        boolean pipelined = Boolean.parseBoolean(System.getProperty("probe.pipelined", "true"));
        String label = System.getProperty("probe.label", "");
        Map<String, String> keys = new HashMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("outbox.relay.")) {
                keys.put(k.toString(), v.toString());
            }
        });
        for (int r = 0; r < repeats; r++) {
            measure(label, events, keys, pipelined);
        }
        System.exit(0);
    }

    private static void measure(String label, int events, Map<String, String> keys, boolean pipelined) throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("drain_ab", false);
        try {
            String fillfactor = System.getProperty("probe.fillfactor", "");
            if (!fillfactor.isBlank()) {
                db.execute("ALTER TABLE outbox_events SET (fillfactor = " + Integer.parseInt(fillfactor) + ")");
            }
            RelayIt.writeCommitted(db, events, i -> new RelayIt.Event("order", "o" + i, "order.created"));
            db.execute("VACUUM ANALYZE outbox_events");
            db.execute("CHECKPOINT");
            AtomicLong published = new AtomicLong();
            Publisher noop = new Publisher() {
                @Override
                public void publish(OutboxMessage message) {
                }

                @Override
                public io.eeoutbox.spi.PublishResult publishAll(List<OutboxMessage> batch) {
                    return io.eeoutbox.spi.PublishResult.allPublished();
                }
            };
            RelayListener counter = new RelayListener() {
                @Override
                public void batchCompleted(int claimed, int done, int failed, Duration elapsed) {
                    published.addAndGet(done);
                }
            };
            Map<String, String> all = new HashMap<>(keys);
            all.put(RelaySettings.NAME.key(), "probe");
            all.put(RelaySettings.NOTIFY_ENABLED.key(), "false");
            all.put(RelaySettings.POLL_INTERVAL.key(), "PT30S");
            RelayConfig config = RelayConfig.load(k -> Optional.ofNullable(all.get(k)));
            ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
            OutboxRelay relay = OutboxRelay.builder().config(config).dataSource(db.dataSource()).executor(executor)
                    .publisher(noop).listener(counter).pipelined(pipelined).build();
            double load0 = load();
            long start = System.nanoTime();
            relay.start();
            while (published.get() < events) {
                Thread.sleep(1);
            }
            long nanos = System.nanoTime() - start;
            double load1 = load();
            relay.stop(Duration.ofSeconds(5));
            executor.shutdownNow();
            Thread.sleep(1500); // the relay's backends flush their statistics as they exit
            long upd = db.queryLong("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'outbox_events'");
            long hot = db.queryLong("SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'outbox_events'");
            System.out.printf(java.util.Locale.ROOT,
                    "[probe] %s %s pipelined=%s events=%d: %.0f events/s (%d ms); updates %d, HOT %d (%.0f%%); load %.2f -> %.2f%n",
                    label, keys, pipelined, events, events / (nanos / 1e9), nanos / 1_000_000, upd, hot,
                    upd == 0 ? 0.0 : 100.0 * hot / upd, load0, load1);
        } finally {
            try (Connection c = DriverManager.getConnection(db.url().replace("/" + db.name(), "/postgres"), db.user(),
                    db.password()); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + db.name() + " WITH (FORCE)");
            }
        }
    }

    private static double load() throws Exception {
        String first = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        return Double.parseDouble(first);
    }
}
