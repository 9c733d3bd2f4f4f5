package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.ExportedEvent;
import io.eeoutbox.OutboxService;
import io.eeoutbox.TraceContext;
import io.eeoutbox.jpa.trace.TraceCapture;
import io.eeoutbox.testing.JtaTestEnvironment;
import io.eeoutbox.testing.TestDatabase;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.util.TypeLiteral;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writer's trace context, captured by {@code OutboxService.record} and the CDI {@code ExportedEvent} path on a
 * real PostgreSQL under Narayana, with the OpenTelemetry SDK as a server would provide it: the row holds the
 * active span's W3C context in {@code tracingspancontext}, and NULL when no span is active.
 */
class TraceCaptureIT {

    private static TestDatabase.Db db;
    private static JtaTestEnvironment env;
    private static OutboxService outbox;
    private static SdkTracerProvider tracerProvider;
    private static Tracer tracer;

    @BeforeAll
    static void start() {
        db = TestDatabase.get().createDatabase("trace_capture_it", false);
        env = JtaTestEnvironment.start(db, JtaResources.class, JpaOutboxService.class, ExportedEventObserver.class);
        outbox = env.bean(OutboxService.class);
        tracerProvider = SdkTracerProvider.builder().build();
        tracer = tracerProvider.get("trace-capture-it");
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
        if (tracerProvider != null) {
            tracerProvider.close();
        }
    }

    @Test
    void theOpenTelemetryApiIsFoundOnTheTestClassPath() {
        assertThat(TraceCapture.detect().available()).isTrue();
    }

    @Test
    void anEventRecordedInASpanStoresTheSpansContext() throws Exception {
        Span request = tracer.spanBuilder("POST /orders").startSpan();
        UUID id;
        try (Scope ignored = request.makeCurrent()) {
            id = env.inTransaction(() -> outbox.record("order", "o-1", "order.created", "{}"));
        } finally {
            request.end();
        }

        TraceContext stored = TraceContext.fromStoredText(stored(id));
        assertThat(stored).isNotNull();
        assertThat(stored.traceId()).isEqualTo(request.getSpanContext().getTraceId());
        assertThat(stored.parentId()).isEqualTo(request.getSpanContext().getSpanId());
        assertThat(stored.traceparent()).isEqualTo("00-" + request.getSpanContext().getTraceId() + "-"
                + request.getSpanContext().getSpanId() + "-" + request.getSpanContext().getTraceFlags().asHex());
        assertThat(stored.sampled()).isTrue();
        assertThat(stored.tracestate()).isNull();
        assertThat(stored(id)).isEqualTo("traceparent=" + stored.traceparent() + "\n");
    }

    @Test
    void theCdiEventPathStoresTheTracestateToo() throws Exception {
        // A caller whose trace came in with a tracestate (another vendor's entry): the child span carries it on.
        SpanContext remote = SpanContext.createFromRemoteParent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                TraceFlags.getSampled(), TraceState.builder().put("rojo", "00f067aa0ba902b7").build());
        Span handler = tracer.spanBuilder("handler").setParent(Context.root().with(Span.wrap(remote))).startSpan();
        Event<ExportedEvent> events = env.container().select(new TypeLiteral<Event<ExportedEvent>>() { }).get();
        try (Scope ignored = handler.makeCurrent()) {
            env.inTransaction(() -> {
                events.fire(ExportedEvent.of("cart", "c-9", "cart.opened", "{}"));
                return null;
            });
        } finally {
            handler.end();
        }

        TraceContext stored = TraceContext.fromStoredText(stored("c-9"));
        assertThat(stored.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(stored.parentId()).isEqualTo(handler.getSpanContext().getSpanId());
        assertThat(stored.tracestate()).isEqualTo("rojo=00f067aa0ba902b7");
    }

    @Test
    void anEventRecordedWithoutASpanStoresNull() throws Exception {
        UUID id = env.inTransaction(() -> outbox.record("order", "o-2", "order.created", "{}"));
        assertThat(stored(id)).isNull();
    }

    @Test
    void anInvalidSpanStoresNull() throws Exception {
        // OpenTelemetry present but disabled gives invalid spans (Span.getInvalid()): nothing is stored.
        UUID id;
        try (Scope ignored = Span.getInvalid().makeCurrent()) {
            id = env.inTransaction(() -> outbox.record("order", "o-3", "order.created", "{}"));
        }
        assertThat(stored(id)).isNull();
    }

    private static String stored(UUID id) throws Exception {
        return stored("SELECT tracingspancontext FROM outbox_events WHERE id = ?", id);
    }

    private static String stored(String aggregateId) throws Exception {
        return stored("SELECT tracingspancontext FROM outbox_events WHERE aggregate_id = ?", aggregateId);
    }

    private static String stored(String sql, Object key) throws Exception {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("the event row").isTrue();
                return rs.getString(1);
            }
        }
    }
}
