package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes the Java sources for parsed queries files. Per file {@code <table>.sql}: the entity, the SQL
 * constants, the parameter and row records, the JPA DAO and the JDBC DAO; once for all files: the
 * {@code SqlValues} conversions and the {@code GeneratedQueries} registry.
 */
final class JavaGenerator {

    /** Simple names the generated files import or use unqualified: a generated type must not take one. */
    private static final Set<String> TAKEN = Set.of("UUID", "Instant", "OffsetDateTime", "List", "ArrayList",
            "Optional", "Objects", "Serializable", "Query", "EntityManager", "Entity", "Table", "Column", "Id",
            "IdClass", "NamedNativeQuery", "NamedNativeQueries", "Connection", "PreparedStatement", "ResultSet",
            "SQLException", "String", "Integer", "Long", "Boolean", "Object", "Override", "Class", "Record",
            "Math", "System");
    /** Local and field names in generated methods: an argument must not take one. */
    private static final Set<String> LOCALS = Set.of("query", "rows", "result", "row", "statement", "rs", "p", "em",
            "connection");

    private final String packageName;
    private final String queriesDir;

    /**
     * @param packageName the package of the generated classes
     * @param queriesDir  how headers name the queries folder, such as {@code sql/queries}
     */
    JavaGenerator(String packageName, String queriesDir) {
        this.packageName = packageName;
        this.queriesDir = queriesDir;
    }

    /** What a query turns into in Java. */
    private record Plan(Query query, String paramsRecord, String rowRecord, boolean ownsRow, String argName) {

        boolean scalar() {
            return query.columns().size() == 1;
        }
    }

    /** The generated files: path relative to the output directory, to content. Sorted by path. */
    Map<String, String> generate(List<QueryFile> files, Schema schema) {
        List<Problem> problems = new ArrayList<>();
        Map<String, String> out = new TreeMap<>();
        Map<String, String> typeOwners = new LinkedHashMap<>();
        Map<QueryFile, List<Plan>> plans = new LinkedHashMap<>();
        claim(typeOwners, problems, "SqlValues", "the generator", null, 0);
        claim(typeOwners, problems, "GeneratedQueries", "the generator", null, 0);
        for (QueryFile f : files) {
            String e = f.entity();
            for (String suffix : List.of("", "Sql", "Queries", "Jdbc")) {
                claim(typeOwners, problems, e + suffix, "table " + f.table(), f.file(), 1);
            }
            List<Plan> list = new ArrayList<>();
            for (Query q : f.queries()) {
                String params = q.parameters().size() >= 2 ? q.name() + "Params" : null;
                if (params != null) {
                    claim(typeOwners, problems, params, "query " + q.name(), q.file(), q.line());
                }
                String row = null;
                boolean owns = false;
                if (q.columns().size() >= 2) {
                    for (Plan earlier : list) {
                        if (earlier.ownsRow() && sameColumns(earlier.query().columns(), q.columns())) {
                            row = earlier.rowRecord();
                        }
                    }
                    if (row == null) {
                        row = q.name() + "Row";
                        owns = true;
                        claim(typeOwners, problems, row, "query " + q.name(), q.file(), q.line());
                    }
                }
                String arg = null;
                if (q.parameters().size() == 1) {
                    arg = q.parameters().get(0).javaName();
                    arg = LOCALS.contains(arg) ? arg + "Value" : arg;
                }
                list.add(new Plan(q, params, row, owns, arg));
            }
            checkMembers(f, problems);
            plans.put(f, list);
        }
        if (!problems.isEmpty()) {
            throw new CodegenException(problems);
        }
        for (QueryFile f : files) {
            Schema.Table table = schema.table(f.table()).orElseThrow();
            List<Plan> list = plans.get(f);
            put(out, f.entity(), entity(f, table, list));
            put(out, f.entity() + "Sql", sqlConstants(f));
            for (Plan p : list) {
                if (p.paramsRecord() != null) {
                    put(out, p.paramsRecord(), paramsRecord(f, p));
                }
                if (p.ownsRow()) {
                    put(out, p.rowRecord(), rowRecord(f, p, list));
                }
            }
            put(out, f.entity() + "Queries", jpaDao(f, list));
            put(out, f.entity() + "Jdbc", jdbcDao(f, list));
        }
        put(out, "SqlValues", sqlValues());
        put(out, "GeneratedQueries", registry(files, plans));
        return out;
    }

    private static void claim(Map<String, String> owners, List<Problem> problems, String type, String owner,
                              String file, int line) {
        if (TAKEN.contains(type)) {
            problems.add(new Problem(file, line, owner + " would generate a type named " + type
                    + ", which clashes with a class the generated code uses"));
        } else if (owners.containsKey(type)) {
            problems.add(new Problem(file, line, owner + " would generate a type named " + type
                    + ", as " + owners.get(type) + " does"));
        } else {
            owners.put(type, owner);
        }
    }

    /** Constant names in the Sql class must not collide (a query named FooNative next to Foo). */
    private static void checkMembers(QueryFile f, List<Problem> problems) {
        Map<String, String> constants = new LinkedHashMap<>();
        for (Query q : f.queries()) {
            for (String c : List.of(q.constantName(), q.constantName() + "_PARAMETERS", q.constantName() + "_NATIVE")) {
                String other = constants.putIfAbsent(c, q.name());
                if (other != null) {
                    problems.add(new Problem(q.file(), q.line(), "query " + q.name() + " would generate the constant "
                            + c + ", as query " + other + " does: rename one"));
                }
            }
        }
    }

    private void put(Map<String, String> out, String type, String content) {
        out.put(packageName.replace('.', '/') + "/" + type + ".java", content);
    }

    private static boolean sameColumns(List<ResultColumn> a, List<ResultColumn> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).sameAs(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private String header(String source) {
        return "// Generated by ee-outbox codegen from " + source + " \u2014 do not edit.";
    }

    private JavaFile file(QueryFile f) {
        return new JavaFile(packageName, header(f.file()));
    }

    // ---- types ------------------------------------------------------------------------------

    /** The Java type of a value of {@code type}, imported into {@code file}. */
    private static String javaType(JavaFile file, TypeRef type, boolean nullable) {
        SqlType t = type.sqlType();
        if (t.importName != null) {
            file.use(t.importName);
        }
        if (type.isArray()) {
            return file.use("java.util.List") + "<" + t.boxed + ">";
        }
        return nullable ? t.boxed : t.primitive;
    }

    /** The same, fully qualified, as reflection prints it. */
    private static String qualifiedType(TypeRef type, boolean nullable) {
        SqlType t = type.sqlType();
        String boxed = t.importName != null ? t.importName : "java.lang." + t.boxed;
        if (type.isArray()) {
            return "java.util.List<" + boxed + ">";
        }
        return nullable ? boxed : t.isPrimitive() ? t.primitive : boxed;
    }

    private static String boxed(JavaFile file, TypeRef type) {
        return javaType(file, type, true);
    }

    /** The PostgreSQL type name that JDBC metadata reports: {@code int4}, {@code _uuid}. */
    private static String pgType(TypeRef type) {
        return (type.isArray() ? "_" : "") + type.sqlType().pgName;
    }

    /** The element type of a query's result: its row record or its one column's boxed type. */
    private static String resultType(JavaFile file, Plan p) {
        if (p.scalar()) {
            return boxed(file, p.query().columns().get(0).type());
        }
        return p.rowRecord();
    }

    private static String returnType(JavaFile file, Plan p) {
        return switch (p.query().kind()) {
            case ONE -> file.use("java.util.Optional") + "<" + resultType(file, p) + ">";
            case MANY -> file.use("java.util.List") + "<" + resultType(file, p) + ">";
            case EXEC -> "void";
            case EXECROWS -> "int";
        };
    }

    private static String arguments(JavaFile file, Plan p) {
        List<Parameter> params = p.query().parameters();
        if (params.isEmpty()) {
            return "";
        }
        if (params.size() == 1) {
            return javaType(file, params.get(0).type(), params.get(0).nullable()) + " " + p.argName();
        }
        return p.paramsRecord() + " p";
    }

    /** The Java expression for a parameter's value inside a DAO method. */
    private static String valueOf(Plan p, Parameter param) {
        return p.paramsRecord() != null ? "p." + param.javaName() + "()" : p.argName();
    }

    private static String elementConverter(SqlType t) {
        return switch (t) {
            case UUID -> "SqlValues::toUuid";
            case TIMESTAMPTZ -> "SqlValues::toInstant";
            case INT -> "SqlValues::toIntOrNull";
            case BIGINT -> "SqlValues::toLongOrNull";
            case BOOLEAN -> "SqlValues::toBooleanOrNull";
            default -> "SqlValues::toText";
        };
    }

    /** Converts a native-query value (the expression {@code value}) to the column's Java type. */
    private static String fromJpa(ResultColumn c, String value, boolean boxed) {
        SqlType t = c.sqlType();
        if (c.type().isArray()) {
            return "SqlValues.toList(" + value + ", " + elementConverter(t) + ")";
        }
        boolean nullable = c.nullable() || boxed;
        return switch (t) {
            case UUID -> "SqlValues.toUuid(" + value + ")";
            case TIMESTAMPTZ -> "SqlValues.toInstant(" + value + ")";
            case INT -> nullable ? "SqlValues.toIntOrNull(" + value + ")"
                    : "SqlValues.toInt(" + value + ", " + JavaText.literal(c.name()) + ")";
            case BIGINT -> nullable ? "SqlValues.toLongOrNull(" + value + ")"
                    : "SqlValues.toLong(" + value + ", " + JavaText.literal(c.name()) + ")";
            case BOOLEAN -> nullable ? "SqlValues.toBooleanOrNull(" + value + ")"
                    : "SqlValues.toBoolean(" + value + ", " + JavaText.literal(c.name()) + ")";
            default -> "SqlValues.toText(" + value + ")";
        };
    }

    /** Reads column {@code index} of the ResultSet {@code rs}. */
    private static String fromJdbc(ResultColumn c, int index) {
        SqlType t = c.sqlType();
        if (c.type().isArray()) {
            return "SqlValues.getList(rs, " + index + ", " + elementConverter(t) + ")";
        }
        return switch (t) {
            case UUID -> "SqlValues.getUuid(rs, " + index + ")";
            case TIMESTAMPTZ -> "SqlValues.getInstant(rs, " + index + ")";
            case INT -> c.nullable() ? "SqlValues.getIntOrNull(rs, " + index + ")" : "rs.getInt(" + index + ")";
            case BIGINT -> c.nullable() ? "SqlValues.getLongOrNull(rs, " + index + ")" : "rs.getLong(" + index + ")";
            case BOOLEAN -> c.nullable() ? "SqlValues.getBooleanOrNull(rs, " + index + ")"
                    : "rs.getBoolean(" + index + ")";
            default -> "rs.getString(" + index + ")";
        };
    }

    /** The value bound for a parameter of a native (JPA) query. */
    private static String toJpa(Parameter param, String value) {
        if (param.type().isArray()) {
            return "SqlValues.arrayParameter(" + value + ")";
        }
        return switch (param.sqlType()) {
            case UUID -> "SqlValues.uuidParameter(" + value + ")";
            case TIMESTAMPTZ -> "SqlValues.instantParameter(" + value + ")";
            default -> value;
        };
    }

    /** The statement that binds a parameter at {@code index} of a PreparedStatement. */
    private static String toJdbc(Parameter param, int index, String value) {
        String at = "statement, " + index + ", " + value + ");";
        if (param.type().isArray()) {
            return "SqlValues.setArray(statement, " + index + ", " + JavaText.literal(param.sqlType().pgName) + ", "
                    + value + ");";
        }
        boolean nullable = param.nullable();
        return switch (param.sqlType()) {
            case UUID -> "SqlValues.setUuid(" + at;
            case TIMESTAMPTZ -> "SqlValues.setInstant(" + at;
            case VARCHAR, TEXT -> "SqlValues.setText(" + at;
            case JSON, JSONB -> "SqlValues.setJson(" + at;
            case INT -> nullable ? "SqlValues.setIntOrNull(" + at : "statement.setInt(" + index + ", " + value + ");";
            case BIGINT -> nullable ? "SqlValues.setLongOrNull(" + at
                    : "statement.setLong(" + index + ", " + value + ");";
            case BOOLEAN -> nullable ? "SqlValues.setBooleanOrNull(" + at
                    : "statement.setBoolean(" + index + ", " + value + ");";
        };
    }

    // ---- javadoc ----------------------------------------------------------------------------

    private static List<String> queryDoc(QueryFile f, Query q) {
        List<String> lines = new ArrayList<>();
        for (String d : q.doc()) {
            lines.add(JavaText.doc(d));
        }
        if (!lines.isEmpty()) {
            lines.add("");
            lines.add("<p>Query {@code " + q.name() + " " + q.kind().annotation + "} of {@code " + tail(f.file())
                    + "}.");
        } else {
            lines.add("Query {@code " + q.name() + " " + q.kind().annotation + "} of {@code " + tail(f.file())
                    + "}.");
        }
        return lines;
    }

    private static String tail(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    // ---- the entity -------------------------------------------------------------------------

    private String entity(QueryFile f, Schema.Table table, List<Plan> plans) {
        JavaFile file = file(f);
        String e = f.entity();
        List<Schema.Column> key = table.primaryKey();
        if (key.isEmpty()) {
            throw new CodegenException(table.file(), table.line(), "table " + table.name()
                    + " has no primary key: the entity " + e + " needs one");
        }
        for (Schema.Column c : table.columns()) {
            if (c.type().sqlType() == null || c.type().arrayDims() > 1) {
                throw new CodegenException(c.file(), c.line(), "unknown type " + c.type().text() + " of column "
                        + table.name() + "." + c.name() + " (known: uuid, varchar, text, int, bigint, boolean,"
                        + " timestamptz, jsonb, json and their one-dimensional arrays)");
            }
        }
        List<String> doc = new ArrayList<>();
        doc.add("The table {@code " + table.name() + "}, read only: its rows are written through the named native");
        doc.add("queries below (see {@link " + e + "Queries}), whose names are the {@code Q_} constants.");
        file.javadoc(doc);
        file.line("@" + file.use("jakarta.persistence.Entity"));
        file.line("@" + file.use("jakarta.persistence.Table") + "(name = " + JavaText.literal(table.name()) + ")");
        if (key.size() > 1) {
            file.line("@" + file.use("jakarta.persistence.IdClass") + "(" + e + ".PrimaryKey.class)");
        }
        if (!plans.isEmpty()) {
            file.open("@" + file.use("jakarta.persistence.NamedNativeQueries") + "({");
            String named = file.use("jakarta.persistence.NamedNativeQuery");
            for (int i = 0; i < plans.size(); i++) {
                Query q = plans.get(i).query();
                file.line("@" + named + "(name = " + e + ".Q_" + q.constantName() + ",");
                file.line("        query = " + e + "Sql." + q.constantName() + "_NATIVE)"
                        + (i + 1 < plans.size() ? "," : ""));
            }
            file.close("})");
        }
        file.open("public class " + e + " {");
        for (Plan p : plans) {
            Query q = p.query();
            file.line();
            file.line("/** Name of the named native query {@code " + q.name() + "}. */");
            file.line("public static final String Q_" + q.constantName() + " = "
                    + JavaText.literal(e + "." + q.name()) + ";");
        }
        String columnAnnotation = file.use("jakarta.persistence.Column");
        for (Schema.Column c : table.columns()) {
            file.line();
            if (c.primaryKey()) {
                file.line("@" + file.use("jakarta.persistence.Id"));
            }
            String definition = c.type().sqlType().isJson() && !c.type().isArray()
                    ? ", columnDefinition = " + JavaText.literal(c.type().sqlType().pgName) : "";
            file.line("@" + columnAnnotation + "(name = " + JavaText.literal(c.name())
                    + ", insertable = false, updatable = false" + definition + ")");
            file.line("private " + entityType(file, c) + " " + Names.lowerCamel(c.name()) + ";");
        }
        file.line();
        file.open("protected " + e + "() {");
        file.close("}");
        for (Schema.Column c : table.columns()) {
            file.line();
            String type = entityType(file, c);
            file.open("public " + type + " " + getter(c, type) + "() {");
            file.line("return " + Names.lowerCamel(c.name()) + ";");
            file.close("}");
        }
        if (key.size() > 1) {
            primaryKeyClass(file, table, key);
        }
        file.close("}");
        return file.text();
    }

    private static String entityType(JavaFile file, Schema.Column c) {
        if (c.type().sqlType() == SqlType.TIMESTAMPTZ) {
            String odt = file.use("java.time.OffsetDateTime");
            return c.type().isArray() ? file.use("java.util.List") + "<" + odt + ">" : odt;
        }
        return javaType(file, c.type(), c.nullable());
    }

    private static String getter(Schema.Column c, String type) {
        return (type.equals("boolean") ? "is" : "get") + Names.pascal(c.name());
    }

    private static void primaryKeyClass(JavaFile file, Schema.Table table, List<Schema.Column> key) {
        file.line();
        file.javadoc(List.of("The primary key of {@code " + table.name() + "}, the entity's id class."));
        file.open("public static final class PrimaryKey implements " + file.use("java.io.Serializable") + " {");
        file.line();
        file.line("private static final long serialVersionUID = 1L;");
        List<String> params = new ArrayList<>();
        for (Schema.Column c : key) {
            file.line();
            file.line("private " + entityType(file, c) + " " + Names.lowerCamel(c.name()) + ";");
            params.add(entityType(file, c) + " " + Names.lowerCamel(c.name()));
        }
        file.line();
        file.open("public PrimaryKey() {");
        file.close("}");
        file.line();
        file.open("public PrimaryKey(" + String.join(", ", params) + ") {");
        for (Schema.Column c : key) {
            String n = Names.lowerCamel(c.name());
            file.line("this." + n + " = " + n + ";");
        }
        file.close("}");
        for (Schema.Column c : key) {
            file.line();
            String type = entityType(file, c);
            file.open("public " + type + " " + getter(c, type) + "() {");
            file.line("return " + Names.lowerCamel(c.name()) + ";");
            file.close("}");
        }
        String objects = file.use("java.util.Objects");
        file.line();
        file.line("@Override");
        file.open("public boolean equals(Object o) {");
        file.open("if (this == o) {");
        file.line("return true;");
        file.close("}");
        file.open("if (!(o instanceof PrimaryKey)) {");
        file.line("return false;");
        file.close("}");
        file.line("PrimaryKey other = (PrimaryKey) o;");
        List<String> equal = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Schema.Column c : key) {
            String n = Names.lowerCamel(c.name());
            names.add(n);
            boolean primitive = Set.of("int", "long", "boolean").contains(entityType(file, c));
            equal.add(primitive ? n + " == other." + n : objects + ".equals(" + n + ", other." + n + ")");
        }
        file.line("return " + String.join("\n" + file.indentation(2) + "&& ", equal) + ";");
        file.close("}");
        file.line();
        file.line("@Override");
        file.open("public int hashCode() {");
        file.line("return " + objects + ".hash(" + String.join(", ", names) + ");");
        file.close("}");
        file.close("}");
    }

    // ---- the SQL constants ------------------------------------------------------------------

    private String sqlConstants(QueryFile f) {
        JavaFile file = file(f);
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

    // ---- records ----------------------------------------------------------------------------

    private String paramsRecord(QueryFile f, Plan p) {
        Query q = p.query();
        JavaFile file = file(f);
        List<String> doc = new ArrayList<>();
        doc.add("The parameters of {@code " + q.name() + "}.");
        doc.add("");
        List<String> components = new ArrayList<>();
        for (Parameter param : q.parameters()) {
            doc.add("@param " + param.javaName() + " {@code " + param.name() + "::" + param.type().text() + "}"
                    + (param.nullable() ? ", may be null" : ""));
            components.add(javaType(file, param.type(), param.nullable()) + " " + param.javaName());
        }
        file.javadoc(doc);
        List<Parameter> required = q.parameters().stream()
                .filter(x -> !x.nullable() && (x.type().isArray() || !x.sqlType().isPrimitive())).toList();
        recordHeader(file, p.paramsRecord(), components);
        if (!required.isEmpty()) {
            String objects = file.use("java.util.Objects");
            file.line();
            file.open("public " + p.paramsRecord() + " {");
            for (Parameter param : required) {
                file.line(objects + ".requireNonNull(" + param.javaName() + ", " + JavaText.literal(param.javaName())
                        + ");");
            }
            file.close("}");
        }
        file.close("}");
        return file.text();
    }

    private String rowRecord(QueryFile f, Plan p, List<Plan> all) {
        JavaFile file = file(f);
        List<String> users = new ArrayList<>();
        for (Plan other : all) {
            if (p.rowRecord().equals(other.rowRecord())) {
                users.add("{@code " + other.query().name() + "}");
            }
        }
        List<String> doc = new ArrayList<>();
        doc.add("A row of " + String.join(" and ", users) + ".");
        doc.add("");
        List<String> components = new ArrayList<>();
        for (ResultColumn c : p.query().columns()) {
            doc.add("@param " + c.javaName() + " {@code " + c.name() + " " + c.type().text() + "}"
                    + (c.nullable() ? ", may be null" : ""));
            components.add(javaType(file, c.type(), c.nullable()) + " " + c.javaName());
        }
        file.javadoc(doc);
        recordHeader(file, p.rowRecord(), components);
        file.close("}");
        return file.text();
    }

    private static void recordHeader(JavaFile file, String name, List<String> components) {
        String oneLine = "public record " + name + "(" + String.join(", ", components) + ") {";
        if (oneLine.length() <= 110) {
            file.open(oneLine);
            return;
        }
        file.line("public record " + name + "(");
        for (int i = 0; i < components.size(); i++) {
            file.line("        " + components.get(i) + (i + 1 < components.size() ? "," : ") {"));
        }
        file.indent();
    }

    // ---- the JPA DAO ------------------------------------------------------------------------

    private String jpaDao(QueryFile f, List<Plan> plans) {
        JavaFile file = file(f);
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
        for (Plan p : plans) {
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
        for (Plan p : plans) {
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

    private static void nonNullArgument(JavaFile file, Plan p) {
        List<Parameter> params = p.query().parameters();
        if (params.size() >= 2) {
            file.line(file.use("java.util.Objects") + ".requireNonNull(p, \"p\");");
        } else if (params.size() == 1) {
            Parameter param = params.get(0);
            if (!param.nullable() && (param.type().isArray() || !param.sqlType().isPrimitive())) {
                file.line(file.use("java.util.Objects") + ".requireNonNull(" + p.argName() + ", "
                        + JavaText.literal(p.argName()) + ");");
            }
        }
    }

    // ---- the JDBC DAO -----------------------------------------------------------------------

    private String jdbcDao(QueryFile f, List<Plan> plans) {
        JavaFile file = file(f);
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
        for (Plan p : plans) {
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
        for (Plan p : plans) {
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

    // ---- shared classes ---------------------------------------------------------------------

    private String sqlValues() {
        String template;
        try (InputStream in = JavaGenerator.class.getResourceAsStream("SqlValues.java.txt")) {
            if (in == null) {
                throw new IllegalStateException("SqlValues.java.txt is missing from the generator");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read SqlValues.java.txt", e);
        }
        return template.replace("@@HEADER@@", header(queriesDir)).replace("@@PACKAGE@@", packageName);
    }

    private String registry(List<QueryFile> files, Map<QueryFile, List<Plan>> plans) {
        JavaFile file = new JavaFile(packageName, header(queriesDir));
        String list = file.use("java.util.List");
        file.javadoc(List.of("Every generated query with what the generator made of it, for tests that check the",
                "generated code against a real database (parameter and result metadata of each statement)."));
        file.open("public final class GeneratedQueries {");
        file.line();
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
        file.line("/** All queries, file by file, in file order. */");
        file.line("public static final " + list + "<QueryInfo> ALL = " + list + ".of(");
        List<String> entries = new ArrayList<>();
        for (QueryFile f : files) {
            for (Plan p : plans.get(f)) {
                entries.add(registryEntry(f, p, list));
            }
        }
        for (int i = 0; i < entries.size(); i++) {
            file.line("        " + entries.get(i) + (i + 1 < entries.size() ? "," : ");"));
        }
        file.line();
        file.open("private GeneratedQueries() {");
        file.close("}");
        file.close("}");
        return file.text();
    }

    private static String registryEntry(QueryFile f, Plan p, String list) {
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
