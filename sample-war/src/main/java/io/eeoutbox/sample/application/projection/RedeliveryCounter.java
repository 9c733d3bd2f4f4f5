package io.eeoutbox.sample.application.projection;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts, per order, the deliveries the inbox recognised as already applied since the application
 * started (kept in memory: it shows that duplicates arrive and change nothing, it is not state).
 */
@ApplicationScoped
public class RedeliveryCounter {

    private static final int MAX_ORDERS = 100_000;

    private final Map<String, AtomicLong> ignored = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();

    void record(String aggregateId) {
        total.incrementAndGet();
        if (aggregateId == null) {
            return;
        }
        if (ignored.size() >= MAX_ORDERS && !ignored.containsKey(aggregateId)) {
            ignored.clear(); // a sample's bounded memory; the counts are informational
        }
        ignored.computeIfAbsent(aggregateId, k -> new AtomicLong()).incrementAndGet();
    }

    /** Redeliveries of this order's events that were ignored. */
    public long ignored(String aggregateId) {
        AtomicLong n = ignored.get(aggregateId);
        return n == null ? 0 : n.get();
    }

    /** All ignored redeliveries. */
    public long total() {
        return total.get();
    }
}
