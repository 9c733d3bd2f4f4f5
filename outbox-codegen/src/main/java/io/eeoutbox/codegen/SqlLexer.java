package io.eeoutbox.codegen;

import io.eeoutbox.codegen.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits PostgreSQL SQL into tokens, comments included. It knows string constants (with their
 * prefixes and escapes), quoted identifiers, dollar-quoted bodies, nested block comments and
 * operators, so that a {@code ;}, an {@code @} or a {@code --} inside any of them is never taken
 * for something else.
 *
 * <p>{@code @name} becomes a {@link Kind#PARAM} token when the {@code @} is followed by a letter or
 * an underscore, unless it ends the operators {@code <@} or {@code @@}. Any other {@code @} stays
 * part of an operator ({@code @>}, {@code @@}, {@code @-@}); a lone {@code @} is left for the query
 * parser to report.
 */
final class SqlLexer {

    private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`?";

    private final String file;
    private final String sql;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;
    private int line = 1;
    private boolean space;

    private SqlLexer(String file, String sql) {
        this.file = file;
        this.sql = sql;
    }

    /** All tokens of {@code sql}, comments included. */
    static List<Token> tokenize(String file, String sql) {
        SqlLexer lexer = new SqlLexer(file, sql);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
                space = true;
            } else if (Character.isWhitespace(c)) {
                pos++;
                space = true;
            } else if (c == '-' && peek(1) == '-') {
                int end = sql.indexOf('\n', pos);
                end = end < 0 ? sql.length() : end;
                add(Kind.LINE_COMMENT, pos, end, line);
                space = true;
            } else if (c == '/' && peek(1) == '*') {
                blockComment();
            } else if (c == '\'') {
                quoted(pos, pos, '\'', false, Kind.STRING, "string constant");
            } else if (c == '"') {
                quoted(pos, pos, '"', false, Kind.QUOTED_IDENT, "quoted identifier");
            } else if (c == '$') {
                dollar();
            } else if (isIdentStart(c)) {
                word();
            } else if (Character.isDigit(c) || (c == '.' && Character.isDigit(peek(1)))) {
                number();
            } else if (c == ':' && peek(1) == ':') {
                add(Kind.CAST, pos, pos + 2, line);
            } else if ("()[],;.:".indexOf(c) >= 0) {
                add(Kind.PUNCT, pos, pos + 1, line);
            } else if (OPERATOR_CHARS.indexOf(c) >= 0) {
                operator();
            } else {
                throw new CodegenException(file, line, "unexpected character '" + c + "'");
            }
        }
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < sql.length() ? sql.charAt(i) : '\0';
    }

    private void add(Kind kind, int start, int end, int startLine) {
        tokens.add(new Token(kind, sql.substring(start, end), startLine, space));
        pos = end;
        space = false;
    }

    private void countLines(int start, int end) {
        for (int i = start; i < end; i++) {
            if (sql.charAt(i) == '\n') {
                line++;
            }
        }
    }

    private void blockComment() {
        int startLine = line;
        int depth = 0;
        int i = pos;
        while (i < sql.length()) {
            if (sql.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (sql.startsWith("*/", i)) {
                depth--;
                i += 2;
                if (depth == 0) {
                    break;
                }
            } else {
                i++;
            }
        }
        if (depth != 0) {
            throw new CodegenException(file, startLine, "unterminated /* comment");
        }
        countLines(pos, i);
        add(Kind.BLOCK_COMMENT, pos, i, startLine);
        space = true;
    }

    /** A quoted token whose opening quote is at {@code quote}; the token starts at {@code start}. */
    private void quoted(int start, int quote, char q, boolean backslashEscapes, Kind kind, String what) {
        int startLine = line;
        int i = quote + 1;
        while (true) {
            if (i >= sql.length()) {
                throw new CodegenException(file, startLine, "unterminated " + what);
            }
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == q) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
                    i += 2;
                } else {
                    i++;
                    break;
                }
            } else {
                i++;
            }
        }
        countLines(start, i);
        add(kind, start, i, startLine);
    }

    private void dollar() {
        // $1: positional parameter; $tag$ or $$: a dollar-quoted string; otherwise an error.
        if (Character.isDigit(peek(1))) {
            int i = pos + 1;
            while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                i++;
            }
            add(Kind.POSITIONAL, pos, i, line);
            return;
        }
        int i = pos + 1;
        if (i < sql.length() && isIdentStart(sql.charAt(i))) {
            while (i < sql.length() && isIdentPart(sql.charAt(i)) && sql.charAt(i) != '$') {
                i++;
            }
        }
        if (i >= sql.length() || sql.charAt(i) != '$') {
            throw new CodegenException(file, line, "unexpected '$'");
        }
        String tag = sql.substring(pos, i + 1);
        int close = sql.indexOf(tag, i + 1);
        if (close < 0) {
            throw new CodegenException(file, line, "unterminated dollar-quoted string " + tag);
        }
        int startLine = line;
        int end = close + tag.length();
        countLines(pos, end);
        add(Kind.DOLLAR_STRING, pos, end, startLine);
    }

    private void word() {
        char c = sql.charAt(pos);
        char next = peek(1);
        // String constants with a prefix: E'..' (backslash escapes), B'..', X'..', N'..', U&'..', U&".."
        if (next == '\'' && "eE".indexOf(c) >= 0) {
            quoted(pos, pos + 1, '\'', true, Kind.STRING, "string constant");
            return;
        }
        if (next == '\'' && "bBxXnN".indexOf(c) >= 0) {
            quoted(pos, pos + 1, '\'', false, Kind.STRING, "string constant");
            return;
        }
        if ((c == 'u' || c == 'U') && next == '&' && (peek(2) == '\'' || peek(2) == '"')) {
            char q = peek(2);
            quoted(pos, pos + 2, q, false, q == '\'' ? Kind.STRING : Kind.QUOTED_IDENT,
                    q == '\'' ? "string constant" : "quoted identifier");
            return;
        }
        int i = pos + 1;
        while (i < sql.length() && isIdentPart(sql.charAt(i))) {
            i++;
        }
        add(Kind.WORD, pos, i, line);
    }

    private void number() {
        int i = pos;
        while (i < sql.length() && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
            i++;
        }
        if (i < sql.length() && sql.charAt(i) == '.' && !(i + 1 < sql.length() && sql.charAt(i + 1) == '.')) {
            i++;
            while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                i++;
            }
        }
        if (i < sql.length() && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < sql.length() && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
                j++;
            }
            if (j < sql.length() && Character.isDigit(sql.charAt(j))) {
                i = j;
                while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
            }
        }
        add(Kind.NUMBER, pos, i, line);
    }

    private void operator() {
        int start = pos;
        int i = pos;
        while (i < sql.length() && OPERATOR_CHARS.indexOf(sql.charAt(i)) >= 0
                && !sql.startsWith("--", i) && !sql.startsWith("/*", i)) {
            // @name inside a run of operator characters, as in "id=@id": the parameter ends the operator
            if (sql.charAt(i) == '@' && i + 1 < sql.length() && isIdentStart(sql.charAt(i + 1))
                    && (i == start || (sql.charAt(i - 1) != '<' && sql.charAt(i - 1) != '@'))) {
                if (i > start) {
                    add(Kind.OPERATOR, start, i, line);
                }
                int j = i + 1;
                while (j < sql.length() && isIdentPart(sql.charAt(j))) {
                    j++;
                }
                tokens.add(new Token(Kind.PARAM, sql.substring(i + 1, j), line, space));
                pos = j;
                space = false;
                return;
            }
            i++;
        }
        add(Kind.OPERATOR, start, i, line);
    }

    static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_' || c > 127;
    }

    static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127;
    }
}
