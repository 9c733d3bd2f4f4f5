package io.eeoutbox.sample.fault;

import io.eeoutbox.sample.fault.badinput.BadRequests;
import io.eeoutbox.sample.fault.badinput.BadRequests.BadRequest;
import io.eeoutbox.sample.fault.harness.FaultScenario;
import io.eeoutbox.sample.fault.harness.FaultServer;
import io.eeoutbox.sample.fault.harness.FaultSession;
import io.eeoutbox.sample.fault.harness.FaultSettings;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.fault.harness.OutboxDb;
import io.eeoutbox.sample.fault.harness.Sanity;
import io.eeoutbox.sample.fault.harness.Verdict;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scenario 6, bad input: at least 1,000 generated malformed requests ({@link BadRequests}: invalid
 * JSON and UTF-8, wrong types, missing, blank and oversized fields, huge bodies, deep nesting, SQL
 * where an id, a number or a status belongs, unknown and malformed ids, wrong media types and methods)
 * against the sample as it ships (on WildFly; Open Liberty too in a soak or with {@code -Dfault.servers}), one at a time. Each must be answered with a 4xx within the request
 * timeout, with the sample's JSON error ({@code error}, {@code message}), and with exactly the status, error and field
 * the contract names where it names them (413 for the 12 MiB body, 415 for a wrong media type, {@code customerId} for
 * an unpaired surrogate); a malformed URI, which the server refuses before the application, with any 4xx; another
 * body over the server's size limit may instead be refused by closing the connection. The server must stay healthy throughout, and no request may write a row in any table.
 */
class BadInputFaultIT extends FaultScenario {

    private static final int NUMBER = 6;
    private static final String NAME = "bad input";
    /** Bodies above this may be refused at the connection level (WildFly's max-post-size, for one). */
    private static final int HUGE = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverKinds")
    void everyMalformedRequestIsRefusedAndWritesNothing(String kind, FaultSession session) {
        judge(session, new Verdict(NUMBER, NAME), kind, v -> run(kind, session, v));
    }

    private static String run(String kind, FaultSession session, Verdict v) throws Exception {
        String url = session.database("fault_s6_" + kind);
        OutboxDb db = new OutboxDb(url);
        // the sample exactly as it ships: no hooks
        FaultServer server = session.server(kind, kind + "-s6", FaultSettings.war(), url, Map.of());
        startAndCheck(server, v, "s6-sanity");
        OrdersApi api = new OrdersApi(server.baseUri());
        String existing = api.createOrder("s6-existing", "10.00").id().orElseThrow();
        OutboxDb.await(Duration.ofMinutes(2), "the existing order to reach the consumer",
                () -> api.getProjection(existing).status(), s -> s == 200);
        OutboxDb.await(Duration.ofMinutes(2), "the outbox to be quiet", db::pending, n -> n == 0);
        long serverLogStart = Files.size(server.serverLog());

        List<BadRequest> requests = new BadRequests(session.seed(),
                new BadRequests.Contract(100, List.of("NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"), existing))
                .generate(session.size().badRequests);
        Map<String, Long> answers = new TreeMap<>();
        Map<String, Long> badByCategory = new TreeMap<>();
        Map<String, Long> notJsonByCategory = new TreeMap<>();
        List<String> examples = new ArrayList<>();
        List<String> details = new ArrayList<>();
        long wrote = 0;
        long slowest = 0;
        int unhealthy = 0;
        try (Connection c = db.connect()) {
            Map<String, Long> before = db.rowCounts(c);
            for (int i = 0; i < requests.size(); i++) {
                BadRequest r = requests.get(i);
                OrdersApi.Reply reply = api.send(request(server.baseUri(), r));
                slowest = Math.max(slowest, reply.nanos());
                String answerKind = reply.isTransportFailure() ? "no-answer:" + reply.failure() : String.valueOf(reply.status());
                answers.merge(answerKind, 1L, Long::sum);
                boolean refusedHuge = reply.isTransportFailure() && r.body() != null && r.body().length > HUGE
                        && !"timeout".equals(reply.failure()) && r.expected() == null;
                String shape = reply.status() >= 400 && reply.status() < 500 && !r.category().equals(BadRequests.MALFORMED_URI)
                        ? errorShapeProblem(reply, r.expected()) : null;
                if (shape != null) {
                    notJsonByCategory.merge(r.category(), 1L, Long::sum);
                }
                boolean ok = (reply.status() >= 400 && reply.status() < 500 && shape == null) || refusedHuge;
                Map<String, Long> after = db.rowCounts(c);
                boolean changed = !after.equals(before);
                if (changed) {
                    wrote++;
                }
                if (!ok || changed) {
                    badByCategory.merge(r.category(), 1L, Long::sum);
                    String line = (changed ? "WROTE " + diff(before, after) + " " : "") + reply.status()
                            + (reply.failure() == null ? "" : " " + reply.failure()) + (shape == null ? "" : " (" + shape + ")")
                            + " for " + abbreviate(r.toString());
                    details.add(line);
                    if (examples.size() < 6) {
                        examples.add(line);
                    }
                }
                if (changed || reply.status() < 400) {
                    // what an accepted request set going (the relay, the consumer) must settle before the
                    // next request is judged, or its rows would be blamed on that one
                    before = settle(db, c);
                }
                if (i % 100 == 99 && api.getOrder(existing).status() != 200) {
                    unhealthy++;
                }
            }
        }
        long errorsLogged = errorLines(server, serverLogStart);
        Files.write(session.dir().resolve("s6-not-refused.txt"), details, StandardCharsets.UTF_8);
        Duration after = Sanity.orderFlows(server, "s6-after");
        long fourxx = answers.entrySet().stream().filter(e -> e.getKey().startsWith("4")).mapToLong(Map.Entry::getValue).sum();
        long refusedHuge = answers.entrySet().stream().filter(e -> e.getKey().startsWith("no-answer:"))
                .mapToLong(Map.Entry::getValue).sum();
        long bad = badByCategory.values().stream().mapToLong(Long::longValue).sum();
        v.figures().put("tried", requests.size()).put("answered_4xx", fourxx).put("answers", answers)
                .put("wrote_anything", wrote).put("not_refused", bad).put("not_refused_by_category", badByCategory)
                .put("4xx_without_the_json_error_by_category", notJsonByCategory)
                .put("slowest", Duration.ofNanos(slowest)).put("health_checks_failed", unhealthy)
                .put("server_log_errors", errorsLogged).put("order_after_end_to_end", after);
        v.check(requests.size() >= 1000, "only " + requests.size() + " requests generated")
                .expect("requests that wrote a row", 0, wrote)
                .expect("requests not refused with a 4xx and the JSON error (" + String.join(" | ", examples) + ")", 0, bad)
                .expect("failed health checks between the requests", 0, unhealthy)
                .check(server.isAlive(), "the server died");
        v.figures().put("refused_by_closing_connection", refusedHuge);
        v.noHeuristics(server);
        return server.product();
    }

    /**
     * What is wrong with a 4xx answer's body: not the sample's JSON error ({@code error} and {@code message}), or not
     * the status, error and field {@code expected} names; null when it is right.
     */
    static String errorShapeProblem(OrdersApi.Reply reply, BadRequests.Expected expected) {
        JsonObject error;
        try {
            error = Json.createReader(new StringReader(reply.body() == null ? "" : reply.body())).readObject();
        } catch (RuntimeException e) {
            return "not the JSON error: " + abbreviate(String.valueOf(reply.body()));
        }
        if (!(error.get("error") instanceof JsonString) || !(error.get("message") instanceof JsonString)) {
            return "no error or message in " + abbreviate(reply.body());
        }
        if (expected == null) {
            return null;
        }
        String field = error.get("field") instanceof JsonString f ? f.getString() : null;
        if (reply.status() != expected.status() || !expected.error().equals(error.getString("error"))
                || !java.util.Objects.equals(expected.field(), field)) {
            return "expected " + expected.status() + " " + expected.error() + " naming " + expected.field();
        }
        return null;
    }

    /** Waits until the row counts have not changed for a second (at most 30 s); returns them. */
    private static Map<String, Long> settle(OutboxDb db, Connection c) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<String, Long> last = db.rowCounts(c);
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(100);
            Map<String, Long> now = db.rowCounts(c);
            if (!now.equals(last)) {
                last = now;
                stableSince = System.nanoTime();
            } else if (System.nanoTime() - stableSince > Duration.ofSeconds(1).toNanos() && db.pending() == 0) {
                break;
            }
        }
        return last;
    }

    /** "orders+1 outbox_events+1". */
    private static String diff(Map<String, Long> before, Map<String, Long> after) {
        StringBuilder b = new StringBuilder();
        after.forEach((table, n) -> {
            long d = n - before.getOrDefault(table, 0L);
            if (d != 0) {
                b.append(b.length() == 0 ? "" : " ").append(table).append(d > 0 ? "+" : "").append(d);
            }
        });
        return b.toString();
    }

    private static HttpRequest.Builder request(URI base, BadRequest r) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + r.path()));
        if (r.contentType() != null) {
            b.header("Content-Type", r.contentType());
        }
        HttpRequest.BodyPublisher body = r.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(r.body());
        return b.method(r.method(), body);
    }

    private static long errorLines(FaultServer server, long from) {
        try {
            byte[] all = Files.readAllBytes(server.serverLog());
            String log = new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from),
                    StandardCharsets.ISO_8859_1);
            return log.lines().filter(l -> l.contains(" ERROR ")).count();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }
}
