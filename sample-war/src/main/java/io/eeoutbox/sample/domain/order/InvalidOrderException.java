package io.eeoutbox.sample.domain.order;

import jakarta.ejb.ApplicationException;

/**
 * The input breaks a rule of the order model: {@link #field()} names the field, {@link #problem()}
 * says what is wrong. Nothing is written: it is thrown before anything is persisted, and an
 * application exception with {@code rollback = true} for the EJB container, so the transaction is
 * rolled back in any case (and the container does not log it as a system failure).
 */
@ApplicationException(rollback = true)
public class InvalidOrderException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String problem;

    public InvalidOrderException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
        this.problem = problem;
    }

    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }
}
