package io.eeoutbox.codegen;

import java.util.List;

/**
 * One query of a queries file, parsed and checked against the schema.
 *
 * @param name       PascalCase name from {@code -- name:}
 * @param kind       what it returns
 * @param origin     where it is written, and its documentation
 * @param parameters its distinct parameters, in order of first appearance ({@code ?1..?n} of the native form)
 * @param columns    its result columns (empty when it returns no rows)
 * @param sql        its two SQL forms
 */
record Query(String name, QueryKind kind, Origin origin, List<Parameter> parameters, List<ResultColumn> columns,
             Sql sql) {

    /**
     * Where a query is written.
     *
     * @param file the file it is in, as displayed in messages
     * @param line the line of its {@code -- name:}
     * @param doc  the comment lines after {@code -- name:}
     */
    record Origin(String file, int line, List<String> doc) {
    }

    /**
     * A query's SQL, in its two forms.
     *
     * @param jdbcSql     the SQL with {@code CAST(? AS type)} for every parameter occurrence
     * @param occurrences the parameter of each {@code ?} of the JDBC form, in order
     * @param nativeSql   the SQL with {@code CAST(?n AS type)}, {@code n} the parameter's position
     */
    record Sql(String jdbcSql, List<Parameter> occurrences, String nativeSql) {
    }

    String file() {
        return origin.file();
    }

    int line() {
        return origin.line();
    }

    List<String> doc() {
        return origin.doc();
    }

    String jdbcSql() {
        return sql.jdbcSql();
    }

    List<Parameter> occurrences() {
        return sql.occurrences();
    }

    String nativeSql() {
        return sql.nativeSql();
    }

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
