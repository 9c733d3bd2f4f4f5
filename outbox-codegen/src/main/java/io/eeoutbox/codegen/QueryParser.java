package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import io.eeoutbox.codegen.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a queries file in sqlc format and checks each query against the schema.
 *
 * <p>A query starts with {@code -- name: QueryName :kind}; the comment lines that follow are its
 * documentation; its statement runs to the terminating {@code ;}. Parameters are
 * {@code @name::type}, {@code sqlc.arg(name)::type} or {@code sqlc.narg(name)::type}. The result
 * columns (the SELECT list, or the RETURNING list) are plain or qualified column names, typed from
 * the schema, or expressions that end in a {@code ::type} cast and carry an {@code AS alias}.
 *
 * <p>Problems are collected, each with its file and line, so that one run reports them all. The
 * parameters are found by {@link ParameterReader}, the result columns typed by {@link ResultColumnReader}.
 */
final class QueryParser {

    private static final Pattern NAME_LINE = Pattern.compile("^--\\s*name:(.*)$");
    private static final Pattern QUERY_NAME = Pattern.compile("[A-Z][A-Za-z0-9]*");

    private final Schema schema;
    private final List<Problem> problems;
    private final ParameterReader parameters;
    private final ResultColumnReader resultColumns;

    /** @param problems where problems go; the caller throws when it is not empty */
    QueryParser(Schema schema, List<Problem> problems) {
        this.schema = schema;
        this.problems = problems;
        this.parameters = new ParameterReader(problems);
        this.resultColumns = new ResultColumnReader(schema, problems);
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
        ParameterReader.Parameters params = parameters.read(file, name, statement);
        if (problems.size() > before) {
            return null;
        }
        List<ResultColumn> columns = resultColumns.read(file, table, name, params.tokens());
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
        List<Parameter> distinct = List.copyOf(params.distinct().values());
        String jdbc = render(params.tokens(), params.occurrences(), distinct, false);
        String nativeSql = render(params.tokens(), params.occurrences(), distinct, true);
        return new Query(name, kind, new Query.Origin(file, line, List.copyOf(doc)), distinct, columns,
                new Query.Sql(jdbc, List.copyOf(params.occurrences()), nativeSql));
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
