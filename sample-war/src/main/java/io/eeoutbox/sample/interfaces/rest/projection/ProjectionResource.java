package io.eeoutbox.sample.interfaces.rest.projection;

import io.eeoutbox.sample.application.projection.OrderProjectionService;
import io.eeoutbox.sample.interfaces.rest.ApiError;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;

/** {@code GET /api/projection/{orderId}}: what the downstream consumer knows; 404 before its first event arrives. */
@Path("projection")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ProjectionResource {

    @EJB
    private OrderProjectionService projections;

    @GET
    @Path("{orderId}")
    public Response get(@PathParam("orderId") String orderId) {
        UUID id;
        try {
            id = UUID.fromString(orderId);
        } catch (IllegalArgumentException e) {
            return ApiError.notFound("no order " + orderId);
        }
        return projections.find(id)
                .map(view -> Response.ok(ProjectionView.of(view)).build())
                .orElseGet(() -> ApiError.notFound("the consumer has received no event of order " + orderId + " (yet)"));
    }
}
