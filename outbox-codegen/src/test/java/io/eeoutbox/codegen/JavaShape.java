package io.eeoutbox.codegen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of a Java source file that {@link SourceShapeTest} checks: its line count (as {@code wc -l}
 * counts: newline characters) and its constructors with their parameter counts, a record's canonical
 * constructor counted by its components. A small scanner, not a parser: comments, strings, character
 * literals and text blocks are blanked first; then a constructor is a {@code Name(...)} where Name is a type
 * declared in the file, declared where a member can start (after {@code ;}, a brace, an annotation or a
 * modifier) and followed by a body or a {@code throws} clause.
 */
final class JavaShape {

    /** A constructor: its type's simple name, its parameter count and its line (1-based). */
    record Constructor(String type, int parameters, int line) {
    }

    private static final Pattern TYPE = Pattern.compile("\\b(class|interface|enum|record)\\s+([A-Za-z_$][\\w$]*)");
    private static final Set<String> MODIFIERS = Set.of("public", "protected", "private");

    private JavaShape() {
    }

    /** Lines as {@code wc -l} counts them: the number of newline characters. */
    static int lines(String text) {
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /** Every constructor declared in the file, records' canonical constructors included. */
    static List<Constructor> constructors(String source) {
        String code = blank(source);
        Set<String> types = new LinkedHashSet<>();
        List<Constructor> out = new ArrayList<>();
        Matcher m = TYPE.matcher(code);
        while (m.find()) {
            if (m.start() > 0 && code.charAt(m.start() - 1) == '@') {
                continue; // @interface
            }
            types.add(m.group(2));
            if (m.group(1).equals("record")) {
                int open = skipSpaceAndTypeParameters(code, m.end());
                if (open < code.length() && code.charAt(open) == '(') {
                    out.add(new Constructor(m.group(2), countParameters(code, open), lineOf(code, m.start())));
                }
            }
        }
        for (String type : types) {
            Matcher call = Pattern.compile("(?<![\\w$.])" + Pattern.quote(type) + "\\s*\\(").matcher(code);
            while (call.find()) {
                int open = call.end() - 1;
                if (!memberStart(code, call.start())) {
                    continue;
                }
                int close = closing(code, open);
                String after = code.substring(close + 1).stripLeading();
                if (after.startsWith("{") || after.startsWith("throws")) {
                    out.add(new Constructor(type, countParameters(code, open), lineOf(code, call.start())));
                }
            }
        }
        return out;
    }

    /** Whether what precedes {@code at} lets a member declaration start there. */
    private static boolean memberStart(String code, int at) {
        int i = at - 1;
        while (i >= 0 && Character.isWhitespace(code.charAt(i))) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        char c = code.charAt(i);
        if (c == ';' || c == '{' || c == '}' || c == ')' || c == '>') {
            // ')' ends an annotation's arguments, '>' a generic constructor's type parameters
            return c != ')' || annotationArguments(code, i);
        }
        int end = i + 1;
        while (i >= 0 && (Character.isJavaIdentifierPart(code.charAt(i)) || code.charAt(i) == '.')) {
            i--;
        }
        String word = code.substring(i + 1, end);
        return MODIFIERS.contains(word) || (i >= 0 && code.charAt(i) == '@');
    }

    /** Whether the ')' at {@code close} closes an annotation's arguments, as in {@code @Named("x")}. */
    private static boolean annotationArguments(String code, int close) {
        int depth = 0;
        int i = close;
        for (; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(' && --depth == 0) {
                break;
            }
        }
        i--;
        while (i >= 0 && Character.isWhitespace(code.charAt(i))) {
            i--;
        }
        while (i >= 0 && (Character.isJavaIdentifierPart(code.charAt(i)) || code.charAt(i) == '.')) {
            i--;
        }
        return i >= 0 && code.charAt(i) == '@';
    }

    private static int skipSpaceAndTypeParameters(String code, int i) {
        while (i < code.length() && Character.isWhitespace(code.charAt(i))) {
            i++;
        }
        if (i < code.length() && code.charAt(i) == '<') {
            int depth = 0;
            for (; i < code.length(); i++) {
                char c = code.charAt(i);
                if (c == '<') {
                    depth++;
                } else if (c == '>' && --depth == 0) {
                    i++;
                    break;
                }
            }
            while (i < code.length() && Character.isWhitespace(code.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    /** The index of the ')' that closes the '(' at {@code open}. */
    private static int closing(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return code.length() - 1;
    }

    /** Top-level commas between the '(' at {@code open} and its ')', plus one; 0 when empty. */
    private static int countParameters(String code, int open) {
        int close = closing(code, open);
        String inside = code.substring(open + 1, close);
        if (inside.isBlank()) {
            return 0;
        }
        int depth = 0;
        int n = 1;
        for (int i = 0; i < inside.length(); i++) {
            char c = inside.charAt(i);
            if (c == '(' || c == '<' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == '>' || c == ']' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                n++;
            }
        }
        return n;
    }

    private static int lineOf(String code, int index) {
        return lines(code.substring(0, index)) + 1;
    }

    /** The source with comments, strings, text blocks and character literals replaced by spaces (newlines kept). */
    static String blank(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int end;
            if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
                end = end < 0 ? s.length() : end;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = literalEnd(s, i + 3, "\"\"\"");
            } else if (s.charAt(i) == '"') {
                end = literalEnd(s, i + 1, "\"");
            } else if (s.charAt(i) == '\'') {
                end = literalEnd(s, i + 1, "'");
            } else {
                out.append(s.charAt(i++));
                continue;
            }
            for (int j = i; j < end; j++) {
                out.append(s.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    /** The index just after the closing {@code quote}, skipping backslash escapes. */
    private static int literalEnd(String s, int i, String quote) {
        while (i < s.length()) {
            if (s.charAt(i) == '\\') {
                i += 2;
            } else if (s.startsWith(quote, i)) {
                return i + quote.length();
            } else {
                i++;
            }
        }
        return s.length();
    }
}
