package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Reads a type name from tokens: {@code uuid}, {@code varchar(100)}, {@code timestamp with time zone}, {@code uuid[]}. */
final class TypeParser {

    private static final Set<String> TIME_TYPES = Set.of("timestamp", "time");

    private TypeParser() {
    }

    /** The result: the type, and the index of the first token after it. */
    record Parsed(TypeRef type, int next) {
    }

    /**
     * Parses the type starting at {@code tokens.get(start)}, or returns null when no type name is there.
     * It never reads past {@code end}.
     */
    static Parsed parse(List<Token> tokens, int start, int end) {
        if (start >= end || !tokens.get(start).isIdentifier()) {
            return null;
        }
        int line = tokens.get(start).line();
        int i = start;
        StringBuilder name = new StringBuilder(tokens.get(i).identifier());
        i++;
        String first = name.toString();
        if (TIME_TYPES.contains(first) && i + 2 < end
                && (tokens.get(i).isWord("with") || tokens.get(i).isWord("without"))
                && tokens.get(i + 1).isWord("time") && tokens.get(i + 2).isWord("zone")) {
            name.append(' ').append(tokens.get(i).text().toLowerCase(Locale.ROOT)).append(" time zone");
            i += 3;
        } else if (first.equals("character") && i < end && tokens.get(i).isWord("varying")) {
            name.append(" varying");
            i++;
        } else if (first.equals("double") && i < end && tokens.get(i).isWord("precision")) {
            name.append(" precision");
            i++;
        }
        StringBuilder text = new StringBuilder(name);
        // (n) or (p, s)
        if (i < end && tokens.get(i).isPunct("(")) {
            int j = i + 1;
            StringBuilder mods = new StringBuilder("(");
            while (j < end && !tokens.get(j).isPunct(")")) {
                Token t = tokens.get(j);
                if (t.kind() != Token.Kind.NUMBER && !t.isPunct(",")) {
                    return new Parsed(new TypeRef(name.toString(), text.toString(), 0, line), i);
                }
                mods.append(t.text()).append(t.isPunct(",") ? " " : "");
                j++;
            }
            if (j >= end) {
                return new Parsed(new TypeRef(name.toString(), text.toString(), 0, line), i);
            }
            text.append(mods.append(')'));
            i = j + 1;
        }
        int dims = 0;
        while (i + 1 < end && tokens.get(i).isPunct("[")) {
            int j = i + 1;
            if (tokens.get(j).kind() == Token.Kind.NUMBER) {
                j++;
            }
            if (j >= end || !tokens.get(j).isPunct("]")) {
                break;
            }
            dims++;
            text.append("[]");
            i = j + 1;
        }
        return new Parsed(new TypeRef(name.toString(), text.toString(), dims, line), i);
    }

    /** Whether the type maps to Java; if not, reports it. */
    static boolean check(List<Problem> problems, String file, TypeRef type, String what) {
        if (type.sqlType() == null) {
            problems.add(new Problem(file, type.line(), "unknown type " + type.text() + " of " + what
                    + " (known: uuid, varchar, text, int, bigint, boolean, timestamptz, jsonb, json and their arrays)"));
            return false;
        }
        if (type.arrayDims() > 1) {
            problems.add(new Problem(file, type.line(), "multi-dimensional array type " + type.text() + " of " + what
                    + " is not supported"));
            return false;
        }
        return true;
    }
}
