package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxService;
import io.eeoutbox.jpa.JpaOutboxService;
import io.eeoutbox.jpa.JtaResources;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.testing.JtaTestEnvironment;
import io.eeoutbox.testing.TestDatabase;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * From the writer's span to the message: events recorded through {@code OutboxService} (JPA under Narayana, a real
 * PostgreSQL) inside and outside an OpenTelemetry span, published by the relay to a real Artemis broker; the
 * consumer reads {@code traceparent}/{@code tracestate} on the traced message and neither on the other.
 */
class TracePropagationIT {

    private TestDatabase.Db db;
    private JtaTestEnvironment env;
    private EmbeddedBroker broker;
    private JmsPublisher publisher;
    private ScheduledExecutorService executor;
    private OutboxRelay relay;
    private SdkTracerProvider tracing;

    @BeforeEach
    void setUp() throws Exception {
        db = TestDatabase.get().createDatabase("trace_propagation_it", false);
        env = JtaTestEnvironment.start(db, JtaResources.class, JpaOutboxService.class);
        broker = new EmbeddedBroker();
        publisher = JmsPublisher.standalone(broker.connectionFactory(), broker.queue());
        executor = Executors.newScheduledThreadPool(2);
        tracing = SdkTracerProvider.builder().build();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        executor.shutdownNow();
        publisher.close();
        broker.close();
        env.close();
        tracing.close();
    }

    @Test
    void theTracedEventCarriesItsWritersContextAndTheOtherNone() throws Exception {
        OutboxService outbox = env.bean(OutboxService.class);
        // The request came in with a trace of its own and a vendor's tracestate; the server's span continues it.
        SpanContext caller = SpanContext.createFromRemoteParent("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
                TraceFlags.getSampled(), TraceState.builder().put("congo", "t61rcWkgMzE").build());
        Span request = tracing.get("test").spanBuilder("POST /orders")
                .setParent(Context.root().with(Span.wrap(caller))).startSpan();
        UUID traced;
        try (Scope ignored = request.makeCurrent()) {
            traced = env.inTransaction(() -> outbox.record("order", "o-1", "order.created", "{\"n\":1}"));
        } finally {
            request.end();
        }
        UUID untraced = env.inTransaction(() -> outbox.record("order", "o-2", "order.created", "{\"n\":2}"));

        relay = OutboxRelay.builder().config(RelayIt.config("trace").build()).dataSource(db.dataSource())
                .executor(executor).publisher(publisher).build();
        relay.start();
        RelayIt.await(Duration.ofSeconds(30), "both events published", () -> RelayIt.pending(db) == 0);

        Map<String, Message> byId = broker.receive(2, 500).stream()
                .collect(Collectors.toMap(m -> property(m, MessageHeaders.EVENT_ID), Function.identity()));
        assertThat(byId).containsOnlyKeys(traced.toString(), untraced.toString());

        Message withTrace = byId.get(traced.toString());
        assertThat(property(withTrace, MessageHeaders.TRACEPARENT)).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-"
                + request.getSpanContext().getSpanId() + "-" + request.getSpanContext().getTraceFlags().asHex());
        assertThat(property(withTrace, MessageHeaders.TRACESTATE)).isEqualTo("congo=t61rcWkgMzE");

        Message without = byId.get(untraced.toString());
        assertThat(names(without)).doesNotContain(MessageHeaders.TRACEPARENT, MessageHeaders.TRACESTATE)
                .contains(MessageHeaders.EVENT_ID);
    }

    private static String property(Message m, String name) {
        try {
            return m.getStringProperty(name);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> names(Message m) {
        try {
            return java.util.Collections.list(m.getPropertyNames()).stream().map(String::valueOf).toList();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
