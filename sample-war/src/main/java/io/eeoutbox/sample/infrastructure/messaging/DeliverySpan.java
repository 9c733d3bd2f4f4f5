package io.eeoutbox.sample.infrastructure.messaging;

/**
 * The consumer's span around one delivery, when OpenTelemetry is there; {@link #NONE} otherwise. Closing it ends
 * the span. No OpenTelemetry type appears here, so the consumer runs unchanged on a server without it.
 */
public interface DeliverySpan extends AutoCloseable {

    /** No tracing: no span, no trace id. */
    DeliverySpan NONE = new DeliverySpan() {
        @Override
        public String traceId() {
            return null;
        }

        @Override
        public void failed(Throwable failure) {
            // nothing to mark
        }

        @Override
        public void close() {
            // nothing to end
        }
    };

    /** The span's trace id (32 hex characters), or null when there is no valid span. */
    String traceId();

    /** Marks the span as failed (the delivery is rolled back and redelivered). */
    void failed(Throwable failure);

    @Override
    void close();
}
