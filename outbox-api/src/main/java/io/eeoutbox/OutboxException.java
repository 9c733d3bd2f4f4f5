package io.eeoutbox;

/** Base class of ee-outbox's exceptions. Unchecked, so an EJB container rolls back on it. */
public class OutboxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OutboxException(String message) {
        super(message);
    }

    public OutboxException(String message, Throwable cause) {
        super(message, cause);
    }
}
