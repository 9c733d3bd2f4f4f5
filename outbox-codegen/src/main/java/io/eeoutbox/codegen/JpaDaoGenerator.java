package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.JavaTypes.arguments;
import static io.eeoutbox.codegen.JavaTypes.nonNullArgument;
import static io.eeoutbox.codegen.JavaTypes.resultType;
import static io.eeoutbox.codegen.JavaTypes.returnType;
import static io.eeoutbox.codegen.JavaTypes.valueOf;
import static io.eeoutbox.codegen.Sources.queryDoc;
import static io.eeoutbox.codegen.Sources.tail;
import static io.eeoutbox.codegen.SqlValuesCalls.fromJpa;
import static io.eeoutbox.codegen.SqlValuesCalls.toJpa;

import java.util.ArrayList;
import java.util.List;

/** Generates {@code <Entity>Queries.java}: the queries of a file as methods over JPA named native queries. */
final class JpaDaoGenerator {

    private JpaDaoGenerator() {
    }

    /** The JPA DAO of a queries file. */
    static String generate(Sources sources, QueryFile f, List<QueryPlan> plans) {
        JavaFile file = sources.forTable(f);
        String e = f.entity();
        String em = file.use("jakarta.persistence.EntityManager");
        file.javadoc(List.of("The queries of {@code " + tail(f.file()) + "} as JPA native queries (the named queries of",
                "{@link " + e + "}), run in the caller's persistence context and transaction. Parameters are bound",
                "and results read through {@link SqlValues}, so any JPA provider will do."));
        file.open("public final class " + e + "Queries {");
        file.line();
        file.line("private final " + em + " em;");
        file.line();
        file.open("public " + e + "Queries(" + em + " em) {");
        file.line("this.em = " + file.use("java.util.Objects") + ".requireNonNull(em, \"em\");");
        file.close("}");
        for (QueryPlan p : plans) {
            Query q = p.query();
            file.line();
            file.javadoc(queryDoc(f, q));
            String args = arguments(file, p);
            file.open("public " + returnType(file, p) + " " + q.methodName() + "(" + args + ") {");
            nonNullArgument(file, p);
            file.line(file.use("jakarta.persistence.Query") + " query = em.createNamedQuery(" + e + ".Q_"
                    + q.constantName() + ");");
            // The statement touches only this file's table: Hibernate then flushes (and evicts from
            // its second-level cache) only that table, instead of the whole persistence context
            // before every statement. Other providers ignore the hint.
            file.line("query.setHint(\"org.hibernate.query.native.spaces\", \"" + f.table() + "\");");
            for (int i = 0; i < q.parameters().size(); i++) {
                Parameter param = q.parameters().get(i);
                file.line("query.setParameter(" + (i + 1) + ", " + toJpa(param, valueOf(p, param)) + ");");
            }
            String list = file.use("java.util.List");
            switch (q.kind()) {
                case EXEC -> file.line("query.executeUpdate();");
                case EXECROWS -> file.line("return query.executeUpdate();");
                case ONE -> {
                    file.line(list + "<?> rows = query.getResultList();");
                    if (p.scalar()) {
                        ResultColumn c = q.columns().get(0);
                        String optional = file.use("java.util.Optional");
                        file.line("return rows.isEmpty() ? " + optional + ".empty() : " + optional + ".ofNullable("
                                + fromJpa(c, "SqlValues.single(rows.get(0))", true) + ");");
                    } else {
                        String optional = file.use("java.util.Optional");
                        file.line("return rows.isEmpty() ? " + optional + ".empty() : " + optional + ".of(to"
                                + p.rowRecord() + "(rows.get(0)));");
                    }
                }
                case MANY -> {
                    String type = resultType(file, p);
                    file.line(list + "<?> rows = query.getResultList();");
                    file.line(list + "<" + type + "> result = new " + file.use("java.util.ArrayList") + "<>(rows.size());");
                    file.open("for (Object row : rows) {");
                    if (p.scalar()) {
                        file.line("result.add(" + fromJpa(q.columns().get(0), "SqlValues.single(row)", true) + ");");
                    } else {
                        file.line("result.add(to" + p.rowRecord() + "(row));");
                    }
                    file.close("}");
                    file.line("return result;");
                }
                default -> throw new IllegalStateException();
            }
            file.close("}");
        }
        for (QueryPlan p : plans) {
            if (!p.ownsRow()) {
                continue;
            }
            List<ResultColumn> columns = p.query().columns();
            file.line();
            file.open("private static " + p.rowRecord() + " to" + p.rowRecord() + "(Object row) {");
            file.line("Object[] c = SqlValues.columns(row, " + columns.size() + ");");
            List<String> values = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                values.add(fromJpa(columns.get(i), "c[" + i + "]", false));
            }
            file.line("return new " + p.rowRecord() + "(");
            for (int i = 0; i < values.size(); i++) {
                file.line("        " + values.get(i) + (i + 1 < values.size() ? "," : ");"));
            }
            file.close("}");
        }
        file.close("}");
        return file.text();
    }
}
