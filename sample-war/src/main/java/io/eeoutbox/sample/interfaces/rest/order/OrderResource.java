package io.eeoutbox.sample.interfaces.rest.order;

import io.eeoutbox.sample.application.order.OrderNotFoundException;
import io.eeoutbox.sample.application.order.OrderService;
import io.eeoutbox.sample.domain.order.Order;
import io.eeoutbox.sample.domain.order.OrderStatus;
import io.eeoutbox.sample.interfaces.rest.JsonRequest;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.util.UUID;

/**
 * <pre>
 * POST /api/orders              {"customerId": "c-42", "total": 12.50}  → 201, the order (Location: its URL)
 * POST /api/orders/{id}/status  {"status": "PAID"}                      → 200, the order; 404, 409
 * GET  /api/orders/{id}                                                 → 200, the order; 404
 * </pre>
 * Invalid input answers 400 with {@code {"error":"invalid_request","field":...,"message":...}} and
 * writes nothing; a body over 64 KiB answers 413 ({@code too_large}), one not sent as application/json 415
 * ({@code unsupported_media_type}), in the same shape.
 */
@Path("orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    @EJB
    private OrderService orders;

    @Context
    private UriInfo uriInfo;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(InputStream body) {
        JsonObject json = JsonRequest.object(body);
        Order order = orders.create(JsonRequest.string(json, "customerId"), JsonRequest.number(json, "total", "12.50"));
        return Response.created(uriInfo.getAbsolutePathBuilder().path(order.getId().toString()).build())
                .entity(OrderView.of(order))
                .build();
    }

    @POST
    @Path("{id}/status")
    @Consumes(MediaType.APPLICATION_JSON)
    public OrderView changeStatus(@PathParam("id") String id, InputStream body) {
        UUID orderId = orderId(id);
        JsonObject json = JsonRequest.object(body);
        OrderStatus next = OrderStatus.parse("status", JsonRequest.string(json, "status"));
        return OrderView.of(orders.changeStatus(orderId, next));
    }

    @GET
    @Path("{id}")
    public OrderView get(@PathParam("id") String id) {
        return orders.find(orderId(id)).map(OrderView::of).orElseThrow(() -> new OrderNotFoundException(id));
    }

    /** An id that is not a UUID names no order: 404, as for an unknown one. */
    private static UUID orderId(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new OrderNotFoundException(id);
        }
    }
}
