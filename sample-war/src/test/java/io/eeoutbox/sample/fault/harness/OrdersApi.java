package io.eeoutbox.sample.fault.harness;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample's REST API as a client uses it: {@code POST /api/orders}, {@code POST /api/orders/{id}/status},
 * {@code GET /api/orders/{id}}, {@code GET /api/projection/{orderId}}. Every call is bounded in time;
 * a transport failure is an answer too ({@link Reply#status()} 0, with the exception's kind).
 */
public final class OrdersApi {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"?([^\",}\\s]+)");
    /** Every request gives up after this long: a hang is a finding, not a stuck suite. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final HttpClient http;

    public OrdersApi(URI base) {
        this.base = base;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(3))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    public URI base() {
        return base;
    }

    /** What came back: a status and body, or the transport failure ({@code status == 0}). */
    public record Reply(int status, String body, long nanos, String failure) {

        public boolean isCreated() {
            return status == 201;
        }

        public boolean isTransportFailure() {
            return status == 0;
        }

        public Duration duration() {
            return Duration.ofNanos(nanos);
        }

        /** The id of a created order: the body's {@code "id"}, else the Location header's last segment. */
        public Optional<String> id() {
            Matcher m = ID.matcher(body == null ? "" : body);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        }

        @Override
        public String toString() {
            return status == 0 ? "no answer (" + failure + ")"
                    : status + " " + (body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    /**
     * Asks {@code call} for every id on a few threads; returns the ids whose answer was not {@code status}
     * (each asked again once after a second, to let an answer in flight settle).
     */
    public static java.util.List<String> notAnswering(java.util.Collection<String> ids,
                                                      java.util.function.Function<String, Reply> call, int status)
            throws InterruptedException {
        java.util.concurrent.ConcurrentLinkedQueue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        for (String id : ids) {
            pool.execute(() -> {
                if (call.apply(id).status() != status) {
                    wrong.add(id);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(10, java.util.concurrent.TimeUnit.MINUTES);
        if (!wrong.isEmpty()) {
            Thread.sleep(1000);
            wrong.removeIf(id -> call.apply(id).status() == status);
        }
        return java.util.List.copyOf(wrong);
    }

    public Reply createOrder(String customerId, String total) {
        return post("api/orders", "{\"customerId\":\"" + customerId + "\",\"total\":" + total + "}");
    }

    public Reply changeStatus(String orderId, String status) {
        return post("api/orders/" + orderId + "/status", "{\"status\":\"" + status + "\"}");
    }

    public Reply getOrder(String orderId) {
        return send(HttpRequest.newBuilder(base.resolve("api/orders/" + orderId)).GET());
    }

    public Reply getProjection(String orderId) {
        return send(HttpRequest.newBuilder(base.resolve("api/projection/" + orderId)).GET());
    }

    public Reply post(String path, String json) {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Sends a request as built (the bad-input scenario builds raw ones); adds the timeout. */
    public Reply send(HttpRequest.Builder request) {
        long t0 = System.nanoTime();
        try {
            HttpResponse<String> r = http.send(request.timeout(REQUEST_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
            String body = r.body();
            if (r.statusCode() == 201 && (body == null || !ID.matcher(body).find())) {
                // no id in the body: take the Location header's last path segment
                body = r.headers().firstValue("Location")
                        .map(l -> "{\"id\":\"" + l.substring(l.lastIndexOf('/') + 1) + "\"}")
                        .orElse(body);
            }
            return new Reply(r.statusCode(), body, System.nanoTime() - t0, null);
        } catch (HttpTimeoutException e) {
            return new Reply(0, null, System.nanoTime() - t0, "timeout");
        } catch (ConnectException e) {
            return new Reply(0, null, System.nanoTime() - t0, "connect");
        } catch (IOException e) {
            return new Reply(0, null, System.nanoTime() - t0, "io: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(0, null, System.nanoTime() - t0, "interrupted");
        }
    }
}
