package io.eeoutbox.codegen;

/**
 * A query parameter: {@code @name::type}, {@code sqlc.arg(name)::type} or {@code sqlc.narg(name)::type}.
 *
 * @param name     the name as written in SQL (snake_case)
 * @param type     the type of its cast
 * @param nullable whether it was written with {@code sqlc.narg}
 * @param line     where it first appears
 */
record Parameter(String name, TypeRef type, boolean nullable, int line) {

    SqlType sqlType() {
        return type.sqlType();
    }

    String javaName() {
        return Names.lowerCamel(name);
    }
}
