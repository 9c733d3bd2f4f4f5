package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.JavaTypes.pgType;
import static io.eeoutbox.codegen.JavaTypes.qualifiedType;
import static io.eeoutbox.codegen.Sources.tail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Generates {@code GeneratedQueries.java}, once for all files: every query with what the generator made of it; for
 * test code, {@code GeneratedTestingQueries.java} with the records of the main code's {@code GeneratedQueries}.
 */
final class RegistryGenerator {

    /** The main code's registry, which declares the records. */
    static final String MAIN = "GeneratedQueries";

    private RegistryGenerator() {
    }

    /** The registry of every query of every file, in file order. */
    static String generate(Sources sources, List<QueryFile> files, Map<QueryFile, List<QueryPlan>> plans,
                           String className) {
        JavaFile file = sources.shared();
        String list = file.use("java.util.List");
        boolean main = className.equals(MAIN);
        if (main) {
            file.javadoc(List.of("Every generated query with what the generator made of it, for tests that check the",
                    "generated code against a real database (parameter and result metadata of each statement)."));
        } else {
            for (String record : List.of("QueryInfo", "ParameterInfo", "ColumnInfo")) {
                file.use(sources.packageName() + "." + MAIN + "." + record);
            }
            file.javadoc(List.of("Every query of {@code " + sources.queriesDir() + "} (run only by tests and the"
                    + " benchmark) with what", "the generator made of it, in the records of {@link " + MAIN + "}."));
        }
        file.open("public final class " + className + " {");
        file.line();
        if (main) {
            records(file, list);
        }
        file.line("/** All queries, file by file, in file order. */");
        file.line("public static final " + list + "<QueryInfo> ALL = " + list + ".of(");
        List<String> entries = new ArrayList<>();
        for (QueryFile f : files) {
            for (QueryPlan p : plans.get(f)) {
                entries.add(registryEntry(f, p, list));
            }
        }
        for (int i = 0; i < entries.size(); i++) {
            file.line("        " + entries.get(i) + (i + 1 < entries.size() ? "," : ");"));
        }
        file.line();
        file.open("private " + className + "() {");
        file.close("}");
        file.close("}");
        return file.text();
    }

    private static void records(JavaFile file, String list) {
        file.javadoc(List.of("A parameter: its SQL name, Java name, the type written in its cast, the PostgreSQL type",
                "name JDBC reports for it ({@code int4}, {@code _uuid}), its Java type as reflection prints it, and",
                "whether it may be null."));
        file.line("public record ParameterInfo(String name, String javaName, String sqlType, String pgType,");
        file.open("        String javaType, boolean nullable) {");
        file.close("}");
        file.line();
        file.javadoc(List.of("A result column: like {@link ParameterInfo}, plus whether its type comes from the",
                "schema (a plain column) rather than from a cast."));
        file.line("public record ColumnInfo(String name, String javaName, String sqlType, String pgType,");
        file.open("        String javaType, boolean nullable, boolean fromSchema) {");
        file.close("}");
        file.line();
        file.javadoc(List.of("A query: where it is, its kind ({@code :one}...), its DAO method, its two SQL forms, the",
                "parameter bound at each {@code ?} of the JDBC form, its distinct parameters (in {@code ?n} order),",
                "its result columns, and its parameter and row records (null when there are none)."));
        file.line("public record QueryInfo(String file, String entity, String name, String kind, String methodName,");
        file.line("        String jdbcSql, String nativeSql, " + list + "<String> jdbcParameters,");
        file.line("        " + list + "<ParameterInfo> parameters, " + list + "<ColumnInfo> columns,");
        file.open("        Class<?> paramsRecord, Class<?> rowRecord) {");
        file.line();
        file.line("/** The number of {@code ?} in {@link #jdbcSql()}. */");
        file.open("public int jdbcParameterCount() {");
        file.line("return jdbcParameters.size();");
        file.close("}");
        file.close("}");
        file.line();
    }

    private static String registryEntry(QueryFile f, QueryPlan p, String list) {
        Query q = p.query();
        String e = f.entity();
        String c = q.constantName();
        String in = "\n                ";
        StringBuilder s = new StringBuilder("new QueryInfo(");
        s.append(JavaText.literal(tail(f.file()))).append(", ").append(JavaText.literal(e)).append(", ")
                .append(JavaText.literal(q.name())).append(", ").append(JavaText.literal(q.kind().annotation))
                .append(", ").append(JavaText.literal(q.methodName())).append(",");
        s.append(in).append(e).append("Sql.").append(c).append(", ").append(e).append("Sql.").append(c)
                .append("_NATIVE, ").append(e).append("Sql.").append(c).append("_PARAMETERS,");
        s.append(in).append(list).append(".of(");
        for (int i = 0; i < q.parameters().size(); i++) {
            Parameter param = q.parameters().get(i);
            s.append(i == 0 ? "" : ",").append(in).append("        new ParameterInfo(")
                    .append(JavaText.literal(param.name())).append(", ")
                    .append(JavaText.literal(param.javaName())).append(", ")
                    .append(JavaText.literal(param.type().text())).append(", ")
                    .append(JavaText.literal(pgType(param.type()))).append(", ")
                    .append(JavaText.literal(qualifiedType(param.type(), param.nullable()))).append(", ")
                    .append(param.nullable()).append(")");
        }
        s.append("),");
        s.append(in).append(list).append(".of(");
        for (int i = 0; i < q.columns().size(); i++) {
            ResultColumn col = q.columns().get(i);
            s.append(i == 0 ? "" : ",").append(in).append("        new ColumnInfo(")
                    .append(JavaText.literal(col.name())).append(", ")
                    .append(JavaText.literal(col.javaName())).append(", ")
                    .append(JavaText.literal(col.type().text())).append(", ")
                    .append(JavaText.literal(pgType(col.type()))).append(", ")
                    .append(JavaText.literal(qualifiedType(col.type(), col.nullable()))).append(", ")
                    .append(col.nullable()).append(", ").append(col.fromSchema()).append(")");
        }
        s.append("),");
        s.append(in).append(p.paramsRecord() != null ? p.paramsRecord() + ".class" : "null").append(", ")
                .append(p.rowRecord() != null ? p.rowRecord() + ".class" : "null").append(")");
        return s.toString();
    }
}
