package io.eeoutbox.sample.interfaces.rest;

import io.eeoutbox.sample.application.ProbeService;
import io.eeoutbox.sample.domain.ProbeItem;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import java.util.UUID;

/** POST /api/probe writes a row through the EJB; GET /api/probe/{id} reads it back. JSON via JSON-B. */
@Path("probe")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {

    /** Request body of POST /api/probe. */
    public record ProbeRequest(String label) {
    }

    /** A probe row as JSON. */
    public record ProbeView(UUID id, String label, String source) {
        static ProbeView of(ProbeItem item) {
            return new ProbeView(item.getId(), item.getLabel(), item.getSource().name());
        }
    }

    @EJB
    private ProbeService probes;

    @Context
    private UriInfo uriInfo;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(ProbeRequest request) {
        if (request == null || request.label() == null || request.label().isBlank()) {
            throw new BadRequestException("label is required");
        }
        ProbeItem item = probes.record(request.label().strip(), ProbeItem.Source.REST);
        return Response.created(uriInfo.getAbsolutePathBuilder().path(item.getId().toString()).build())
                .entity(ProbeView.of(item))
                .build();
    }

    @GET
    @Path("{id}")
    public ProbeView get(@PathParam("id") UUID id) {
        return probes.find(id).map(ProbeView::of).orElseThrow(NotFoundException::new);
    }
}
