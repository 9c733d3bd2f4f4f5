package io.eeoutbox.codegen;

import java.util.Locale;

/**
 * One lexical token of PostgreSQL SQL.
 *
 * @param kind        what it is
 * @param text        its text exactly as in the file (for {@link Kind#PARAM}, the name without {@code @})
 * @param line        1-based line where it starts
 * @param spaceBefore whether whitespace or a comment separates it from the previous token
 */
record Token(Kind kind, String text, int line, boolean spaceBefore) {

    enum Kind {
        /** An unquoted identifier or key word. */
        WORD,
        /** A double-quoted identifier. */
        QUOTED_IDENT,
        /** A string constant in single quotes, with its prefix (E, B, X, N, U&amp;) if any. */
        STRING,
        /** A dollar-quoted string constant. */
        DOLLAR_STRING,
        NUMBER,
        /** A run of operator characters, such as {@code =}, {@code <>} or {@code @>}. */
        OPERATOR,
        /** A sqlc parameter {@code @name}; the text is the name. */
        PARAM,
        /** A positional parameter {@code $1}. */
        POSITIONAL,
        /** The cast operator {@code ::}. */
        CAST,
        /** One of {@code ( ) [ ] , ; . :}. */
        PUNCT,
        LINE_COMMENT,
        BLOCK_COMMENT
    }

    boolean isWord(String word) {
        return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    boolean isPunct(String punct) {
        return kind == Kind.PUNCT && text.equals(punct);
    }

    boolean isComment() {
        return kind == Kind.LINE_COMMENT || kind == Kind.BLOCK_COMMENT;
    }

    /** Whether this is an identifier, quoted or not. */
    boolean isIdentifier() {
        return kind == Kind.WORD || kind == Kind.QUOTED_IDENT;
    }

    /** The identifier's name as PostgreSQL sees it: unquoted names fold to lower case. */
    String identifier() {
        if (kind == Kind.QUOTED_IDENT) {
            return text.substring(1, text.length() - 1).replace("\"\"", "\"");
        }
        return text.toLowerCase(Locale.ROOT);
    }

    Token withSpaceBefore(boolean space) {
        return new Token(kind, text, line, space);
    }
}
