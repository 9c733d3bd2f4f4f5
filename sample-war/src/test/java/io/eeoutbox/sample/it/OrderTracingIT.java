package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.TraceContext;
import java.net.URL;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One trace from the HTTP request to the consumer, on each server with its OpenTelemetry (MicroProfile Telemetry):
 * the test calls {@code POST /api/orders} as a traced client would, with a {@code traceparent} of its own; the
 * server's REST span continues that trace while the order's event is recorded; the relay publishes it in a PRODUCER
 * span, a child of that context, and sends the producer span's context with the message; and the consumer's span
 * (the message-driven bean) carries the same trace id. An event written
 * outside any trace reaches the consumer without a {@code traceparent}. Read from the database the server shares
 * with the test JVM: what the event row stored, what the consumer received and which trace its span was in.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class OrderTracingIT {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.orders(Deployments.NAME);
    }

    @ArquillianResource
    private URL base;

    @Test
    void theConsumersSpanCarriesTheTraceIdOfTheRequestThatCreatedTheOrder() throws Exception {
        String traceId = hex(16);
        String callerSpanId = hex(8);
        HttpResponse<String> created = new Http(base).post("api/orders", "{\"customerId\":\"traced\",\"total\":3.50}",
                "traceparent", "00-" + traceId + "-" + callerSpanId + "-01");
        assertEquals(201, created.statusCode(), created.body());
        String orderId = Http.id(created);

        TraceContext stored = TraceContext.fromStoredText(string(
                "SELECT tracingspancontext FROM outbox_events WHERE aggregate_id = ?", orderId));
        assertNotNull(stored, "the event row stores the request's trace context");
        assertEquals(traceId, stored.traceId(), "the event was recorded in the request's trace");
        assertNotEquals(callerSpanId, stored.parentId(),
                "its parent is the server's own span for the request, a child of the caller's");

        ConsumedTrace consumed = consumed(orderId);
        TraceContext received = TraceContext.of(consumed.receivedTraceparent());
        assertEquals(traceId, received.traceId(), "the message carries the request's trace");
        assertNotEquals(stored.parentId(), received.parentId(),
                "its parent is the relay's producer span, a child of the recording span");
        assertEquals(traceId, consumed.consumerTraceId(), "the consumer's span is in the request's trace");
    }

    @Test
    void anEventWrittenOutsideATraceReachesTheConsumerWithoutATraceparent() throws Exception {
        // A writer with no span (a batch job, psql): its row has no trace context.
        UUID orderId = UUID.randomUUID();
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO outbox_events"
                + " (aggregate_type, aggregate_id, event_type, payload) VALUES ('order', ?, 'order.created', ?::jsonb)")) {
            ps.setString(1, orderId.toString());
            ps.setString(2, "{\"orderId\":\"" + orderId + "\",\"customerId\":\"untraced\",\"total\":1.00,"
                    + "\"status\":\"NEW\",\"revision\":1}");
            ps.executeUpdate();
        }
        assertNull(string("SELECT tracingspancontext FROM outbox_events WHERE aggregate_id = ?", orderId.toString()));

        ConsumedTrace consumed = consumed(orderId.toString());
        assertNull(consumed.receivedTraceparent(), "no traceparent on the message");
        assertNotNull(consumed.consumerTraceId(), "the consumer's span starts a trace of its own");
        assertTrue(consumed.consumerTraceId().matches("[0-9a-f]{32}"), consumed.consumerTraceId());
    }

    /** What the consumer recorded for the order's first event, once it applied it. */
    private static ConsumedTrace consumed(String orderId) throws Exception {
        return Await.until(Duration.ofSeconds(60), () -> {
            try (Connection c = connect()) {
                return ConsumedTrace.read(c, orderId);
            }
        }, r -> r != null, "the consumer to apply order " + orderId);
    }

    private static String string(String sql, String key) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "a row for " + key);
                return rs.getString(1);
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("outbox.db.url"), System.getProperty("outbox.db.user"),
                System.getProperty("outbox.db.password"));
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        b[0] |= 1; // never all zeros
        return HexFormat.of().formatHex(b);
    }
}
