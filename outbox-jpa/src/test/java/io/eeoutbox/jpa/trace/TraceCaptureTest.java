package io.eeoutbox.jpa.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

class TraceCaptureTest {

    @Test
    void withoutTheOpenTelemetryApiNothingIsCaptured() {
        // A class loader that sees only the JDK: as an application on a server without OpenTelemetry.
        TraceCapture capture = TraceCapture.detect(new ClassLoader(null) { });
        assertThat(capture.available()).isFalse();
        try (Scope ignored = Span.wrap(SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                TraceFlags.getSampled(), TraceState.getDefault())).makeCurrent()) {
            assertThat(capture.current()).isNull();
        }
    }

    @Test
    void withTheApiTheActiveSpanIsCapturedAndNoSpanIsNull() {
        TraceCapture capture = TraceCapture.detect();
        assertThat(capture.available()).isTrue();
        assertThat(capture.current()).isNull();
        try (Scope ignored = Span.wrap(SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                TraceFlags.getSampled(), TraceState.getDefault())).makeCurrent()) {
            assertThat(capture.current().traceparent())
                    .isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        }
    }

    @Test
    void anOverlongTracestateIsDroppedAndTheTraceparentKept() {
        TraceState state = TraceState.builder().put("a", "x".repeat(250)).put("b", "y".repeat(250))
                .put("c", "z".repeat(250)).build();
        try (Scope ignored = Span.wrap(SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                TraceFlags.getSampled(), state)).makeCurrent()) {
            assertThat(TraceCapture.detect().current().tracestate()).isNull();
        }
    }
}
