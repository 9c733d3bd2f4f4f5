package io.eeoutbox.jpa.trace;

import io.eeoutbox.TraceContext;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The W3C trace context active on the calling thread, for the event being recorded: null when the OpenTelemetry
 * API is not on the class path (nothing else changes then), when no span is active, or when the span context is
 * not valid (OpenTelemetry present but disabled, as on Open Liberty without {@code otel.sdk.disabled=false}).
 *
 * <p>No hard dependency: this class looks for {@code io.opentelemetry.api.trace.Span} with its own class loader
 * (in a WAR: what the server makes visible to the application) once, and only then loads
 * {@link OpenTelemetryCapture}, the one class that uses the API.
 */
public final class TraceCapture {

    static final String API_CLASS = "io.opentelemetry.api.trace.Span";
    private static final String CAPTURE_CLASS = "io.eeoutbox.jpa.trace.OpenTelemetryCapture";
    private static final Logger LOG = Logger.getLogger(TraceCapture.class.getName());

    private final Supplier<TraceContext> source;

    private TraceCapture(Supplier<TraceContext> source) {
        this.source = source;
    }

    /** Looks for the OpenTelemetry API with this class's class loader; without it, captures nothing. */
    public static TraceCapture detect() {
        return detect(TraceCapture.class.getClassLoader());
    }

    static TraceCapture detect(ClassLoader loader) {
        try {
            Class.forName(API_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.fine("ee-outbox: no OpenTelemetry API visible; events are recorded without a trace context");
            return new TraceCapture(() -> null);
        }
        try {
            @SuppressWarnings("unchecked")
            Supplier<TraceContext> capture = (Supplier<TraceContext>) Class.forName(CAPTURE_CLASS, true, loader)
                    .getDeclaredConstructor().newInstance();
            LOG.fine("ee-outbox: OpenTelemetry API found; events record the active W3C trace context");
            return new TraceCapture(capture);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.log(Level.WARNING, "ee-outbox: the OpenTelemetry API is visible but unusable; events are recorded"
                    + " without a trace context", e);
            return new TraceCapture(() -> null);
        }
    }

    /** The active context, or null; never throws (a broken tracer never fails a business write). */
    public TraceContext current() {
        try {
            return source.get();
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "ee-outbox: reading the active trace context failed; the event is recorded without one", e);
            return null;
        }
    }

    /** Whether an OpenTelemetry API was found (for logs and tests). */
    public boolean available() {
        return source instanceof OpenTelemetryMarker;
    }

    /** Implemented by {@link OpenTelemetryCapture}, so {@link #available()} needs no OpenTelemetry type. */
    interface OpenTelemetryMarker {
    }
}
