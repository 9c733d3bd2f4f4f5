package io.eeoutbox.relay.bench;

import io.eeoutbox.OutboxService;
import io.eeoutbox.jpa.JpaOutboxService;
import io.eeoutbox.jpa.JtaResources;
import io.eeoutbox.testing.JtaTestEnvironment;
import io.eeoutbox.testing.TestOrder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The business side: transactions that insert an order through JPA in a JTA transaction (Narayana,
 * Agroal, Hibernate: {@link JtaTestEnvironment}), with or without {@code OutboxService.record(...)} of
 * its order-created event, as an application's service method does. Closed loop (each client starts
 * its next transaction when the last one committed) or paced at a given rate.
 */
final class Producers implements AutoCloseable {

    private static final BigDecimal TOTAL = new BigDecimal("149.90");
    /** Looked up once: {@code Json.createXxx} looks the provider up again on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final AtomicLong ORDER_IDS = new AtomicLong();

    private final JtaTestEnvironment env;
    private final TransactionManager tm;
    private final EntityManager em;
    private final OutboxService outbox;

    Producers(BenchDatabase db) {
        env = JtaTestEnvironment.start(db.db(), JtaResources.class, JpaOutboxService.class, CommitHint.class);
        tm = env.transactionManager();
        em = env.bean(EntityManager.class);
        outbox = env.bean(OutboxService.class);
    }

    /** What one run produced. {@code latencies}: sorted, of the transactions started in the measured window. */
    record Outcome(long measured, double seconds, long[] latencies, List<UUID> eventIds, long[] commitNanos,
                   long measureStartNanos, long measureEndNanos) {
        double perSecond() {
            return measured / seconds;
        }
    }

    /** What one transaction does. */
    enum Work {
        /** Insert the order only. */
        BUSINESS,
        /** Insert the order and record its event, the payload given as JSON text (the common case). */
        OUTBOX,
        /**
         * Diagnostic: the same, the payload given as a {@code JsonValue} built with a provider looked up
         * once, so that record() does not parse it (no per-call JSON provider lookup).
         */
        OUTBOX_JSON_VALUE,
        /**
         * Diagnostic: the order plus one statement that does nothing ({@code SELECT 1} as a native query
         * through the same EntityManager), so one more round trip: the floor any second statement in
         * the transaction costs, whatever it does.
         */
        BUSINESS_ROUND_TRIP,
        /**
         * Insert the order and record its event as {@link #OUTBOX} does, on an outbox without ordered mode's index
         * (sql/options/unordered-only.sql, applied by the section for this variant's runs only).
         */
        OUTBOX_UNORDERED_ONLY
    }

    /** One transaction; returns its event id, or null for a business-only transaction. */
    UUID transaction(Work work) throws Exception {
        String orderId = "o-" + ORDER_IDS.incrementAndGet();
        tm.begin();
        boolean committed = false;
        try {
            em.persist(new TestOrder(orderId, "c-17", TOTAL));
            UUID id = switch (work) {
                case BUSINESS -> null;
                case OUTBOX, OUTBOX_UNORDERED_ONLY -> outbox.record("order", orderId, "order.created", Backlog.payload(orderId));
                case OUTBOX_JSON_VALUE -> outbox.record("order", orderId, "order.created", jsonPayload(orderId));
                case BUSINESS_ROUND_TRIP -> {
                    em.createNativeQuery("SELECT 1").getSingleResult();
                    yield null;
                }
            };
            tm.commit();
            committed = true;
            return id;
        } finally {
            if (!committed && tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
                tm.rollback();
            }
        }
    }

    /** The same payload as {@link Backlog#payload(String)}, as a JsonValue. */
    private static JsonValue jsonPayload(String orderId) {
        return JSON.createObjectBuilder()
                .add("orderId", orderId)
                .add("customerId", "c-" + (orderId.hashCode() & 0xffff))
                .add("currency", "EUR")
                .add("total", "149.90")
                .add("lines", JSON.createArrayBuilder()
                        .add(JSON.createObjectBuilder().add("sku", "SKU-1").add("qty", 2))
                        .add(JSON.createObjectBuilder().add("sku", "SKU-7").add("qty", 1)))
                .build();
    }

    /** {@code clients} threads, each running transactions back to back. */
    Outcome closedLoop(int clients, Work work, long warmupNanos, long measureNanos) throws Exception {
        return run(clients, work, warmupNanos, measureNanos, 0);
    }

    /** {@code threads} threads that together start {@code perSecond} transactions (with outbox) per second. */
    Outcome paced(int threads, double perSecond, long warmupNanos, long measureNanos) throws Exception {
        return run(threads, Work.OUTBOX, warmupNanos, measureNanos, perSecond);
    }

    private Outcome run(int threads, Work work, long warmupNanos, long measureNanos, double rate) throws Exception {
        long start = System.nanoTime() + 20_000_000L;
        long measureStart = start + warmupNanos;
        long end = measureStart + measureNanos;
        List<Samples> latencies = new ArrayList<>();
        List<Samples> commits = new ArrayList<>();
        List<List<UUID>> ids = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(threads);
        for (int k = 0; k < threads; k++) {
            Samples lat = new Samples();
            Samples commit = new Samples();
            List<UUID> mine = new ArrayList<>();
            latencies.add(lat);
            commits.add(commit);
            ids.add(mine);
            long interval = rate > 0 ? (long) (threads * 1e9 / rate) : 0;
            long first = start + (rate > 0 ? k * interval / threads : 0);
            Thread t = new Thread(() -> {
                try {
                    long next = first;
                    LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
                    while (true) {
                        if (rate > 0) {
                            long wait = next - System.nanoTime();
                            if (wait > 0) {
                                LockSupport.parkNanos(wait);
                            }
                            next += interval;
                        }
                        long t0 = System.nanoTime();
                        if (t0 >= end || failure.get() != null) {
                            break;
                        }
                        UUID id = transaction(work);
                        long t1 = System.nanoTime();
                        if (t0 >= measureStart) {
                            lat.add(t1 - t0);
                        }
                        if (id != null) {
                            mine.add(id);
                            commit.add(t1);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, "bench-producer-" + k);
            t.setDaemon(true);
            t.start();
        }
        done.await();
        if (failure.get() != null) {
            throw new IllegalStateException("a producer failed", failure.get());
        }
        Samples all = new Samples();
        List<UUID> allIds = new ArrayList<>();
        Samples allCommits = new Samples();
        for (int k = 0; k < threads; k++) {
            all.addAll(latencies.get(k));
            allIds.addAll(ids.get(k));
            allCommits.addAll(commits.get(k));
        }
        return new Outcome(all.size(), measureNanos / 1e9, all.sorted(), allIds, allCommits.values(), measureStart, end);
    }

    @Override
    public void close() {
        env.close();
    }
}
