package io.eeoutbox.sample.fault.harness;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Several concurrent HTTP clients creating orders until a number of them have been acknowledged
 * (201 with an id), or until stopped. A client that gets no answer (the server is down) or a 5xx
 * waits a little and goes on with a new order: the load keeps coming through any outage.
 *
 * <p>Every answer is counted by kind; the ids of acknowledged orders are kept, with the instant of
 * the acknowledgement, for the checks afterwards.
 */
public final class LoadClients implements AutoCloseable {

    /** An acknowledged order: its id and when the 201 arrived. */
    public record Ack(String orderId, String customerId, long atNanos) {
    }

    /** Any answer: when the request was sent ({@link System#nanoTime()}), how long it took, what came back. */
    public record Answer(long sentNanos, long tookNanos, String kind) {
    }

    private final Supplier<URI> base;
    private final int clients;
    private final int target;
    private final String customerPrefix;
    private final Queue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final Queue<Answer> log = new ConcurrentLinkedQueue<>();
    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger sequence = new AtomicInteger();
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile long slowest;
    private final List<Thread> threads = new ArrayList<>();
    private volatile Duration pauseAfterFailure = Duration.ofMillis(100);
    private volatile Duration pauseBetween = Duration.ZERO;

    /**
     * @param base           the application's root (asked again after each failure: a restarted server may move)
     * @param clients        concurrent clients
     * @param target         acknowledged orders after which the clients stop
     * @param customerPrefix customer ids are {@code <prefix>-<n>}
     */
    public LoadClients(Supplier<URI> base, int clients, int target, String customerPrefix) {
        this.base = base;
        this.clients = clients;
        this.target = target;
        this.customerPrefix = customerPrefix;
    }

    /** Each client waits this long after each request: a steady trickle instead of full speed. */
    public LoadClients pauseBetween(Duration pause) {
        this.pauseBetween = pause;
        return this;
    }

    public LoadClients start() {
        for (int i = 0; i < clients; i++) {
            Thread t = new Thread(this::runClient, "fault-client-" + customerPrefix + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        return this;
    }

    private void runClient() {
        OrdersApi api = new OrdersApi(base.get());
        while (!stop.get() && acks.size() < target) {
            int n = sequence.incrementAndGet();
            String customer = customerPrefix + "-" + n;
            String total = (n % 1000) + "." + String.format("%02d", n % 100);
            attempts.incrementAndGet();
            long sent = System.nanoTime();
            OrdersApi.Reply r = api.createOrder(customer, total);
            long ms = r.nanos() / 1_000_000;
            if (ms > slowest) {
                slowest = ms;
            }
            String kind = r.isTransportFailure() ? "no-answer:" + r.failure() : String.valueOf(r.status());
            answers.computeIfAbsent(kind, k -> new LongAdder()).increment();
            log.add(new Answer(sent, r.nanos(), kind));
            if (r.isCreated() && r.id().isPresent()) {
                acks.add(new Ack(r.id().get(), customer, System.nanoTime()));
                if (!pauseBetween.isZero()) {
                    sleep(pauseBetween);
                }
            } else {
                if (r.isCreated()) {
                    answers.computeIfAbsent("201-without-id", k -> new LongAdder()).increment();
                }
                sleep(pauseAfterFailure);
                if (r.isTransportFailure()) {
                    api = new OrdersApi(base.get());
                }
            }
        }
    }

    /** Waits until the target is reached or {@code timeout} has passed; then stops the clients. */
    public boolean awaitTarget(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (acks.size() < target && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        close();
        return acks.size() >= target;
    }

    /** Acknowledged so far. */
    public int acknowledged() {
        return acks.size();
    }

    public List<Ack> acks() {
        return List.copyOf(acks);
    }

    public List<String> ackedIds() {
        return acks.stream().map(Ack::orderId).toList();
    }

    /** Acknowledgements that arrived between the two instants ({@link System#nanoTime()}). */
    public long acknowledgedBetween(long fromNanos, long toNanos) {
        return acks.stream().filter(a -> a.atNanos() >= fromNanos && a.atNanos() < toNanos).count();
    }

    /** The answers to requests sent between the two instants ({@link System#nanoTime()}). */
    public List<Answer> answersSentBetween(long fromNanos, long toNanos) {
        return log.stream().filter(a -> a.sentNanos() >= fromNanos && a.sentNanos() < toNanos).toList();
    }

    public int attempts() {
        return attempts.get();
    }

    /** Answers by kind: "201", "503", "no-answer:connect", ... */
    public Map<String, Long> answers() {
        Map<String, Long> m = new TreeMap<>();
        answers.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    public long slowestMillis() {
        return slowest;
    }

    /** Stops the clients and waits for their requests in flight (each bounded by the request timeout). */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(OrdersApi.REQUEST_TIMEOUT.toMillis() + 5000);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
