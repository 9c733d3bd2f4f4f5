package io.eeoutbox.codegen;

import java.util.TreeSet;

/** One Java source file being written: its imports and its body, indented by four spaces a level. */
final class JavaFile {

    private final String packageName;
    private final String header;
    private final TreeSet<String> imports = new TreeSet<>();
    private final StringBuilder body = new StringBuilder();
    private int indent;

    JavaFile(String packageName, String header) {
        this.packageName = packageName;
        this.header = header;
    }

    /** Imports a class and returns its simple name. */
    String use(String qualifiedName) {
        imports.add(qualifiedName);
        return qualifiedName.substring(qualifiedName.lastIndexOf('.') + 1);
    }

    /** Appends a line at the current indentation; an empty line stays empty. */
    JavaFile line(String text) {
        if (!text.isEmpty()) {
            body.append("    ".repeat(indent)).append(text);
        }
        body.append('\n');
        return this;
    }

    JavaFile line() {
        return line("");
    }

    /** Appends a line and indents the lines that follow. */
    JavaFile open(String text) {
        line(text);
        indent++;
        return this;
    }

    /** Indents the lines that follow. */
    JavaFile indent() {
        indent++;
        return this;
    }

    /** Unindents and appends a line. */
    JavaFile close(String text) {
        indent--;
        return line(text);
    }

    /** A javadoc comment of the given lines (already escaped); blank lines become paragraph breaks. */
    JavaFile javadoc(Iterable<String> lines) {
        line("/**");
        for (String l : lines) {
            line(l.isEmpty() ? " *" : " * " + l);
        }
        return line(" */");
    }

    String indentation(int extra) {
        return "    ".repeat(indent + extra);
    }

    String text() {
        StringBuilder out = new StringBuilder(header).append("\n\npackage ").append(packageName).append(";\n\n");
        if (!imports.isEmpty()) {
            for (String i : imports) {
                out.append("import ").append(i).append(";\n");
            }
            out.append('\n');
        }
        return out.append(body).toString();
    }
}
