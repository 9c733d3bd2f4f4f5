package io.eeoutbox.relay.bench;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a publisher reported as accepted: each event id with the time of its first successful
 * publish ({@code System.nanoTime()}), and how many publishes there were in all (so duplicates show).
 */
final class PublishLog {

    private final Map<UUID, Long> first = new ConcurrentHashMap<>();
    private final AtomicLong publishes = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong callNanos = new AtomicLong();

    /** One call into the broker client (a send or a batch), and how long it took. */
    void call(long nanos) {
        calls.incrementAndGet();
        callNanos.addAndGet(nanos);
    }

    /** Mean time of a call into the broker client, in ms; NaN without calls. */
    double meanCallMillis() {
        long n = calls.get();
        return n == 0 ? Double.NaN : callNanos.get() / 1e6 / n;
    }

    long calls() {
        return calls.get();
    }

    /** Total time in the broker client, in seconds. */
    double callSeconds() {
        return callNanos.get() / 1e9;
    }

    void published(UUID id, long nanos) {
        publishes.incrementAndGet();
        first.putIfAbsent(id, nanos);
    }

    /** Distinct ids published. */
    int distinct() {
        return first.size();
    }

    /** Publishes in all (at least {@link #distinct()}). */
    long publishes() {
        return publishes.get();
    }

    Map<UUID, Long> firstPublish() {
        return first;
    }

    void clear() {
        first.clear();
        publishes.set(0);
    }
}
