package io.eeoutbox.codegen;

/**
 * A type as written in a cast or a column definition.
 *
 * @param name      the normalised name without modifiers, such as {@code character varying}
 * @param text      the normalised text to write back into SQL, such as {@code varchar(100)} or {@code uuid[]}
 * @param arrayDims the number of {@code []}
 * @param line      the line it was written on
 */
record TypeRef(String name, String text, int arrayDims, int line) {

    boolean isArray() {
        return arrayDims > 0;
    }

    /** The mapped type of the value (of the elements, for an array), or null when unknown. */
    SqlType sqlType() {
        return SqlType.forName(name);
    }

    /** Whether two written types mean the same Java type. */
    boolean sameAs(TypeRef other) {
        return arrayDims == other.arrayDims && sqlType() == other.sqlType()
                && (sqlType() != null || name.equals(other.name));
    }
}
