package io.eeoutbox.sample.interfaces.rest;

import io.eeoutbox.InvalidEventException;
import io.eeoutbox.sample.infrastructure.persistence.DatabaseFailures;
import jakarta.ejb.EJBException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A system exception from an EJB (the container rolled the transaction back and wrapped the cause):
 * <ul>
 *   <li>an {@link InvalidEventException} from the outbox: 400 naming the event's field;</li>
 *   <li>the database cannot be reached: 503 with {@code Retry-After}, at once rather than after a hang
 *       (the datasources' connect and pool timeouts bound the wait); when it went away during the commit, the
 *       answer says the work may have been stored;</li>
 *   <li>anything else: 500, logged with its stack trace.</li>
 * </ul>
 */
@Provider
public class EjbExceptionMapper implements ExceptionMapper<EJBException> {

    private static final Logger LOG = Logger.getLogger(EjbExceptionMapper.class.getName());
    static final String RETRY_AFTER_SECONDS = "5";

    @Override
    public Response toResponse(EJBException e) {
        InvalidEventException invalid = find(e, InvalidEventException.class);
        if (invalid != null) {
            return ApiError.invalid(invalid.field(), invalid.getMessage());
        }
        if (DatabaseFailures.isUnavailable(e)) {
            LOG.warning(() -> "database unavailable, answering 503: " + rootCause(e));
            // cut while committing, the work may have been stored: a client must look before it sends it again
            String message = DatabaseFailures.atCommit(e)
                    ? "the database went away while the request was being committed; it may have been stored: check"
                            + " before you try again"
                    : "the database cannot be reached; nothing was written; try again later";
            return Response.fromResponse(ApiError.response(Response.Status.SERVICE_UNAVAILABLE, "database_unavailable",
                            null, message))
                    .header("Retry-After", RETRY_AFTER_SECONDS)
                    .build();
        }
        LOG.log(Level.SEVERE, "request failed", e);
        return ApiError.response(Response.Status.INTERNAL_SERVER_ERROR, "internal_error", null,
                "the request failed; nothing was written");
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (int depth = 0; t != null && depth < 20; t = t.getCause(), depth++) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String rootCause(Throwable t) {
        Throwable root = t;
        for (int depth = 0; root.getCause() != null && depth < 20; depth++) {
            root = root.getCause();
        }
        return root.toString();
    }
}
