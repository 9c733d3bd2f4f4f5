package io.eeoutbox.sample.interfaces.rest;

import jakarta.ws.rs.core.Response;

/** The request body cannot be read as the API expects (not JSON, a field of the wrong type, too large). */
public class InvalidRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final Response.Status status;

    /** 400: the field cannot be read as the API expects. */
    public InvalidRequestException(String field, String message) {
        this(Response.Status.BAD_REQUEST, field, message);
    }

    private InvalidRequestException(Response.Status status, String field, String message) {
        super(message);
        this.field = field;
        this.status = status;
    }

    /** 413: the field (the body) is larger than the API reads. */
    public static InvalidRequestException tooLarge(String field, String message) {
        return new InvalidRequestException(Response.Status.REQUEST_ENTITY_TOO_LARGE, field, message);
    }

    public String field() {
        return field;
    }

    public Response.Status status() {
        return status;
    }
}
