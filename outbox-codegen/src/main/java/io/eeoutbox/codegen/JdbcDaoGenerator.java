package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.JavaTypes.arguments;
import static io.eeoutbox.codegen.JavaTypes.nonNullArgument;
import static io.eeoutbox.codegen.JavaTypes.resultType;
import static io.eeoutbox.codegen.JavaTypes.returnType;
import static io.eeoutbox.codegen.JavaTypes.valueOf;
import static io.eeoutbox.codegen.Sources.queryDoc;
import static io.eeoutbox.codegen.Sources.tail;
import static io.eeoutbox.codegen.SqlValuesCalls.fromJdbc;
import static io.eeoutbox.codegen.SqlValuesCalls.toJdbc;

import java.util.List;

/** Generates {@code <Entity>Jdbc.java}: the queries of a file as methods over plain JDBC. */
final class JdbcDaoGenerator {

    private JdbcDaoGenerator() {
    }

    /** The JDBC DAO of a queries file. */
    static String generate(Sources sources, QueryFile f, List<QueryPlan> plans) {
        JavaFile file = sources.forTable(f);
        String e = f.entity();
        String connection = file.use("java.sql.Connection");
        String sqlException = file.use("java.sql.SQLException");
        file.javadoc(List.of("The queries of {@code " + tail(f.file()) + "} over plain JDBC, on a connection the caller",
                "owns (and whose transaction it controls). Each call prepares, runs and closes its own statement."));
        file.open("public final class " + e + "Jdbc {");
        file.line();
        file.line("private final " + connection + " connection;");
        file.line();
        file.open("public " + e + "Jdbc(" + connection + " connection) {");
        file.line("this.connection = " + file.use("java.util.Objects") + ".requireNonNull(connection, \"connection\");");
        file.close("}");
        String ps = file.use("java.sql.PreparedStatement");
        for (QueryPlan p : plans) {
            Query q = p.query();
            file.line();
            file.javadoc(queryDoc(f, q));
            String args = arguments(file, p);
            file.open("public " + returnType(file, p) + " " + q.methodName() + "(" + args + ") throws " + sqlException
                    + " {");
            nonNullArgument(file, p);
            file.open("try (" + ps + " statement = connection.prepareStatement(" + e + "Sql." + q.constantName()
                    + ")) {");
            for (int i = 0; i < q.occurrences().size(); i++) {
                Parameter param = q.occurrences().get(i);
                file.line(toJdbc(param, i + 1, valueOf(p, param)));
            }
            switch (q.kind()) {
                case EXEC -> file.line("statement.executeUpdate();");
                case EXECROWS -> file.line("return statement.executeUpdate();");
                case ONE -> {
                    String optional = file.use("java.util.Optional");
                    file.open("try (" + file.use("java.sql.ResultSet") + " rs = statement.executeQuery()) {");
                    if (p.scalar()) {
                        file.line("return rs.next() ? " + optional + ".ofNullable(" + fromJdbcBoxed(q.columns().get(0))
                                + ") : " + optional + ".empty();");
                    } else {
                        file.line("return rs.next() ? " + optional + ".of(read" + p.rowRecord() + "(rs)) : " + optional
                                + ".empty();");
                    }
                    file.close("}");
                }
                case MANY -> {
                    String list = file.use("java.util.List");
                    file.open("try (" + file.use("java.sql.ResultSet") + " rs = statement.executeQuery()) {");
                    file.line(list + "<" + resultType(file, p) + "> result = new " + file.use("java.util.ArrayList")
                            + "<>();");
                    file.open("while (rs.next()) {");
                    file.line("result.add(" + (p.scalar() ? fromJdbcBoxed(q.columns().get(0)) : "read" + p.rowRecord()
                            + "(rs)") + ");");
                    file.close("}");
                    file.line("return result;");
                    file.close("}");
                }
                default -> throw new IllegalStateException();
            }
            file.close("}");
            file.close("}");
        }
        for (QueryPlan p : plans) {
            if (!p.ownsRow()) {
                continue;
            }
            List<ResultColumn> columns = p.query().columns();
            file.line();
            file.open("private static " + p.rowRecord() + " read" + p.rowRecord() + "(" + file.use("java.sql.ResultSet")
                    + " rs) throws " + sqlException + " {");
            file.line("return new " + p.rowRecord() + "(");
            for (int i = 0; i < columns.size(); i++) {
                file.line("        " + fromJdbc(columns.get(i), i + 1) + (i + 1 < columns.size() ? "," : ");"));
            }
            file.close("}");
        }
        file.close("}");
        return file.text();
    }

    /** A single-column result read boxed, so that a NULL becomes an empty Optional or a null element. */
    private static String fromJdbcBoxed(ResultColumn c) {
        return fromJdbc(new ResultColumn(c.name(), c.type(), true, c.fromSchema(), c.line()), 1);
    }
}
