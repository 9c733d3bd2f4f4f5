package io.eeoutbox.codegen;

import static io.eeoutbox.codegen.JavaTypes.javaType;
import static io.eeoutbox.codegen.Sources.recordHeader;

import java.util.ArrayList;
import java.util.List;

/** Generates {@code <Query>Params.java}: the record of a query's parameters, for a query with two or more. */
final class ParamsRecordGenerator {

    private ParamsRecordGenerator() {
    }

    /** The parameters record of a query that has one ({@link QueryPlan#paramsRecord()}). */
    static String generate(Sources sources, QueryFile f, QueryPlan p) {
        Query q = p.query();
        JavaFile file = sources.forTable(f);
        List<String> doc = new ArrayList<>();
        doc.add("The parameters of {@code " + q.name() + "}.");
        doc.add("");
        List<String> components = new ArrayList<>();
        for (Parameter param : q.parameters()) {
            doc.add("@param " + param.javaName() + " {@code " + param.name() + "::" + param.type().text() + "}"
                    + (param.nullable() ? ", may be null" : ""));
            components.add(javaType(file, param.type(), param.nullable()) + " " + param.javaName());
        }
        file.javadoc(doc);
        List<Parameter> required = q.parameters().stream()
                .filter(x -> !x.nullable() && (x.type().isArray() || !x.sqlType().isPrimitive())).toList();
        recordHeader(file, p.paramsRecord(), components);
        if (!required.isEmpty()) {
            String objects = file.use("java.util.Objects");
            file.line();
            file.open("public " + p.paramsRecord() + " {");
            for (Parameter param : required) {
                file.line(objects + ".requireNonNull(" + param.javaName() + ", " + JavaText.literal(param.javaName())
                        + ");");
            }
            file.close("}");
        }
        file.close("}");
        return file.text();
    }
}
