package io.eeoutbox.sample.interfaces.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;

/**
 * A body whose declared length is over {@link JsonRequest#MAX_BODY_BYTES}: 413 with the JSON error, before anything
 * reads it. Reading it would meet the server's own limit first (WildFly's max-post-size, 10 MB), which each server
 * answers its own way; a body without a declared length is cut at the limit by {@link JsonRequest} with the same
 * answer.
 */
@Provider
public class BodySizeFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        InvalidRequestException refused = refusal(request.getHeaderString(HttpHeaders.CONTENT_LENGTH));
        if (refused != null) {
            request.abortWith(new InvalidRequestMapper().toResponse(refused));
        }
    }

    /** The 413 for a body of this declared length ({@code Content-Length}), or null when it may be read. */
    static InvalidRequestException refusal(String contentLength) {
        if (contentLength == null) {
            return null;
        }
        long length;
        try {
            length = Long.parseLong(contentLength.trim());
        } catch (NumberFormatException e) {
            return null; // the server itself refuses a malformed Content-Length
        }
        return length > JsonRequest.MAX_BODY_BYTES ? JsonRequest.tooLarge(length) : null;
    }
}
