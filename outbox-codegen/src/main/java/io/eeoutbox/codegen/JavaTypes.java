package io.eeoutbox.codegen;

import java.util.List;

/** The Java types of SQL values, results and DAO arguments, as generated code writes them. */
final class JavaTypes {

    private JavaTypes() {
    }

    /** The Java type of a value of {@code type}, imported into {@code file}. */
    static String javaType(JavaFile file, TypeRef type, boolean nullable) {
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
    static String qualifiedType(TypeRef type, boolean nullable) {
        SqlType t = type.sqlType();
        String boxed = t.importName != null ? t.importName : "java.lang." + t.boxed;
        if (type.isArray()) {
            return "java.util.List<" + boxed + ">";
        }
        return nullable ? boxed : t.isPrimitive() ? t.primitive : boxed;
    }

    static String boxed(JavaFile file, TypeRef type) {
        return javaType(file, type, true);
    }

    /** The PostgreSQL type name that JDBC metadata reports: {@code int4}, {@code _uuid}. */
    static String pgType(TypeRef type) {
        return (type.isArray() ? "_" : "") + type.sqlType().pgName;
    }

    /** The element type of a query's result: its row record or its one column's boxed type. */
    static String resultType(JavaFile file, QueryPlan p) {
        if (p.scalar()) {
            return boxed(file, p.query().columns().get(0).type());
        }
        return p.rowRecord();
    }

    static String returnType(JavaFile file, QueryPlan p) {
        return switch (p.query().kind()) {
            case ONE -> file.use("java.util.Optional") + "<" + resultType(file, p) + ">";
            case MANY -> file.use("java.util.List") + "<" + resultType(file, p) + ">";
            case EXEC -> "void";
            case EXECROWS -> "int";
        };
    }

    static String arguments(JavaFile file, QueryPlan p) {
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
    static String valueOf(QueryPlan p, Parameter param) {
        return p.paramsRecord() != null ? "p." + param.javaName() + "()" : p.argName();
    }

    static void nonNullArgument(JavaFile file, QueryPlan p) {
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
}
