package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the CREATE TABLE statements of migration files, and the columns that ALTER TABLE .. ADD COLUMN adds
 * later, into a {@link Schema}: each table's columns, their types and whether they may be NULL. Every other
 * statement (indexes, views, other ALTERs, functions and triggers with dollar-quoted bodies) is skipped.
 */
final class SchemaParser {

    /** Words that end a column's type and start its constraints. */
    private static final Set<String> CONSTRAINT_WORDS = Set.of("constraint", "not", "null", "primary", "unique",
            "default", "generated", "references", "check", "collate", "compression", "storage", "deferrable",
            "initially");
    private static final Set<String> TABLE_CONSTRAINTS = Set.of("constraint", "primary", "unique", "check",
            "foreign", "exclude", "like");

    private final Schema schema = new Schema();
    private final List<Problem> problems = new ArrayList<>();

    /** Adds the tables of one migration file, given its display name and its text. */
    SchemaParser parse(String file, String sql) {
        List<Token> tokens = SqlLexer.tokenize(file, sql).stream().filter(t -> !t.isComment()).toList();
        int start = 0;
        for (int i = 0; i <= tokens.size(); i++) {
            if (i == tokens.size() || tokens.get(i).isPunct(";")) {
                if (i > start) {
                    statement(file, tokens.subList(start, i));
                }
                start = i + 1;
            }
        }
        return this;
    }

    Schema schema() {
        if (!problems.isEmpty()) {
            throw new CodegenException(problems);
        }
        return schema;
    }

    private void statement(String file, List<Token> s) {
        int i = 0;
        if (s.get(0).isWord("alter")) {
            alterTable(file, s);
            return;
        }
        if (!s.get(i++).isWord("create")) {
            return;
        }
        while (i < s.size() && (s.get(i).isWord("global") || s.get(i).isWord("local") || s.get(i).isWord("temp")
                || s.get(i).isWord("temporary") || s.get(i).isWord("unlogged"))) {
            i++;
        }
        if (i >= s.size() || !s.get(i).isWord("table")) {
            return;
        }
        int line = s.get(i).line();
        i++;
        if (i + 2 < s.size() && s.get(i).isWord("if") && s.get(i + 1).isWord("not") && s.get(i + 2).isWord("exists")) {
            i += 3;
        }
        if (i >= s.size() || !s.get(i).isIdentifier()) {
            return;
        }
        String name = s.get(i).identifier();
        i++;
        while (i + 1 < s.size() && s.get(i).isPunct(".") && s.get(i + 1).isIdentifier()) {
            name = s.get(i + 1).identifier(); // schema-qualified: the table's own name is the last part
            i += 2;
        }
        if (i >= s.size() || !s.get(i).isPunct("(")) {
            return; // CREATE TABLE .. AS / PARTITION OF: no column list to read
        }
        int close = closing(s, i);
        if (close < 0) {
            problems.add(new Problem(file, line, "CREATE TABLE " + name + ": unbalanced parentheses"));
            return;
        }
        Map<String, Schema.Column> columns = new LinkedHashMap<>();
        List<String> primaryKey = new ArrayList<>();
        for (List<Token> element : splitTopLevel(s.subList(i + 1, close))) {
            if (element.isEmpty()) {
                continue;
            }
            Token first = element.get(0);
            if (first.kind() == Token.Kind.WORD && TABLE_CONSTRAINTS.contains(first.identifier())) {
                tableConstraint(element, primaryKey);
            } else {
                Schema.Column column = column(file, element);
                if (column != null) {
                    columns.put(column.name(), column);
                }
            }
        }
        for (String key : primaryKey) {
            Schema.Column c = columns.get(key);
            if (c != null) {
                columns.put(key, c.withPrimaryKey());
            }
        }
        schema.add(new Schema.Table(name, List.copyOf(columns.values()), file, line));
    }

    /**
     * {@code ALTER TABLE [IF EXISTS] [ONLY] name ADD [COLUMN] [IF NOT EXISTS] column type ..}, one or more actions
     * separated by commas: the added columns join the table (a table the migrations did not create is left alone);
     * other actions are skipped.
     */
    private void alterTable(String file, List<Token> s) {
        int i = 1;
        if (i >= s.size() || !s.get(i).isWord("table")) {
            return;
        }
        i++;
        if (i + 1 < s.size() && s.get(i).isWord("if") && s.get(i + 1).isWord("exists")) {
            i += 2;
        }
        if (i < s.size() && s.get(i).isWord("only")) {
            i++;
        }
        if (i >= s.size() || !s.get(i).isIdentifier()) {
            return;
        }
        String name = s.get(i++).identifier();
        while (i + 1 < s.size() && s.get(i).isPunct(".") && s.get(i + 1).isIdentifier()) {
            name = s.get(i + 1).identifier();
            i += 2;
        }
        Schema.Table table = schema.table(name).orElse(null);
        if (table == null) {
            return;
        }
        List<Schema.Column> columns = new ArrayList<>(table.columns());
        for (List<Token> action : splitTopLevel(s.subList(Math.min(i, s.size()), s.size()))) {
            int a = 0;
            if (action.isEmpty() || !action.get(a++).isWord("add")) {
                continue;
            }
            if (a < action.size() && action.get(a).isWord("column")) {
                a++;
            } else if (a < action.size() && action.get(a).kind() == Token.Kind.WORD
                    && TABLE_CONSTRAINTS.contains(action.get(a).identifier())) {
                continue; // ADD CONSTRAINT / PRIMARY KEY ..: no new column
            }
            if (a + 2 < action.size() && action.get(a).isWord("if") && action.get(a + 1).isWord("not")
                    && action.get(a + 2).isWord("exists")) {
                a += 3;
            }
            Schema.Column column = a < action.size() ? column(file, action.subList(a, action.size())) : null;
            if (column != null && table.column(column.name()).isEmpty()) {
                columns.add(column);
            }
        }
        schema.add(new Schema.Table(table.name(), List.copyOf(columns), table.file(), table.line()));
    }

    private static void tableConstraint(List<Token> element, List<String> primaryKey) {
        int i = 0;
        if (element.get(0).isWord("constraint")) {
            i = 2;
        }
        if (i + 2 < element.size() && element.get(i).isWord("primary") && element.get(i + 1).isWord("key")
                && element.get(i + 2).isPunct("(")) {
            for (int j = i + 3; j < element.size() && !element.get(j).isPunct(")"); j++) {
                if (element.get(j).isIdentifier()) {
                    primaryKey.add(element.get(j).identifier());
                }
            }
        }
    }

    private Schema.Column column(String file, List<Token> element) {
        Token nameToken = element.get(0);
        if (!nameToken.isIdentifier()) {
            problems.add(new Problem(file, nameToken.line(), "expected a column name, found " + nameToken.text()));
            return null;
        }
        int typeEnd = 1;
        int depth = 0;
        while (typeEnd < element.size()) {
            Token t = element.get(typeEnd);
            if (depth == 0 && t.kind() == Token.Kind.WORD && CONSTRAINT_WORDS.contains(t.identifier())) {
                break;
            }
            depth += t.isPunct("(") ? 1 : t.isPunct(")") ? -1 : 0;
            typeEnd++;
        }
        TypeParser.Parsed parsed = TypeParser.parse(element, 1, typeEnd);
        if (parsed == null || parsed.next() != typeEnd) {
            problems.add(new Problem(file, nameToken.line(), "cannot read the type of column " + nameToken.identifier()));
            return null;
        }
        boolean notNull = false;
        boolean primaryKey = false;
        depth = 0;
        for (int i = typeEnd; i < element.size(); i++) {
            Token t = element.get(i);
            if (t.isPunct("(")) {
                depth++;
            } else if (t.isPunct(")")) {
                depth--;
            } else if (depth == 0 && i + 1 < element.size()) {
                Token next = element.get(i + 1);
                if (t.isWord("not") && next.isWord("null")) {
                    notNull = true;
                } else if (t.isWord("primary") && next.isWord("key")) {
                    primaryKey = true;
                } else if (t.isWord("as") && next.isWord("identity")) {
                    notNull = true; // identity columns are implicitly NOT NULL
                }
            }
        }
        return new Schema.Column(nameToken.identifier(), parsed.type(), !(notNull || primaryKey), primaryKey,
                file, nameToken.line());
    }

    /** The index of the parenthesis closing the one at {@code open}, or -1. */
    static int closing(List<Token> tokens, int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            if (tokens.get(i).isPunct("(")) {
                depth++;
            } else if (tokens.get(i).isPunct(")")) {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** Splits tokens at commas outside parentheses and brackets. */
    static List<List<Token>> splitTopLevel(List<Token> tokens) {
        List<List<Token>> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isPunct("(") || t.isPunct("[")) {
                depth++;
            } else if (t.isPunct(")") || t.isPunct("]")) {
                depth--;
            } else if (depth == 0 && t.isPunct(",")) {
                parts.add(tokens.subList(start, i));
                start = i + 1;
            }
        }
        parts.add(tokens.subList(start, tokens.size()));
        return parts;
    }
}
