/**
 * Captures the W3C trace context of the code that records an event, when OpenTelemetry is there: the
 * OpenTelemetry API is an optional dependency, touched only by {@link io.eeoutbox.jpa.trace.OpenTelemetryCapture},
 * which {@link io.eeoutbox.jpa.trace.TraceCapture} loads only after finding the API on the class path.
 */
package io.eeoutbox.jpa.trace;
