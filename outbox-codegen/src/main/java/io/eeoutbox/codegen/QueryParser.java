package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import io.eeoutbox.codegen.Token.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a queries file in sqlc format and checks each query against the schema.
 *
 * <p>A query starts with {@code -- name: QueryName :kind}; the comment lines that follow are its
 * documentation; its statement runs to the terminating {@code ;}. Parameters are
 * {@code @name::type}, {@code sqlc.arg(name)::type} or {@code sqlc.narg(name)::type}. The result
 * columns (the SELECT list, or the RETURNING list) are plain or qualified column names, typed from
 * the schema, or expressions that end in a {@code ::type} cast and carry an {@code AS alias}.
 *
 * <p>Problems are collected, each with its file and line, so that one run reports them all.
 */
final class QueryParser {

    private static final Pattern NAME_LINE = Pattern.compile("^--\\s*name:(.*)$");
    private static final Pattern QUERY_NAME = Pattern.compile("[A-Z][A-Za-z0-9]*");
    private static final Set<String> STATEMENT_WORDS = Set.of("select", "insert", "update", "delete", "values");
    private static final Set<String> SELECT_LIST_END = Set.of("from", "into", "where", "group", "having", "window",
            "order", "limit", "offset", "fetch", "for", "union", "intersect", "except");

    private final Schema schema;
    private final List<Problem> problems;

    /** @param problems where problems go; the caller throws when it is not empty */
    QueryParser(Schema schema, List<Problem> problems) {
        this.schema = schema;
        this.problems = problems;
    }

    /** Parses one queries file. {@code table} is the table the file is about (its file name). */
    QueryFile parse(String file, String table, String text) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(file, text);
        } catch (CodegenException e) {
            problems.addAll(e.problems());
            return new QueryFile(file, table, Names.entity(table), List.of());
        }
        Optional<Schema.Table> own = schema.table(table);
        if (own.isEmpty()) {
            problems.add(new Problem(file, 1, "no CREATE TABLE " + table + " in the schema: a queries file is named"
                    + " after the table it queries"));
        }
        List<Query> queries = new ArrayList<>();
        int i = 0;
        // Before the first query: comments only.
        while (i < tokens.size() && !isNameLine(tokens.get(i))) {
            if (!tokens.get(i).isComment()) {
                problems.add(new Problem(file, tokens.get(i).line(),
                        "SQL before the first `-- name: QueryName :kind` line"));
                return new QueryFile(file, table, Names.entity(table), List.of());
            }
            i++;
        }
        while (i < tokens.size()) {
            Token nameLine = tokens.get(i++);
            List<String> doc = new ArrayList<>();
            while (i < tokens.size() && tokens.get(i).isComment() && !isNameLine(tokens.get(i))) {
                if (tokens.get(i).kind() == Kind.LINE_COMMENT) {
                    doc.add(docText(tokens.get(i).text()));
                }
                i++;
            }
            List<Token> statement = new ArrayList<>();
            boolean terminated = false;
            while (i < tokens.size() && !isNameLine(tokens.get(i))) {
                Token t = tokens.get(i++);
                if (t.isPunct(";")) {
                    terminated = true;
                    break;
                }
                if (t.isComment()) {
                    // a comment separates tokens like whitespace does
                    if (i < tokens.size()) {
                        tokens.set(i, tokens.get(i).withSpaceBefore(true));
                    }
                } else {
                    statement.add(t);
                }
            }
            // After the ';': comments only, up to the next query.
            while (terminated && i < tokens.size() && !isNameLine(tokens.get(i))) {
                Token t = tokens.get(i++);
                if (!t.isComment()) {
                    problems.add(new Problem(file, t.line(), "SQL after the `;` that ends the query: start each"
                            + " query with `-- name: QueryName :kind`"));
                    while (i < tokens.size() && !isNameLine(tokens.get(i))) {
                        i++;
                    }
                }
            }
            Query q = query(file, table, nameLine, doc, statement, terminated);
            if (q != null) {
                queries.add(q);
            }
        }
        return new QueryFile(file, table, Names.entity(table), List.copyOf(queries));
    }

    private static boolean isNameLine(Token t) {
        return t.kind() == Kind.LINE_COMMENT && NAME_LINE.matcher(t.text()).matches();
    }

    private static String docText(String comment) {
        String s = comment.substring(2);
        if (s.startsWith(" ")) {
            s = s.substring(1);
        }
        return s.stripTrailing();
    }

    private Query query(String file, String table, Token nameLine, List<String> doc, List<Token> statement,
                        boolean terminated) {
        int line = nameLine.line();
        Matcher m = NAME_LINE.matcher(nameLine.text());
        if (!m.matches()) {
            throw new IllegalStateException(nameLine.text());
        }
        String[] words = m.group(1).trim().split("\\s+");
        if (words.length != 2 || words[0].isEmpty()) {
            problems.add(new Problem(file, line, "expected `-- name: QueryName :kind`, found `" + nameLine.text().trim()
                    + "`"));
            return null;
        }
        String name = words[0];
        if (!QUERY_NAME.matcher(name).matches()) {
            problems.add(new Problem(file, line, "query name " + name + " must be PascalCase, such as"
                    + " FindOutboxEvent"));
            return null;
        }
        QueryKind kind = QueryKind.forAnnotation(words[1]);
        if (kind == null) {
            problems.add(new Problem(file, line, "unknown query kind " + words[1] + " for " + name
                    + " (expected :one, :many, :exec or :execrows)"));
            return null;
        }
        if (!terminated) {
            problems.add(new Problem(file, line, "missing `;` at the end of query " + name));
            return null;
        }
        if (statement.isEmpty()) {
            problems.add(new Problem(file, line, "query " + name + " has no statement"));
            return null;
        }
        int before = problems.size();
        Parameters params = parameters(file, name, statement);
        if (problems.size() > before) {
            return null;
        }
        List<ResultColumn> columns = resultColumns(file, table, name, params.tokens);
        if (problems.size() > before) {
            return null;
        }
        if (kind.returnsRows() && columns.isEmpty()) {
            problems.add(new Problem(file, line, "query " + name + " is " + kind.annotation + " but returns no"
                    + " columns: use :exec or :execrows, or add a RETURNING list"));
            return null;
        }
        if (!kind.returnsRows() && !columns.isEmpty()) {
            problems.add(new Problem(file, line, "query " + name + " is " + kind.annotation + " but returns rows:"
                    + " use :one or :many, or drop the RETURNING list"));
            return null;
        }
        List<Parameter> distinct = List.copyOf(params.distinct.values());
        String jdbc = render(params.tokens, params.occurrences, distinct, false);
        String nativeSql = render(params.tokens, params.occurrences, distinct, true);
        return new Query(name, kind, List.copyOf(doc), file, line, distinct, List.copyOf(params.occurrences),
                columns, jdbc, nativeSql);
    }

    /** The statement with each parameter (and its cast) collapsed into one PARAM token. */
    private record Parameters(List<Token> tokens, List<Parameter> occurrences, Map<String, Parameter> distinct) {
    }

    private Parameters parameters(String file, String query, List<Token> s) {
        List<Token> out = new ArrayList<>();
        List<Parameter> occurrences = new ArrayList<>();
        Map<String, Parameter> distinct = new LinkedHashMap<>();
        int i = 0;
        while (i < s.size()) {
            Token t = s.get(i);
            String name = null;
            boolean nullable = false;
            int next;
            if (t.kind() == Kind.PARAM) {
                name = t.text();
                next = i + 1;
            } else if (t.kind() == Kind.WORD && t.text().equals("sqlc") && i + 1 < s.size() && s.get(i + 1).isPunct(".")) {
                if (i + 2 >= s.size() || !(s.get(i + 2).isWord("arg") || s.get(i + 2).isWord("narg"))) {
                    String what = i + 2 < s.size() ? s.get(i + 2).text() : "";
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": sqlc." + what
                            + " is not supported (use sqlc.arg(name) or sqlc.narg(name))"));
                    return new Parameters(out, occurrences, distinct);
                }
                String fn = "sqlc." + s.get(i + 2).text() + "(";
                nullable = s.get(i + 2).isWord("narg");
                if (i + 3 >= s.size() || !s.get(i + 3).isPunct("(")) {
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": " + fn
                            + "name) expected"));
                    return new Parameters(out, occurrences, distinct);
                }
                if (i + 4 >= s.size() || !s.get(i + 4).isIdentifier()) {
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": " + fn
                            + " must be followed by a parameter name"));
                    return new Parameters(out, occurrences, distinct);
                }
                if (i + 5 >= s.size() || !s.get(i + 5).isPunct(")")) {
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": " + fn
                            + s.get(i + 4).text() + " is not closed with `)`"));
                    return new Parameters(out, occurrences, distinct);
                }
                Token n = s.get(i + 4);
                name = n.kind() == Kind.QUOTED_IDENT ? n.identifier() : n.text();
                next = i + 6;
            } else if (t.kind() == Kind.OPERATOR && t.text().equals("@")) {
                problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": `@` must be followed by"
                        + " a parameter name, as in @id::uuid (for the absolute value, use abs())"));
                return new Parameters(out, occurrences, distinct);
            } else if (t.kind() == Kind.POSITIONAL) {
                problems.add(new Problem(file, t.line(), "positional parameter " + t.text() + " in " + query
                        + ": name it, as in @id::uuid"));
                return new Parameters(out, occurrences, distinct);
            } else if (t.kind() == Kind.OPERATOR && t.text().contains("?")) {
                problems.add(new Problem(file, t.line(), "operator " + t.text() + " in " + query + ": JDBC and JPA take"
                        + " `?` for a parameter; use the function instead (such as jsonb_exists)"));
                return new Parameters(out, occurrences, distinct);
            } else {
                out.add(t);
                i++;
                continue;
            }
            String written = t.kind() == Kind.PARAM ? "@" + name : (nullable ? "sqlc.narg(" : "sqlc.arg(") + name + ")";
            if (next >= s.size() || s.get(next).kind() != Kind.CAST) {
                problems.add(new Problem(file, t.line(), "parameter " + written + " in " + query + " has no type:"
                        + " write it with a cast, as in " + written + "::uuid"));
                return new Parameters(out, occurrences, distinct);
            }
            TypeParser.Parsed parsed = TypeParser.parse(s, next + 1, s.size());
            if (parsed == null) {
                problems.add(new Problem(file, t.line(), "parameter " + written + " in " + query + ": type name"
                        + " expected after `::`"));
                return new Parameters(out, occurrences, distinct);
            }
            TypeRef type = parsed.type();
            if (!checkType(file, type, "parameter " + written + " in " + query)) {
                return new Parameters(out, occurrences, distinct);
            }
            Parameter p = new Parameter(name, type, nullable, t.line());
            Parameter first = distinct.get(name);
            if (first == null) {
                distinct.put(name, p);
            } else if (!first.type().sameAs(type)) {
                problems.add(new Problem(file, t.line(), "parameter " + name + " in " + query + " is cast to "
                        + type.text() + " here but to " + first.type().text() + " on line " + first.line()
                        + ": one name, one type"));
                return new Parameters(out, occurrences, distinct);
            } else if (first.nullable() != nullable) {
                problems.add(new Problem(file, t.line(), "parameter " + name + " in " + query + " is written with"
                        + " sqlc.narg in one place and not in another (line " + first.line() + ")"));
                return new Parameters(out, occurrences, distinct);
            }
            occurrences.add(p);
            out.add(new Token(Kind.PARAM, name, t.line(), t.spaceBefore()));
            i = parsed.next();
        }
        return new Parameters(out, occurrences, distinct);
    }

    /** Whether the type maps to Java; if not, reports it. */
    private boolean checkType(String file, TypeRef type, String what) {
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

    private List<ResultColumn> resultColumns(String file, String table, String query, List<Token> s) {
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
            if (!checkType(c.file(), c.type(), "column " + c.name())) {
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
        if (!checkType(file, parsed.type(), "column " + alias + " in " + query)) {
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

    /** The SQL without comments, whitespace collapsed, each parameter written as a CAST. */
    private static String render(List<Token> tokens, List<Parameter> occurrences, List<Parameter> distinct,
                                 boolean numbered) {
        StringBuilder sql = new StringBuilder();
        int occurrence = 0;
        for (Token t : tokens) {
            if (sql.length() > 0 && t.spaceBefore()) {
                sql.append(' ');
            }
            if (t.kind() == Kind.PARAM) {
                Parameter p = occurrences.get(occurrence++);
                String marker = "?";
                if (numbered) {
                    int n = 0;
                    while (!distinct.get(n).name().equals(p.name())) {
                        n++;
                    }
                    marker = "?" + (n + 1);
                }
                sql.append("CAST(").append(marker).append(" AS ").append(p.type().text()).append(')');
            } else {
                sql.append(t.text());
            }
        }
        return sql.toString();
    }
}
