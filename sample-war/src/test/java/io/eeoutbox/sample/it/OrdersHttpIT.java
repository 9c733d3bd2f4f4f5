package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The REST contract over HTTP only, as a client sees it; the database is read from the test JVM
 * (TestDatabaseSession shares it with the server) to check that a refused request wrote nothing.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class OrdersHttpIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME);
    }

    @ArquillianResource
    private URL base;

    @Test
    void createdOrderAnswers201WithItsIdAndCanBeReadBack() throws Exception {
        Http http = new Http(base);
        String customer = "http-" + UUID.randomUUID();
        HttpResponse<String> created = http.post("api/orders", "{\"customerId\":\"" + customer + "\",\"total\":12.50}");

        assertEquals(201, created.statusCode(), created.body());
        String id = Http.id(created);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertTrue(location.endsWith("/api/orders/" + id), location);
        JsonObject order = json(created);
        assertEquals(customer, order.getString("customerId"));
        assertEquals("12.50", order.getJsonNumber("total").bigDecimalValue().toPlainString());
        assertEquals("NEW", order.getString("status"));

        HttpResponse<String> read = http.get("api/orders/" + id);
        assertEquals(200, read.statusCode(), read.body());
        assertEquals(customer, json(read).getString("customerId"));
        assertEquals(1, json(read).getInt("revision"));
    }

    @Test
    void statusChangeAnswersTheChangedOrder() throws Exception {
        Http http = new Http(base);
        String id = Http.id(http.post("api/orders", "{\"customerId\":\"status-change\",\"total\":5}"));

        HttpResponse<String> paid = http.post("api/orders/" + id + "/status", "{\"status\":\"PAID\"}");
        assertEquals(200, paid.statusCode(), paid.body());
        assertEquals("PAID", json(paid).getString("status"));
        assertEquals(2, json(paid).getInt("revision"));
        assertEquals("PAID", json(http.get("api/orders/" + id)).getString("status"));
    }

    @Test
    void theConsumersProjectionShowsTheOrder() throws Exception {
        Http http = new Http(base);
        String id = Http.id(http.post("api/orders", "{\"customerId\":\"projected\",\"total\":0.99}"));

        HttpResponse<String> projection = Await.until(Duration.ofSeconds(60), () -> http.get("api/projection/" + id),
                r -> r.statusCode() == 200, "the projection of order " + id);
        JsonObject view = json(projection);
        assertEquals(id, view.getString("orderId"));
        assertEquals("projected", view.getString("customerId"));
        assertEquals(1, view.getInt("eventsApplied"));
        assertEquals("order.created", view.getJsonArray("events").getJsonObject(0).getString("eventType"));
    }

    @Test
    void unknownOrdersAreNotFound() throws Exception {
        Http http = new Http(base);
        String unknown = UUID.randomUUID().toString();
        assertError(http.get("api/orders/" + unknown), 404, "not_found", null);
        assertError(http.get("api/orders/not-a-uuid"), 404, "not_found", null);
        assertError(http.post("api/orders/" + unknown + "/status", "{\"status\":\"PAID\"}"), 404, "not_found", null);
        assertError(http.get("api/projection/" + unknown), 404, "not_found", null);
    }

    @ParameterizedTest(name = "{0} -> 400 naming {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{\"total\":12.50}                                | customerId",
        "{\"customerId\":\"   \",\"total\":12.50}         | customerId",
        "{\"customerId\":42,\"total\":12.50}              | customerId",
        "{\"customerId\":\"\\ud800\",\"total\":12.50}     | customerId",
        "{\"customerId\":\"c-\\udc00\",\"total\":12.50}   | customerId",
        "{\"customerId\":\"c-1\"}                         | total",
        "{\"customerId\":\"c-1\",\"total\":-0.01}         | total",
        "{\"customerId\":\"c-1\",\"total\":\"abc\"}       | total",
        "{\"customerId\":\"c-1\",\"total\":\"12.50\"}     | total",
        "{\"customerId\":\"c-1\",\"total\":12.505}        | total",
        "{\"customerId\":\"c-1\",\"total\":1e12}          | total",
        "{\"customerId\":\"c-1\",\"total\":12.50          | body",
        "`[\"c-1\", 12.50]`                               | body",
        "not json                                         | body",
    })
    void invalidOrdersAreRefusedAndWriteNothing(String body, String field) throws Exception {
        long orders = count("SELECT count(*) FROM orders");
        long events = count("SELECT count(*) FROM outbox_events");

        assertError(new Http(base).post("api/orders", body), 400, "invalid_request", field);

        assertEquals(orders, count("SELECT count(*) FROM orders"), "no order written");
        assertEquals(events, count("SELECT count(*) FROM outbox_events"), "no event written");
    }

    @Test
    void aBodyOverTheLimitIs413WithTheJsonErrorAndWritesNothing() throws Exception {
        long orders = count("SELECT count(*) FROM orders");
        String twelveMiB = "{\"customerId\":\"c-1\",\"total\":1,\"note\":\"" + "n".repeat(12 * 1024 * 1024) + "\"}";

        assertError(new Http(base).post("api/orders", twelveMiB), 413, "too_large", "body");
        // the same without a declared length (chunked): cut at the limit while it is read
        assertError(new Http(base).postChunked("api/orders", twelveMiB), 413, "too_large", "body");

        assertEquals(orders, count("SELECT count(*) FROM orders"), "no order written");
    }

    @Test
    void whatTheResourcesDoNotTakeGetsTheJsonError() throws Exception {
        Http http = new Http(base);
        String valid = "{\"customerId\":\"c-1\",\"total\":1}";
        long orders = count("SELECT count(*) FROM orders");

        for (String type : new String[] {"text/plain", "application/xml", "application/x-www-form-urlencoded"}) {
            assertError(http.postAs(type, "api/orders", valid), 415, "unsupported_media_type", null);
        }
        HttpResponse<String> put = http.send("PUT", "api/orders", valid);
        assertError(put, 405, "method_not_allowed", null);
        assertTrue(put.headers().firstValue("Allow").orElse("").contains("POST"), put.headers().toString());
        assertError(http.get("api/no-such-resource"), 404, "not_found", null);

        assertEquals(orders, count("SELECT count(*) FROM orders"), "no order written");
    }

    @Test
    void invalidStatusChangesAreRefusedAndWriteNothing() throws Exception {
        Http http = new Http(base);
        String id = Http.id(http.post("api/orders", "{\"customerId\":\"bad-status\",\"total\":1}"));
        long events = count("SELECT count(*) FROM outbox_events");

        assertError(http.post("api/orders/" + id + "/status", "{\"status\":\"FLYING\"}"), 400, "invalid_request", "status");
        assertError(http.post("api/orders/" + id + "/status", "{}"), 400, "invalid_request", "status");
        assertError(http.post("api/orders/" + id + "/status", "{\"status\":"), 400, "invalid_request", "body");
        assertError(http.post("api/orders/" + id + "/status", "{\"status\":\"DELIVERED\"}"), 409, "conflict", "status");

        assertEquals(events, count("SELECT count(*) FROM outbox_events"), "no event written");
        assertEquals("NEW", json(http.get("api/orders/" + id)).getString("status"));
    }

    private static void assertError(HttpResponse<String> response, int status, String error, String field) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                response.headers().toString());
        JsonObject body = json(response);
        assertEquals(error, body.getString("error"), response.body());
        if (field != null) {
            assertEquals(field, body.getString("field"), response.body());
        }
        assertTrue(body.getString("message").length() > 0, response.body());
    }

    @Test
    void theSamplesOperatorConsoleIsOnForItsRolesOnly() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.URI session = java.net.URI.create(base.toString().replaceFirst("/?$", "") + "/outbox-admin/api/session");
        // user:password, as the server's sample.console.users knows them (Jakarta Security, the sample's identity store)
        String[] credentials = {null, "outbox-viewer:outbox-admin-1", "nobody:nobody-1", "outbox-norole:outbox-norole-1",
            "outbox-viewer:outbox-viewer-1"};
        StringBuilder statuses = new StringBuilder();
        String viewerBody = null;
        for (String credential : credentials) {
            java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(session);
            if (credential != null) {
                b.header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                        credential.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            statuses.append(statuses.length() == 0 ? "" : " ").append(r.statusCode());
            if (r.statusCode() == 401) {
                assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"), r.headers().toString());
            }
            viewerBody = r.body();
        }
        assertEquals("401 401 401 403 200", statuses.toString(), "anonymous, a wrong password, an unknown user, no role, viewer");
        assertEquals("outbox-viewer", Json.createReader(new StringReader(viewerBody)).readObject().getString("role"));
    }

    private static JsonObject json(HttpResponse<String> response) {
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(System.getProperty("outbox.db.url"),
                System.getProperty("outbox.db.user"), System.getProperty("outbox.db.password"));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
