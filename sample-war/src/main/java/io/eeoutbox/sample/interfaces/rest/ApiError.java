package io.eeoutbox.sample.interfaces.rest;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The JSON body of every error answer: {@code {"error":"invalid_request","field":"total","message":"..."}}.
 * {@code field} is present when one field of the request is at fault.
 *
 * @param error   a stable code: invalid_request, not_found, method_not_allowed, not_acceptable, conflict, too_large,
 *                unsupported_media_type, database_unavailable, internal_error
 * @param field   the offending field, or null
 * @param message what is wrong, for a person
 */
public record ApiError(String error, String field, String message) {

    public static Response response(Response.StatusType status, String error, String field, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ApiError(error, field, message)).build();
    }

    public static Response invalid(String field, String message) {
        return response(Response.Status.BAD_REQUEST, "invalid_request", field, message);
    }

    public static Response notFound(String message) {
        return response(Response.Status.NOT_FOUND, "not_found", null, message);
    }

    /** The code of an answer with this status that says no more than its status does. */
    static String code(int status) {
        return switch (status) {
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 409 -> "conflict";
            case 413 -> "too_large";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "invalid_request";
        };
    }
}
