package io.eeoutbox.sample.interfaces.rest;

import io.eeoutbox.sample.domain.order.OrderStatusConflictException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** 409 when the order's current status does not allow the requested one. */
@Provider
public class OrderStatusConflictMapper implements ExceptionMapper<OrderStatusConflictException> {

    @Override
    public Response toResponse(OrderStatusConflictException e) {
        return ApiError.response(Response.Status.CONFLICT, "conflict", "status", e.getMessage());
    }
}
