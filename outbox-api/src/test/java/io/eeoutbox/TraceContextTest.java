package io.eeoutbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceContextTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void readsTheIdsOfAVersion00Traceparent() {
        TraceContext t = TraceContext.of(PARENT);
        assertThat(t.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(t.parentId()).isEqualTo("00f067aa0ba902b7");
        assertThat(t.sampled()).isTrue();
        assertThat(TraceContext.of("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00").sampled()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", // too short
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // upper case
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero parent id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // invalid version
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x", // version 00 with more
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", // later version, no dash
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
    void refusesAMalformedTraceparentNamingIt(String value) {
        assertThatThrownBy(() -> TraceContext.of(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("traceparent ").hasMessageContaining("version-traceid-parentid-flags");
    }

    @Test
    void acceptsALaterVersionWithMoreFields() {
        assertThat(TraceContext.of("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-abc").traceId())
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void boundsTracestate() {
        assertThat(new TraceContext(PARENT, " ").tracestate()).isNull();
        assertThat(new TraceContext(PARENT, "a".repeat(512)).tracestate()).hasSize(512);
        assertThatThrownBy(() -> new TraceContext(PARENT, "a".repeat(513)))
                .hasMessageStartingWith("tracestate must be 1 to 512 printable ASCII characters");
        assertThatThrownBy(() -> new TraceContext(PARENT, "a=1\nb=2")).hasMessageStartingWith("tracestate");
    }

    @Test
    void theStoredTextIsPropertiesTextAsDebeziumReadsIt() throws Exception {
        TraceContext t = new TraceContext(PARENT, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE:x#!\\");
        String text = t.toStoredText();
        Properties p = new Properties();
        p.load(new StringReader(text));
        assertThat(p.getProperty("traceparent")).isEqualTo(PARENT);
        assertThat(p.getProperty("tracestate")).isEqualTo(t.tracestate());
        assertThat(TraceContext.fromStoredText(text)).isEqualTo(t);
        assertThat(TraceContext.of(PARENT).toStoredText()).isEqualTo("traceparent=" + PARENT + "\n");
    }

    @Test
    void readsWhatDebeziumWritesWithADateComment() {
        String debezium = "#Tue Dec 01 18:00:00 UTC 2026\ntracestate=a\\=1\ntraceparent=" + PARENT + "\n";
        assertThat(TraceContext.fromStoredText(debezium)).isEqualTo(new TraceContext(PARENT, "a=1"));
    }

    @Test
    void noTextOrNoTraceparentIsNoContext() {
        assertThat(TraceContext.fromStoredText(null)).isNull();
        assertThat(TraceContext.fromStoredText("  ")).isNull();
        assertThat(TraceContext.fromStoredText("uber-trace-id=abc")).isNull();
    }

    @Test
    void aMalformedStoredValueIsRefusedOrIgnoredByTheLenientReader() {
        assertThatThrownBy(() -> TraceContext.fromStoredText("traceparent=nope")).hasMessageStartingWith("traceparent");
        assertThat(TraceContext.fromStoredTextOrNull("traceparent=nope", "e1")).isNull();
    }
}
