package io.eeoutbox;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The W3C trace context (<a href="https://www.w3.org/TR/trace-context/">Trace Context</a>) of the code that
 * recorded an event: captured when the event is written (only when an OpenTelemetry span is active), stored
 * with the row, and sent with the message as {@value MessageHeaders#TRACEPARENT} and
 * {@value MessageHeaders#TRACESTATE}, so a consumer continues the writer's trace.
 *
 * <p>Stored in the column {@code tracingspancontext} (the name Debezium's outbox event router reads by default)
 * as Debezium writes it: {@code java.util.Properties} text with the keys {@code traceparent} and
 * {@code tracestate} ({@link #toStoredText()}, {@link #fromStoredText(String)}).
 *
 * @param traceparent {@code version-traceid-parentid-flags}, lowercase hex: version {@code 00} is exactly
 *                    {@value #TRACEPARENT_LENGTH} characters; a later version may append {@code -...} up to
 *                    {@value #MAX_TRACEPARENT_LENGTH}; the trace id and parent id are not all zeros
 * @param tracestate  vendor entries, or null: at most {@value #MAX_TRACESTATE_LENGTH} printable ASCII characters
 */
public record TraceContext(String traceparent, String tracestate) {

    /** The length of a version-00 {@code traceparent}. */
    public static final int TRACEPARENT_LENGTH = 55;
    /** The longest {@code traceparent} kept (a later version may carry more fields). */
    public static final int MAX_TRACEPARENT_LENGTH = 256;
    /** The longest {@code tracestate} kept: the length W3C asks every vendor to propagate. */
    public static final int MAX_TRACESTATE_LENGTH = 512;

    private static final Logger LOG = Logger.getLogger(TraceContext.class.getName());
    private static final String ZERO_TRACE_ID = "0".repeat(32);
    private static final String ZERO_PARENT_ID = "0".repeat(16);

    /**
     * @throws IllegalArgumentException naming {@code traceparent} or {@code tracestate} and the accepted format
     */
    public TraceContext {
        String problem = traceparentProblem(traceparent);
        if (problem != null) {
            throw new IllegalArgumentException("traceparent " + problem + ": expected version-traceid-parentid-flags,"
                    + " as in 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 (lowercase hex, "
                    + TRACEPARENT_LENGTH + " characters for version 00, at most " + MAX_TRACEPARENT_LENGTH + ")");
        }
        if (tracestate != null) {
            if (tracestate.isBlank()) {
                tracestate = null;
            } else if (tracestate.length() > MAX_TRACESTATE_LENGTH || !printableAscii(tracestate)) {
                throw new IllegalArgumentException("tracestate must be 1 to " + MAX_TRACESTATE_LENGTH
                        + " printable ASCII characters, got " + tracestate.length() + " characters");
            }
        }
    }

    /** A context with no {@code tracestate}. */
    public static TraceContext of(String traceparent) {
        return new TraceContext(traceparent, null);
    }

    /** The trace id: 32 lowercase hex characters. */
    public String traceId() {
        return traceparent.substring(3, 35);
    }

    /** The id of the span that was active when the event was written: 16 lowercase hex characters. */
    public String parentId() {
        return traceparent.substring(36, 52);
    }

    /** Whether the writer's trace was sampled (flag {@code 01}). */
    public boolean sampled() {
        return (Integer.parseInt(traceparent.substring(53, 55), 16) & 1) == 1;
    }

    /**
     * The stored form: {@code java.util.Properties} text, one {@code key=value} line for {@code traceparent} and,
     * when present, one for {@code tracestate}, as Debezium's outbox event router reads the column.
     */
    public String toStoredText() {
        StringBuilder out = new StringBuilder(MessageHeaders.TRACEPARENT).append('=').append(traceparent).append('\n');
        if (tracestate != null) {
            out.append(MessageHeaders.TRACESTATE).append('=');
            for (int i = 0; i < tracestate.length(); i++) {
                char c = tracestate.charAt(i);
                if ("\\=:#!".indexOf(c) >= 0 || (i == 0 && c == ' ')) {
                    out.append('\\');
                }
                out.append(c);
            }
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * Reads the stored form ({@link #toStoredText()}, or any {@code java.util.Properties} text with a
     * {@code traceparent} key, as Debezium writes it).
     *
     * @return the context, or null when {@code text} is null, blank or has no {@code traceparent}
     * @throws IllegalArgumentException when a value is malformed
     */
    public static TraceContext fromStoredText(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("tracingspancontext is not java.util.Properties text: " + e.getMessage(), e);
        }
        String traceparent = p.getProperty(MessageHeaders.TRACEPARENT);
        return traceparent == null ? null : new TraceContext(traceparent.trim(), p.getProperty(MessageHeaders.TRACESTATE));
    }

    /**
     * {@link #fromStoredText(String)} for a reader that must go on (the relay): a malformed value is logged and
     * read as no context, so one odd row never holds back its event.
     */
    public static TraceContext fromStoredTextOrNull(String text, Object eventId) {
        try {
            return fromStoredText(text);
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, () -> "event_id=" + eventId + ": stored trace context ignored: " + e.getMessage());
            return null;
        }
    }

    private static String traceparentProblem(String v) {
        if (v == null) {
            return "is missing";
        }
        if (v.length() < TRACEPARENT_LENGTH || v.length() > MAX_TRACEPARENT_LENGTH) {
            return "has " + v.length() + " characters";
        }
        for (int i = 0; i < TRACEPARENT_LENGTH; i++) {
            char c = v.charAt(i);
            boolean dash = i == 2 || i == 35 || i == 52;
            if (dash ? c != '-' : !lowerHex(c)) {
                return "has '" + c + "' at position " + i;
            }
        }
        String version = v.substring(0, 2);
        if (version.equals("ff")) {
            return "has the invalid version ff";
        }
        if (version.equals("00") ? v.length() != TRACEPARENT_LENGTH : v.length() > TRACEPARENT_LENGTH
                && v.charAt(TRACEPARENT_LENGTH) != '-') {
            return "has trailing characters";
        }
        if (v.substring(3, 35).equals(ZERO_TRACE_ID) || v.substring(36, 52).equals(ZERO_PARENT_ID)) {
            return "has an all-zero trace id or parent id";
        }
        return null;
    }

    private static boolean lowerHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    private static boolean printableAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
