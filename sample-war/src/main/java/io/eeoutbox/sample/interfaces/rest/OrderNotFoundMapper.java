package io.eeoutbox.sample.interfaces.rest;

import io.eeoutbox.sample.application.order.OrderNotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** 404 for an order id nobody knows. */
@Provider
public class OrderNotFoundMapper implements ExceptionMapper<OrderNotFoundException> {

    @Override
    public Response toResponse(OrderNotFoundException e) {
        return ApiError.notFound(e.getMessage());
    }
}
