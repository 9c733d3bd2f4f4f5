package io.eeoutbox.relay.trace;

import io.eeoutbox.spi.Publisher;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The relay's publish as a PRODUCER span per traced event, when the application has OpenTelemetry: the span's
 * parent is the context the event was written in (its {@code traceparent}), and the message carries the span's own
 * context, so the consumer's span is its child and the whole path is one trace. Events written without a trace
 * get no span and no {@code traceparent}. No hard dependency: without the OpenTelemetry API, or without an
 * {@code OpenTelemetry} CDI bean (MicroProfile Telemetry provides one), {@link #wrap} returns the publisher
 * unchanged; only {@link OpenTelemetryPublishSpans}, loaded after the API was found, uses the API.
 */
public final class PublishTracing {

    private static final Logger LOG = Logger.getLogger(PublishTracing.class.getName());
    private static final String API_CLASS = "io.opentelemetry.api.trace.Span";

    private PublishTracing() {
    }

    /** {@code publisher} with producer spans, or {@code publisher} itself without OpenTelemetry. */
    public static Publisher wrap(Publisher publisher) {
        ClassLoader loader = PublishTracing.class.getClassLoader();
        try {
            Class.forName(API_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return publisher;
        }
        try {
            @SuppressWarnings("unchecked")
            UnaryOperator<Publisher> spans = (UnaryOperator<Publisher>) Class.forName(
                    PublishTracing.class.getPackageName() + ".OpenTelemetryPublishSpans", true, loader)
                    .getDeclaredConstructor().newInstance();
            return spans.apply(publisher);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.log(Level.INFO, "ee-outbox relay: no producer spans (OpenTelemetry API visible, but no usable"
                    + " OpenTelemetry bean: " + e + "); messages still carry the writer's traceparent");
            return publisher;
        }
    }
}
