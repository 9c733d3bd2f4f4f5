package io.eeoutbox.sample.interfaces.rest;

import io.eeoutbox.sample.domain.order.InvalidOrderException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Input that breaks an order rule (a negative total, a missing customer): 400 naming the field. */
@Provider
public class InvalidOrderMapper implements ExceptionMapper<InvalidOrderException> {

    @Override
    public Response toResponse(InvalidOrderException e) {
        return ApiError.invalid(e.field(), e.getMessage());
    }
}
