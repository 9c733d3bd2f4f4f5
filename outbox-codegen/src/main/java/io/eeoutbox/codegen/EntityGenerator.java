package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.JavaTypes.javaType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Generates {@code <Entity>.java}: the read-only JPA entity of a table, declaring its named native queries. */
final class EntityGenerator {

    private EntityGenerator() {
    }

    /** The entity of a queries file's table, with the file's queries as named native queries. */
    static String generate(Sources sources, QueryFile f, Schema.Table table, List<QueryPlan> plans) {
        JavaFile file = sources.forTable(f);
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
        for (QueryPlan p : plans) {
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
}
