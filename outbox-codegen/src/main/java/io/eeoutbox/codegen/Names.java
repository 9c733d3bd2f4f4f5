package io.eeoutbox.codegen;

import java.util.Locale;
import java.util.Set;

/** The naming rules: snake_case SQL names and PascalCase query names to Java names. */
final class Names {

    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
            "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
            "void", "volatile", "while", "true", "false", "null", "var", "yield", "record", "sealed", "permits",
            "_");

    private Names() {
    }

    /** {@code claim_token} to {@code claimToken}; a Java key word gets a trailing underscore. */
    static String lowerCamel(String name) {
        String pascal = pascal(name);
        String camel = pascal.isEmpty() ? "_" : Character.toLowerCase(pascal.charAt(0)) + pascal.substring(1);
        return KEYWORDS.contains(camel) ? camel + "_" : camel;
    }

    /** {@code outbox_events} to {@code OutboxEvents}; {@code ClaimOutboxBatch} stays as it is. */
    static String pascal(String name) {
        StringBuilder out = new StringBuilder();
        boolean upper = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' || !Character.isJavaIdentifierPart(c) || c == '$') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        if (out.length() > 0 && !Character.isJavaIdentifierStart(out.charAt(0))) {
            out.insert(0, '_');
        }
        return out.toString();
    }

    /** The entity of a table: singular (a trailing {@code s} dropped) and PascalCase. */
    static String entity(String table) {
        String singular = table.endsWith("s") && table.length() > 1 ? table.substring(0, table.length() - 1) : table;
        return pascal(singular);
    }

    /** {@code ClaimOutboxBatch} to {@code CLAIM_OUTBOX_BATCH}. */
    static String upperSnake(String pascal) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pascal.length(); i++) {
            char c = pascal.charAt(i);
            if (i > 0 && Character.isUpperCase(c)) {
                char prev = pascal.charAt(i - 1);
                boolean nextLower = i + 1 < pascal.length() && Character.isLowerCase(pascal.charAt(i + 1));
                if (Character.isLowerCase(prev) || Character.isDigit(prev) || (Character.isUpperCase(prev) && nextLower)) {
                    out.append('_');
                }
            }
            out.append(Character.toUpperCase(c));
        }
        return out.toString().toUpperCase(Locale.ROOT);
    }
}
