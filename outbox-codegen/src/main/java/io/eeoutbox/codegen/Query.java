package io.eeoutbox.codegen;

import java.util.List;

/**
 * One query of a queries file, parsed and checked against the schema.
 *
 * @param name        PascalCase name from {@code -- name:}
 * @param kind        what it returns
 * @param doc         the comment lines after {@code -- name:}
 * @param file        the file it is in, as displayed in messages
 * @param line        the line of its {@code -- name:}
 * @param parameters  its distinct parameters, in order of first appearance ({@code ?1..?n} of the native form)
 * @param occurrences the parameter of each {@code ?} of the JDBC form, in order
 * @param columns     its result columns (empty when it returns no rows)
 * @param jdbcSql     the SQL with {@code CAST(? AS type)} for every parameter occurrence
 * @param nativeSql   the SQL with {@code CAST(?n AS type)}, {@code n} the parameter's position
 */
record Query(String name, QueryKind kind, List<String> doc, String file, int line, List<Parameter> parameters,
             List<Parameter> occurrences, List<ResultColumn> columns, String jdbcSql, String nativeSql) {

    String methodName() {
        return Names.lowerCamel(name);
    }

    String constantName() {
        return Names.upperSnake(name);
    }

    int positionOf(Parameter p) {
        for (int i = 0; i < parameters.size(); i++) {
            if (parameters.get(i).name().equals(p.name())) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(p.name());
    }
}
