package io.eeoutbox.relay.trace;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.TraceContext;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.enterprise.inject.spi.CDI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Loaded by {@link PublishTracing} only when the OpenTelemetry API is there: finds the application's
 * {@code OpenTelemetry} bean and wraps the publisher in {@link Traced}.
 */
final class OpenTelemetryPublishSpans implements UnaryOperator<Publisher> {

    @Override
    public Publisher apply(Publisher publisher) {
        OpenTelemetry openTelemetry = CDI.current().select(OpenTelemetry.class).get();
        return new Traced(publisher, openTelemetry.getTracer("io.eeoutbox.relay"));
    }

    /** Reads a stored {@link TraceContext} as the W3C propagator's carrier. */
    private static final TextMapGetter<TraceContext> STORED = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext carrier) {
            return List.of(MessageHeaders.TRACEPARENT, MessageHeaders.TRACESTATE);
        }

        @Override
        public String get(TraceContext carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return MessageHeaders.TRACEPARENT.equals(key) ? carrier.traceparent()
                    : MessageHeaders.TRACESTATE.equals(key) ? carrier.tracestate() : null;
        }
    };

    /** The publisher with one PRODUCER span per traced message, ended when the broker answered. */
    static final class Traced implements Publisher {
        private final Publisher delegate;
        private final Tracer tracer;

        Traced(Publisher delegate, Tracer tracer) {
            this.delegate = delegate;
            this.tracer = tracer;
        }

        @Override
        public void publish(OutboxMessage message) throws Exception {
            Span span = start(message);
            try {
                delegate.publish(span == null ? message : carrying(message, span));
            } catch (Exception | Error e) {
                fail(span, e);
                throw e;
            } finally {
                if (span != null) {
                    span.end();
                }
            }
        }

        @Override
        public PublishResult publishAll(List<OutboxMessage> batch) {
            Map<UUID, Span> spans = new LinkedHashMap<>();
            List<OutboxMessage> sent = new ArrayList<>(batch.size());
            for (OutboxMessage m : batch) {
                Span span = start(m);
                if (span == null) {
                    sent.add(m);
                } else {
                    spans.put(m.id(), span);
                    sent.add(carrying(m, span));
                }
            }
            try {
                PublishResult result = delegate.publishAll(sent);
                spans.forEach((id, span) -> {
                    if (result.isFailed(id)) {
                        fail(span, result.failures().get(id));
                    }
                });
                return result;
            } catch (RuntimeException | Error e) {
                spans.values().forEach(span -> fail(span, e));
                throw e;
            } finally {
                spans.values().forEach(Span::end);
            }
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        /** The event's own destination when the publisher routes per event (docs/jms.md), else its description. */
        private String destination(OutboxMessage m) {
            String d = delegate.destinationOf(m);
            return d != null ? d : delegate.describe();
        }

        /** A PRODUCER span whose parent is the writer's context; null for an event written without one. */
        private Span start(OutboxMessage m) {
            if (m.trace() == null) {
                return null;
            }
            Context writer = W3CTraceContextPropagator.getInstance().extract(Context.root(), m.trace(), STORED);
            return tracer.spanBuilder("ee-outbox publish")
                    .setSpanKind(SpanKind.PRODUCER)
                    .setParent(writer)
                    .setAttribute("messaging.operation.type", "send")
                    .setAttribute("messaging.destination.name", destination(m))
                    .setAttribute("messaging.message.id", m.id().toString())
                    .setAttribute("outbox.event_type", m.eventType())
                    .setAttribute("outbox.attempt", (long) m.attempt())
                    .startSpan();
        }

        /** {@code m} carrying the producer span's context instead of the writer's (the span's parent). */
        private static OutboxMessage carrying(OutboxMessage m, Span span) {
            Map<String, String> carrier = new HashMap<>(4);
            W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), carrier,
                    (c, key, value) -> c.put(key, value));
            String traceparent = carrier.get(MessageHeaders.TRACEPARENT);
            if (traceparent == null) {
                return m;
            }
            TraceContext own = new TraceContext(traceparent, m.trace().tracestate());
            return new OutboxMessage(m.id(), m.seq(), m.eventType(), m.payload(), m.aggregate(),
                    new OutboxMessage.Delivery(m.createdAt(), m.attempt(), own));
        }

        private static void fail(Span span, Throwable failure) {
            if (span != null && failure != null) {
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
            }
        }
    }
}
