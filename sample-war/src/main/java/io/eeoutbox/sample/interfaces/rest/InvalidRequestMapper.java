package io.eeoutbox.sample.interfaces.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An unreadable request body or field: 400 naming the field (413 when the body is too large). */
@Provider
public class InvalidRequestMapper implements ExceptionMapper<InvalidRequestException> {

    @Override
    public Response toResponse(InvalidRequestException e) {
        return ApiError.response(e.status(), ApiError.code(e.status().getStatusCode()), e.field(),
                e.field() + " " + e.getMessage());
    }
}
