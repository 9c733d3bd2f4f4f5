package io.eeoutbox.sample.infrastructure.messaging;

import io.eeoutbox.MessageHeaders;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.enterprise.inject.spi.CDI;
import java.util.List;
import java.util.function.Function;

/**
 * The consumer's spans with the OpenTelemetry API; loaded by {@link ConsumerTracing} only when the API is there.
 * The tracer comes from the application's {@code OpenTelemetry} bean (MicroProfile Telemetry provides it on both
 * servers); the parent from the message's W3C properties, which ee-outbox names in {@link MessageHeaders}.
 */
final class OpenTelemetryDeliverySpans implements Function<Incoming, DeliverySpan> {

    /** The W3C propagator asks for {@code traceparent} and {@code tracestate} by name. */
    private static final TextMapGetter<Incoming> PROPERTIES = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Incoming message) {
            return List.of(MessageHeaders.TRACEPARENT, MessageHeaders.TRACESTATE);
        }

        @Override
        public String get(Incoming message, String key) {
            return message == null ? null : message.property().apply(key);
        }
    };

    /** Looked up on first use (the MDB's first message), once per deployment. */
    private volatile OpenTelemetry openTelemetry;

    @Override
    public DeliverySpan apply(Incoming message) {
        OpenTelemetry openTelemetry = this.openTelemetry;
        if (openTelemetry == null) {
            openTelemetry = CDI.current().select(OpenTelemetry.class).get();
            this.openTelemetry = openTelemetry;
        }
        Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), message, PROPERTIES);
        Span span = openTelemetry.getTracer("io.eeoutbox.sample").spanBuilder(message.destination() + " process")
                .setSpanKind(SpanKind.CONSUMER)
                .setParent(parent)
                .setAttribute("messaging.system", message.system())
                .setAttribute("messaging.operation.type", "process")
                .setAttribute("messaging.destination.name", message.destination())
                .setAttribute("messaging.message.id", String.valueOf(PROPERTIES.get(message, MessageHeaders.EVENT_ID)))
                .startSpan();
        Scope scope = span.makeCurrent();
        String traceId = span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : null;
        return new DeliverySpan() {
            @Override
            public String traceId() {
                return traceId;
            }

            @Override
            public void failed(Throwable failure) {
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR);
            }

            @Override
            public void close() {
                scope.close();
                span.end();
            }
        };
    }
}
