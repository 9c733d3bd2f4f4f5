package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import io.eeoutbox.codegen.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Types the result columns of a query (its SELECT list, or its RETURNING list): a plain or qualified column
 * name from the schema, or an expression that ends in a {@code ::type} cast and carries an {@code AS alias}.
 */
final class ResultColumnReader {

    private static final Set<String> STATEMENT_WORDS = Set.of("select", "insert", "update", "delete", "values");
    private static final Set<String> SELECT_LIST_END = Set.of("from", "into", "where", "group", "having", "window",
            "order", "limit", "offset", "fetch", "for", "union", "intersect", "except");

    private final Schema schema;
    private final List<Problem> problems;

    /** @param problems where problems go; the caller throws when it is not empty */
    ResultColumnReader(Schema schema, List<Problem> problems) {
        this.schema = schema;
        this.problems = problems;
    }

    List<ResultColumn> read(String file, String table, String query, List<Token> s) {
        int depth = 0;
        String statementWord = null;
        int at = -1;
        for (int i = 0; i < s.size(); i++) {
            Token t = s.get(i);
            depth += depthChange(t);
            if (depth == 0 && t.kind() == Kind.WORD && STATEMENT_WORDS.contains(t.identifier())) {
                statementWord = t.identifier();
                at = i;
                break;
            }
        }
        List<Token> list;
        if (statementWord == null) {
            return List.of();
        } else if (statementWord.equals("values")) {
            problems.add(new Problem(file, s.get(at).line(), "query " + query + ": a VALUES statement has no named"
                    + " columns; write SELECT ... AS name"));
            return List.of();
        } else if (statementWord.equals("select")) {
            int start = at + 1;
            if (start < s.size() && s.get(start).isWord("all")) {
                start++;
            } else if (start < s.size() && s.get(start).isWord("distinct")) {
                start++;
                if (start < s.size() && s.get(start).isWord("on") && start + 1 < s.size()
                        && s.get(start + 1).isPunct("(")) {
                    start = SchemaParser.closing(s, start + 1) + 1;
                }
            }
            int end = start;
            depth = 0;
            while (end < s.size()) {
                Token t = s.get(end);
                if (depth == 0 && t.kind() == Kind.WORD && SELECT_LIST_END.contains(t.identifier())) {
                    break;
                }
                depth += depthChange(t);
                end++;
            }
            list = s.subList(start, end);
        } else {
            int returning = -1;
            depth = 0;
            for (int i = at; i < s.size(); i++) {
                depth += depthChange(s.get(i));
                if (depth == 0 && s.get(i).isWord("returning")) {
                    returning = i;
                    break;
                }
            }
            if (returning < 0) {
                return List.of();
            }
            list = s.subList(returning + 1, s.size());
        }
        List<ResultColumn> columns = new ArrayList<>();
        for (List<Token> item : SchemaParser.splitTopLevel(list)) {
            ResultColumn c = resultColumn(file, table, query, item, list.isEmpty() ? s.get(at) : list.get(0));
            if (c == null) {
                return List.of();
            }
            for (ResultColumn other : columns) {
                if (other.name().equals(c.name())) {
                    problems.add(new Problem(file, c.line(), "query " + query + " returns two columns named "
                            + c.name() + ": give one an alias"));
                    return List.of();
                }
            }
            columns.add(c);
        }
        return List.copyOf(columns);
    }

    private static int depthChange(Token t) {
        return t.isPunct("(") || t.isPunct("[") ? 1 : t.isPunct(")") || t.isPunct("]") ? -1 : 0;
    }

    private ResultColumn resultColumn(String file, String table, String query, List<Token> item, Token near) {
        if (item.isEmpty()) {
            problems.add(new Problem(file, near.line(), "query " + query + ": empty item in the result list"));
            return null;
        }
        int line = item.get(0).line();
        Token last = item.get(item.size() - 1);
        if (last.kind() == Kind.OPERATOR && last.text().equals("*")) {
            problems.add(new Problem(file, line, "query " + query + " uses SELECT * (or RETURNING *): list the"
                    + " columns, so that the generated code follows the SQL"));
            return null;
        }
        String alias = null;
        List<Token> expr = item;
        if (item.size() >= 3 && item.get(item.size() - 2).isWord("as") && last.isIdentifier()) {
            alias = last.identifier();
            expr = item.subList(0, item.size() - 2);
        }
        // A plain or qualified column name: typed from the schema.
        String column = null;
        if (expr.size() == 1 && expr.get(0).isIdentifier()) {
            column = expr.get(0).identifier();
        } else if (expr.size() == 3 && expr.get(0).isIdentifier() && expr.get(1).isPunct(".")
                && expr.get(2).isIdentifier()) {
            column = expr.get(2).identifier();
        }
        if (column != null) {
            Schema.Column c = lookUp(file, table, query, column, line);
            if (c == null) {
                return null;
            }
            if (!TypeParser.check(problems, c.file(), c.type(), "column " + c.name())) {
                return null;
            }
            return new ResultColumn(alias != null ? alias : column, c.type(), c.nullable(), true, line);
        }
        // Any other expression: it must end in a cast and have an alias.
        String text = expr.stream().map(Token::text).collect(Collectors.joining(" "));
        int cast = -1;
        int depth = 0;
        for (int i = 0; i < expr.size(); i++) {
            depth += depthChange(expr.get(i));
            if (depth == 0 && expr.get(i).kind() == Kind.CAST) {
                cast = i;
            }
        }
        TypeParser.Parsed parsed = cast < 0 ? null : TypeParser.parse(expr, cast + 1, expr.size());
        if (parsed == null || parsed.next() != expr.size()) {
            problems.add(new Problem(file, line, "query " + query + ": the computed column `" + text
                    + "` must end in a ::type cast, as in count(*)::bigint AS total"));
            return null;
        }
        if (alias == null) {
            problems.add(new Problem(file, line, "query " + query + ": the computed column `" + text
                    + "` needs a name: add AS alias"));
            return null;
        }
        if (!TypeParser.check(problems, file, parsed.type(), "column " + alias + " in " + query)) {
            return null;
        }
        boolean count = expr.size() > 1 && expr.get(0).isWord("count") && expr.get(1).isPunct("(");
        return new ResultColumn(alias, parsed.type(), !count, false, line);
    }

    /** The column in the file's own table, else in another table of the schema. */
    private Schema.Column lookUp(String file, String table, String query, String column, int line) {
        Optional<Schema.Column> own = schema.table(table).flatMap(t -> t.column(column));
        if (own.isPresent()) {
            return own.get();
        }
        List<Schema.Column> elsewhere = schema.columnsElsewhere(column, table);
        if (elsewhere.isEmpty()) {
            problems.add(new Problem(file, line, "query " + query + ": unknown column " + column + " in the result"
                    + " list (not in table " + table + " nor in any other table of the schema)"));
            return null;
        }
        Schema.Column first = elsewhere.get(0);
        for (Schema.Column other : elsewhere) {
            if (!other.type().sameAs(first.type()) || other.nullable() != first.nullable()) {
                problems.add(new Problem(file, line, "query " + query + ": column " + column + " is not in table "
                        + table + " and differs between the other tables that have it; give it a cast and an"
                        + " alias"));
                return null;
            }
        }
        return first;
    }
}
