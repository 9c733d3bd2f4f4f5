package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.JavaTypes.javaType;
import static io.eeoutbox.codegen.Sources.recordHeader;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates {@code <Query>Row.java}: the record of a result row of two or more columns, shared by the
 * queries of a file that return the same columns.
 */
final class RowRecordGenerator {

    private RowRecordGenerator() {
    }

    /** The row record that {@code p} owns; its javadoc names every query in {@code all} that returns it. */
    static String generate(Sources sources, QueryFile f, QueryPlan p, List<QueryPlan> all) {
        JavaFile file = sources.forTable(f);
        List<String> users = new ArrayList<>();
        for (QueryPlan other : all) {
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
}
