package io.eeoutbox.sample.interfaces.rest;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Set;
import java.util.TreeSet;

/**
 * What JAX-RS refuses before a resource method runs (an unknown path, a method or a media type the resource does not
 * take, an answer type the client does not accept): the JSON error shape, with the status and headers (such as
 * {@code Allow}) JAX-RS chose, so that a client reads every error the same way on every server.
 */
@Provider
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException e) {
        Response given = e.getResponse();
        if (given.hasEntity()) {
            return given;
        }
        return Response.fromResponse(given)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(error(given.getStatus(), given.getAllowedMethods()))
                .build();
    }

    /** The body for an answer of this status; {@code allowed}: the methods a 405's resource takes. */
    static ApiError error(int status, Set<String> allowed) {
        String message = switch (status) {
            case 404 -> "nothing here; the API is /api/orders and /api/projection";
            case 405 -> "this resource does not take that method"
                    + (allowed.isEmpty() ? "" : "; it takes " + String.join(", ", new TreeSet<>(allowed)));
            case 406 -> "this resource answers application/json only";
            case 415 -> "send the body as application/json";
            default -> "the request was refused with HTTP " + status;
        };
        return new ApiError(ApiError.code(status), null, message);
    }
}
