package io.eeoutbox.codegen;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The generator's failure: one or more problems in the SQL files, each reported as {@code file:line: message}.
 */
public final class CodegenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** One problem, at a line of a file (the file named as the generator was given it). */
    public record Problem(String file, int line, String message) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + message;
        }
    }

    private final transient List<Problem> problems;

    public CodegenException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public CodegenException(String file, int line, String message) {
        this(List.of(new Problem(file, line, message)));
    }

    public List<Problem> problems() {
        return problems;
    }
}
