package io.eeoutbox;

/**
 * {@link OutboxService} was called on a thread with no active JTA transaction. An outbox event
 * written outside the business transaction would break the pattern's one guarantee, so the call
 * writes nothing. Call it from a transactional EJB method, a {@code @Transactional} CDI bean,
 * or inside a {@code UserTransaction}.
 */
public class NoActiveTransactionException extends OutboxException {
    private static final long serialVersionUID = 1L;

    public NoActiveTransactionException(String message) {
        super(message);
    }
}
