package io.eeoutbox.codegen;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tables that the migrations create, in the order they create them. */
final class Schema {

    /** A column: its name as PostgreSQL knows it, its type and whether it may be NULL. */
    record Column(String name, TypeRef type, boolean nullable, boolean primaryKey, String file, int line) {
        Column withPrimaryKey() {
            return new Column(name, type, false, true, file, line);
        }
    }

    /** A table created by CREATE TABLE. */
    record Table(String name, List<Column> columns, String file, int line) {

        Optional<Column> column(String columnName) {
            return columns.stream().filter(c -> c.name().equals(columnName)).findFirst();
        }

        List<Column> primaryKey() {
            return columns.stream().filter(Column::primaryKey).toList();
        }
    }

    private final Map<String, Table> tables = new LinkedHashMap<>();

    void add(Table table) {
        tables.put(table.name(), table);
    }

    Optional<Table> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    Collection<Table> tables() {
        return Collections.unmodifiableCollection(tables.values());
    }

    /** The column's definitions in every table but {@code except}, in schema order. */
    List<Column> columnsElsewhere(String columnName, String except) {
        List<Column> found = new ArrayList<>();
        for (Table t : tables.values()) {
            if (!t.name().equals(except)) {
                t.column(columnName).ifPresent(found::add);
            }
        }
        return found;
    }
}
