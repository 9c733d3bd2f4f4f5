package io.eeoutbox.sample.interfaces.rest;

/** The request body cannot be read as the API expects (not JSON, a field of the wrong type). */
public class InvalidRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidRequestException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
