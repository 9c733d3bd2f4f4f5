package io.eeoutbox.relay;

import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/** Shared steps of the relay's integration tests. */
public final class RelayIt {

    private RelayIt() {
    }

    /** One event to write. */
    public record Event(String aggregateType, String aggregateId, String eventType) {
    }

    /** Writes events in one transaction through the generated DAO and commits (or rolls back). */
    public static List<UUID> write(TestDatabase.Db db, List<Event> events, boolean commit) {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            List<UUID> ids = new ArrayList<>();
            for (Event e : events) {
                UUID id = UUID.randomUUID();
                dao.insertOutboxEvent(new InsertOutboxEventParams(id, e.aggregateType(), e.aggregateId(), e.eventType(),
                        "{\"n\":" + ids.size() + "}", null));
                ids.add(id);
            }
            if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
            return ids;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code n} committed events, written in transactions of up to 1000. */
    public static List<UUID> writeCommitted(TestDatabase.Db db, int n, IntFunction<Event> event) {
        List<UUID> ids = new ArrayList<>();
        for (int from = 0; from < n; from += 1000) {
            List<Event> chunk = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + 1000); i++) {
                chunk.add(event.apply(i));
            }
            ids.addAll(write(db, chunk, true));
        }
        return ids;
    }

    /** What every thread of this JVM is doing: printed with a timed-out wait, to show where a relay stood still. */
    static String threads() {
        StringBuilder out = new StringBuilder("threads at the timeout:");
        for (java.lang.management.ThreadInfo t : java.lang.management.ManagementFactory.getThreadMXBean()
                .dumpAllThreads(true, true)) {
            out.append("\n\"").append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                out.append(" on ").append(t.getLockName());
            }
            for (StackTraceElement e : t.getStackTrace()) {
                out.append("\n    at ").append(e);
            }
        }
        return out.toString();
    }

    public static long pending(TestDatabase.Db db) {
        return db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL");
    }

    /** Waits for a condition, checking every 20 ms; fails with {@code what} after {@code timeout}. */
    public static void await(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what + "\n" + threads());
            }
            Thread.sleep(20);
        }
    }

    /** A test relay's configuration: fast retries, no NOTIFY unless asked. */
    public static RelayConfig.Builder config(String name) {
        return RelayConfig.builder().set(RelaySettings.NAME, name).set(RelaySettings.NOTIFY_ENABLED, false).set(RelaySettings.POLL_INTERVAL, Duration.ofMillis(100))
                .set(RelaySettings.BACKOFF_INITIAL, Duration.ofMillis(10)).set(RelaySettings.BACKOFF_MAX, Duration.ofMillis(50)).set(RelaySettings.BACKOFF_JITTER, 0.0);
    }
}
