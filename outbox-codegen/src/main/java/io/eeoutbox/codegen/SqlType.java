package io.eeoutbox.codegen;

/**
 * The PostgreSQL types the generator maps to Java, with everything the writers need to know about each.
 */
enum SqlType {
    UUID("uuid", "UUID", "UUID", "java.util.UUID", "OTHER"),
    VARCHAR("varchar", "String", "String", null, "VARCHAR"),
    TEXT("text", "String", "String", null, "VARCHAR"),
    INT("int4", "int", "Integer", null, "INTEGER"),
    BIGINT("int8", "long", "Long", null, "BIGINT"),
    BOOLEAN("bool", "boolean", "Boolean", null, "BOOLEAN"),
    TIMESTAMPTZ("timestamptz", "Instant", "Instant", "java.time.Instant", "TIMESTAMP_WITH_TIMEZONE"),
    JSONB("jsonb", "String", "String", null, "OTHER"),
    JSON("json", "String", "String", null, "OTHER");

    /** The name PostgreSQL reports (pg_type.typname) and {@code Connection.createArrayOf} takes. */
    final String pgName;
    /** The Java type for a value that cannot be NULL. */
    final String primitive;
    /** The Java type for a value that may be NULL. */
    final String boxed;
    /** The class to import, or null for java.lang. */
    final String importName;
    /** The java.sql.Types constant for a NULL of this type. */
    final String jdbcNullType;

    SqlType(String pgName, String primitive, String boxed, String importName, String jdbcNullType) {
        this.pgName = pgName;
        this.primitive = primitive;
        this.boxed = boxed;
        this.importName = importName;
        this.jdbcNullType = jdbcNullType;
    }

    boolean isPrimitive() {
        return !primitive.equals(boxed);
    }

    boolean isText() {
        return this == VARCHAR || this == TEXT;
    }

    boolean isJson() {
        return this == JSONB || this == JSON;
    }

    /**
     * The type for a normalised type name (lower case, single spaces, without length or precision),
     * or null when the generator does not know it.
     */
    static SqlType forName(String name) {
        switch (name) {
            case "uuid":
                return UUID;
            case "varchar":
            case "character varying":
                return VARCHAR;
            case "text":
                return TEXT;
            case "int":
            case "int4":
            case "integer":
                return INT;
            case "bigint":
            case "int8":
                return BIGINT;
            case "boolean":
            case "bool":
                return BOOLEAN;
            case "timestamptz":
            case "timestamp with time zone":
                return TIMESTAMPTZ;
            case "jsonb":
                return JSONB;
            case "json":
                return JSON;
            default:
                return null;
        }
    }
}
