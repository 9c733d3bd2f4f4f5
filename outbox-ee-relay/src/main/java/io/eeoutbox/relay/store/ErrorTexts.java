package io.eeoutbox.relay.store;

/** The error text stored in {@code outbox_events.last_error}: short, single-line, safe for VARCHAR(1000). */
public final class ErrorTexts {

    static final int MAX_LENGTH = 1000;
    private static final int MAX_CAUSES = 4;

    private ErrorTexts() {
    }

    /** {@code Type: message; caused by Type: message ...}, at most {@link #MAX_LENGTH} characters. */
    public static String describe(Throwable error) {
        if (error == null) {
            return "unknown error";
        }
        StringBuilder sb = new StringBuilder();
        Throwable t = error;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++) {
            if (depth > 0) {
                sb.append("; caused by ");
            }
            sb.append(t.getClass().getName());
            if (t.getMessage() != null) {
                sb.append(": ").append(t.getMessage());
            }
            Throwable next = t.getCause();
            t = next == t ? null : next;
        }
        return truncate(sb.toString());
    }

    /**
     * Collapses line breaks, drops characters PostgreSQL text cannot hold (NUL) and cuts to
     * {@link #MAX_LENGTH} characters without splitting a surrogate pair.
     */
    public static String truncate(String text) {
        StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX_LENGTH));
        for (int i = 0; i < text.length() && sb.length() < MAX_LENGTH; i++) {
            char c = text.charAt(i);
            if (c == '\0') {
                continue;
            }
            if (c == '\r' || c == '\n' || c == '\t') {
                c = ' ';
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                        && sb.length() + 2 <= MAX_LENGTH) {
                    sb.append(c).append(text.charAt(++i));
                } else if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    sb.append('?'); // a lone surrogate cannot be encoded
                } else {
                    break; // the pair does not fit
                }
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                sb.append('?');
                continue;
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
