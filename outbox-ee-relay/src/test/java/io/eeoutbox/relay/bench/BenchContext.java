package io.eeoutbox.relay.bench;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/** What the sections share: settings, results, the database, the producers, the broker. */
final class BenchContext implements AutoCloseable {

    final BenchSettings settings;
    final Results results;
    final BenchDatabase db;
    private Producers producers;
    private PersistentBroker broker;
    /** Highest producer throughput (order + event per transaction) measured in this run, tx/s; NaN before. */
    double producerLimit = Double.NaN;
    String producerLimitBasis = "";

    BenchContext(BenchSettings settings, Results results, BenchDatabase db) {
        this.settings = settings;
        this.results = results;
        this.db = db;
    }

    synchronized Producers producers() {
        if (producers == null) {
            producers = new Producers(db);
        }
        return producers;
    }

    /**
     * Closes the producers' JTA environment (one runs at a time in a JVM); the next {@link #producers()} starts a new
     * one. Section 8 runs producers of its own on another database.
     */
    synchronized void closeProducers() {
        if (producers != null) {
            producers.close();
            producers = null;
        }
    }

    synchronized PersistentBroker broker() throws Exception {
        if (broker == null) {
            broker = new PersistentBroker(settings.out().resolve("artemis"));
            results.environment("JMS: " + broker.describe());
        }
        return broker;
    }

    long millis(long ms) {
        return ms * 1_000_000L;
    }

    static void log(String line) {
        System.out.println("[bench] " + line);
        System.out.flush();
    }

    /** Waits for {@code condition}, checking every 5 ms; throws after {@code timeoutMillis}. */
    static void await(String what, long timeoutMillis, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("timed out after " + timeoutMillis + " ms waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /** Checks what a publisher reported against what was inserted, and records the check. */
    Results.Check check(String run, Collection<UUID> inserted, PublishLog log) {
        Set<UUID> expected = new HashSet<>(inserted);
        Set<UUID> published = log.firstPublish().keySet();
        long missing = expected.stream().filter(id -> !published.contains(id)).count();
        long unexpected = published.stream().filter(id -> !expected.contains(id)).count();
        return record(run, expected.size(), published.size(), missing, unexpected, log.publishes() - log.distinct());
    }

    /** Checks what the broker delivered to a consumer against what was inserted, and records the check. */
    Results.Check check(String run, Collection<UUID> inserted, Map<UUID, Integer> delivered) {
        return check(run, inserted, delivered, db.pending());
    }

    /** The same, with the rows still pending counted by the caller (section 8 runs on a database of its own). */
    Results.Check check(String run, Collection<UUID> inserted, Map<UUID, Integer> delivered, long stillPending) {
        Set<UUID> expected = new HashSet<>(inserted);
        long missing = expected.stream().filter(id -> !delivered.containsKey(id)).count();
        long unexpected = delivered.keySet().stream().filter(id -> !expected.contains(id)).count();
        long total = delivered.values().stream().mapToLong(Integer::longValue).sum();
        Results.Check c = results.check(new Results.Check(run + " (consumed from the broker)", expected.size(),
                delivered.size(), missing, unexpected, total - delivered.size(), stillPending));
        if (!c.passed()) {
            log("CHECK FAILED: " + c);
        }
        return c;
    }

    private Results.Check record(String run, long expected, long distinct, long missing, long unexpected, long duplicates) {
        Results.Check c = results.check(new Results.Check(run, expected, distinct, missing, unexpected, duplicates,
                db.pending()));
        if (!c.passed()) {
            log("CHECK FAILED: " + c);
        }
        return c;
    }

    @Override
    public void close() throws Exception {
        try {
            if (producers != null) {
                producers.close();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }
}
