package io.eeoutbox.codegen;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Generates {@code SqlValues.java}, once for all files, from its template: the conversions the DAOs call. */
final class SqlValuesGenerator {

    private SqlValuesGenerator() {
    }

    /** {@code SqlValues.java}, its header and package filled in. */
    static String generate(Sources sources) {
        String template;
        try (InputStream in = SqlValuesGenerator.class.getResourceAsStream("SqlValues.java.txt")) {
            if (in == null) {
                throw new IllegalStateException("SqlValues.java.txt is missing from the generator");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read SqlValues.java.txt", e);
        }
        return template.replace("@@HEADER@@", sources.header(sources.queriesDir()))
                .replace("@@PACKAGE@@", sources.packageName());
    }
}
