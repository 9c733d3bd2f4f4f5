package io.eeoutbox.codegen;

import java.util.ArrayList;
import java.util.List;

/** Java source text: string literals and javadoc, escaped so that any SQL or comment text is safe. */
final class JavaText {

    /** Longest piece of a long string literal on one line. */
    private static final int PIECE = 90;

    private JavaText() {
    }

    /** A Java string literal; non-ASCII characters are written as unicode escapes. */
    static String literal(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /**
     * A long string as a concatenation of literals, broken after spaces, each piece on its own line
     * indented by {@code indent}.
     */
    static String longLiteral(String s, String indent) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        while (s.length() - start > PIECE) {
            int cut = s.lastIndexOf(' ', start + PIECE);
            if (cut <= start) {
                cut = s.indexOf(' ', start + PIECE);
            }
            if (cut < 0) {
                break;
            }
            pieces.add(s.substring(start, cut + 1));
            start = cut + 1;
        }
        pieces.add(s.substring(start));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pieces.size(); i++) {
            if (i > 0) {
                out.append(" +\n").append(indent);
            }
            out.append(literal(pieces.get(i)));
        }
        return out.toString();
    }

    /** Text for a javadoc comment: HTML and javadoc syntax escaped, `code` spans as code. */
    static String doc(String s) {
        StringBuilder out = new StringBuilder();
        boolean code = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '`' -> {
                    out.append(code ? "</code>" : "<code>");
                    code = !code;
                }
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '@' -> out.append("&#64;");
                case '\\' -> out.append("&#92;");
                case '{' -> out.append("&#123;");
                case '}' -> out.append("&#125;");
                case '/' -> out.append(i > 0 && s.charAt(i - 1) == '*' ? "&#47;" : "/");
                default -> out.append(c);
            }
        }
        if (code) {
            out.append("</code>");
        }
        return out.toString();
    }
}
