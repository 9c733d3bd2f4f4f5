package io.eeoutbox.sample.infrastructure.messaging;

import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Continues the writer's trace in the consumer: a CONSUMER span whose parent is the message's {@code traceparent}
 * (a new trace when it has none), current while the event is applied. Only when the server gives the application
 * the OpenTelemetry API (MicroProfile Telemetry on Open Liberty, the opentelemetry subsystem on WildFly): this class
 * looks for it once and loads {@link OpenTelemetryDeliverySpans}, the only class that uses it, only then.
 */
final class ConsumerTracing {

    private static final Logger LOG = Logger.getLogger(ConsumerTracing.class.getName());
    private static final Function<Incoming, DeliverySpan> SPANS = detect();

    private ConsumerTracing() {
    }

    /** Starts the span for {@code message} and makes it current; never throws. */
    static DeliverySpan start(Incoming message) {
        try {
            return SPANS.apply(message);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "consumer span not started", e);
            return DeliverySpan.NONE;
        }
    }

    private static Function<Incoming, DeliverySpan> detect() {
        ClassLoader loader = ConsumerTracing.class.getClassLoader();
        try {
            Class.forName("io.opentelemetry.api.trace.Span", false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return message -> DeliverySpan.NONE;
        }
        try {
            @SuppressWarnings("unchecked")
            Function<Incoming, DeliverySpan> spans = (Function<Incoming, DeliverySpan>) Class.forName(
                    ConsumerTracing.class.getPackageName() + ".OpenTelemetryDeliverySpans", true, loader)
                    .getDeclaredConstructor().newInstance();
            return spans;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.log(Level.WARNING, "OpenTelemetry API visible but unusable: the consumer does not continue traces", e);
            return message -> DeliverySpan.NONE;
        }
    }
}
