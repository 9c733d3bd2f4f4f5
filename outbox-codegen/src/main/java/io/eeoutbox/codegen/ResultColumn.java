package io.eeoutbox.codegen;

/**
 * A column of a query's result.
 *
 * @param name       the column's name or alias, as PostgreSQL reports it
 * @param type       its type: from the schema for a plain column, from the cast for an expression
 * @param nullable   whether it may be NULL (boxed Java type)
 * @param fromSchema whether it is a plain column whose type and nullability come from the schema
 * @param line       where it is written
 */
record ResultColumn(String name, TypeRef type, boolean nullable, boolean fromSchema, int line) {

    SqlType sqlType() {
        return type.sqlType();
    }

    String javaName() {
        return Names.lowerCamel(name);
    }

    /** Same name and same Java type: what makes two results share a Row record. */
    boolean sameAs(ResultColumn other) {
        return name.equals(other.name) && nullable == other.nullable && type.sameAs(other.type);
    }
}
