package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.Sources.tail;

import java.util.List;

/** Generates {@code <Entity>Sql.java}: each query's JDBC form, its parameter order and its native-query form. */
final class SqlConstantsGenerator {

    private SqlConstantsGenerator() {
    }

    /** The SQL constants of a queries file. */
    static String generate(Sources sources, QueryFile f) {
        JavaFile file = sources.forTable(f);
        String list = file.use("java.util.List");
        file.javadoc(List.of("The SQL of {@code " + tail(f.file()) + "}. For each query: its JDBC form, with a {@code ?}",
                "for every occurrence of a parameter (written {@code CAST(? AS type)}); the parameter bound at each",
                "{@code ?}, in order ({@code _PARAMETERS}); and its native-query form, with {@code ?1..?n} numbered",
                "by first appearance ({@code _NATIVE}), for JPA."));
        file.open("public final class " + f.entity() + "Sql {");
        for (Query q : f.queries()) {
            String c = q.constantName();
            file.line();
            file.line("/** {@code " + q.name() + " " + q.kind().annotation + "}, JDBC form. */");
            file.line("public static final String " + c + " =");
            file.line("        " + JavaText.longLiteral(q.jdbcSql(), file.indentation(2)) + ";");
            file.line();
            file.line("/** The parameter bound at each {@code ?} of {@link #" + c + "}. */");
            List<String> names = q.occurrences().stream().map(p -> JavaText.literal(p.name())).toList();
            file.line("public static final " + list + "<String> " + c + "_PARAMETERS = " + list + ".of("
                    + String.join(", ", names) + ");");
            file.line();
            file.line("/** {@code " + q.name() + " " + q.kind().annotation + "}, native-query form. */");
            file.line("public static final String " + c + "_NATIVE =");
            file.line("        " + JavaText.longLiteral(q.nativeSql(), file.indentation(2)) + ";");
        }
        file.line();
        file.open("private " + f.entity() + "Sql() {");
        file.close("}");
        file.close("}");
        return file.text();
    }
}
