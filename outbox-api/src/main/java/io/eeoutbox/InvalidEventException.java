package io.eeoutbox;

/**
 * An event was refused before anything was written: a field is missing or breaks a limit.
 * {@link #field()} names the field, {@link #problem()} says what is wrong, including the limit.
 * When thrown by {@link OutboxService}, the caller's transaction has been marked rollback-only.
 */
public class InvalidEventException extends OutboxException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String problem;

    public InvalidEventException(String field, String problem) {
        this(field, problem, null);
    }

    public InvalidEventException(String field, String problem, Throwable cause) {
        super("invalid outbox event: " + field + " " + problem, cause);
        this.field = field;
        this.problem = problem;
    }

    /** The offending field, for example {@code aggregateId} or {@code payload}. */
    public String field() {
        return field;
    }

    /** What is wrong with it, for example {@code "is 120 characters long, the limit is 100"}. */
    public String problem() {
        return problem;
    }
}
