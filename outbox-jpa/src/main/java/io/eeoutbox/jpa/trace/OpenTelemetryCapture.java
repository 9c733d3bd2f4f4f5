package io.eeoutbox.jpa.trace;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.TraceContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The only class of outbox-jpa that uses the OpenTelemetry API; loaded by {@link TraceCapture} only when the API
 * is there. Writes the current context with the W3C propagator (so the text is exactly what an HTTP client would
 * send), whatever propagators the application configured.
 */
final class OpenTelemetryCapture implements Supplier<TraceContext>, TraceCapture.OpenTelemetryMarker {

    private static final Logger LOG = Logger.getLogger(OpenTelemetryCapture.class.getName());

    @Override
    public TraceContext get() {
        Context context = Context.current();
        if (!Span.fromContext(context).getSpanContext().isValid()) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(context, carrier, (c, key, value) -> c.put(key, value));
        String traceparent = carrier.get(MessageHeaders.TRACEPARENT);
        if (traceparent == null) {
            return null;
        }
        String tracestate = carrier.get(MessageHeaders.TRACESTATE);
        if (tracestate != null && tracestate.length() > TraceContext.MAX_TRACESTATE_LENGTH) {
            // W3C lets a hop drop tracestate entries it cannot carry; the traceparent is what joins the trace.
            LOG.fine(() -> "ee-outbox: tracestate of " + tracestate.length() + " characters not stored (limit "
                    + TraceContext.MAX_TRACESTATE_LENGTH + ")");
            return TraceContext.of(traceparent);
        }
        return new TraceContext(traceparent, tracestate);
    }
}
