package io.eeoutbox.sample.application.projection;

import io.eeoutbox.jpa.Inbox;
import io.eeoutbox.sample.domain.order.OrderEvents;
import io.eeoutbox.sample.domain.projection.OrderProjection;
import io.eeoutbox.sample.domain.projection.ProjectedEvent;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.io.StringReader;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The downstream consumer's side: applies order events to {@code order_projection}, idempotently.
 * {@link #apply} runs in the caller's transaction (the message-driven bean's), so the inbox record,
 * the projection and the message's acknowledgement commit together; a redelivered event finds its
 * id in the inbox and changes nothing.
 */
@Stateless
public class OrderProjectionService {

    /** This consumer's name in ee-outbox's inbox (processed_events.consumer). */
    public static final String CONSUMER = "order-projection";

    private static final Logger LOG = Logger.getLogger(OrderProjectionService.class.getName());

    @PersistenceContext(unitName = "sample")
    private EntityManager em;

    @Inject
    private Inbox inbox;

    @Inject
    private RedeliveryCounter redeliveries;

    /**
     * Applies one received event, unless it was applied before.
     *
     * @return true when the event changed the projection, false for a redelivery or an event this
     *         consumer does not use (both recorded in the inbox, so neither is looked at again)
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public boolean apply(ReceivedEvent event) {
        if (!inbox.firstDelivery(CONSUMER, event.eventId())) {
            redeliveries.record(event.aggregateId());
            LOG.fine(() -> "redelivery ignored: event_id=" + event.eventId() + " event_type=" + event.eventType()
                    + " aggregate_id=" + event.aggregateId());
            return false;
        }
        boolean known = OrderEvents.CREATED.equals(event.eventType())
                || OrderEvents.STATUS_CHANGED.equals(event.eventType())
                || OrderEvents.PAYMENT_OVERDUE.equals(event.eventType());
        if (!known) {
            LOG.fine(() -> "event type not used by this consumer: event_id=" + event.eventId() + " event_type="
                    + event.eventType());
            return false;
        }
        Fields fields;
        try {
            fields = Fields.read(event);
        } catch (IllegalArgumentException | NullPointerException | ClassCastException | JsonException e) {
            // A message this consumer cannot read would fail on every redelivery: record it, say so, move on.
            LOG.warning(() -> "unreadable order event skipped: event_id=" + event.eventId() + " event_type="
                    + event.eventType() + " aggregate_id=" + event.aggregateId() + ": " + e);
            return false;
        }
        Instant now = Instant.now();
        OrderProjection projection = em.find(OrderProjection.class, fields.orderId(), LockModeType.PESSIMISTIC_WRITE);
        if (OrderEvents.PAYMENT_OVERDUE.equals(event.eventType())) {
            return overdue(event, projection, now);
        }
        int previousRevision = projection == null ? 0 : projection.revision();
        if (projection == null) {
            projection = new OrderProjection(fields.orderId(), fields.status(), now);
            em.persist(projection);
        }
        ProjectedEvent applied = OrderEvents.CREATED.equals(event.eventType())
                ? projection.applyCreated(event.eventId(), event.eventType(), fields.customerId(), fields.total(),
                        fields.status(), fields.revision(), now)
                : projection.applyStatusChanged(event.eventId(), event.eventType(), fields.status(), fields.revision(), now);
        applied.traced(event.traceparent(), event.consumerTraceId());
        em.persist(applied);
        if (fields.revision() != previousRevision + 1) {
            LOG.warning(() -> "order event out of sequence: event_id=" + event.eventId() + " aggregate_id="
                    + fields.orderId() + " revision=" + fields.revision() + " after revision " + previousRevision);
        }
        return true;
    }

    /** A payment-overdue notice: marks an order still NEW overdue; an order paid or cancelled meanwhile ignores it. */
    private boolean overdue(ReceivedEvent event, OrderProjection projection, Instant now) {
        ProjectedEvent applied = projection == null ? null
                : projection.applyPaymentOverdue(event.eventId(), event.eventType(), now);
        if (applied == null) {
            LOG.fine(() -> "payment-overdue ignored, the order is no longer NEW: event_id=" + event.eventId()
                    + " aggregate_id=" + event.aggregateId());
            return false;
        }
        applied.traced(event.traceparent(), event.consumerTraceId());
        em.persist(applied);
        return true;
    }

    /** What the consumer knows about an order, if it received any of its events. */
    public Optional<OrderProjectionView> find(UUID orderId) {
        OrderProjection projection = em.find(OrderProjection.class, orderId);
        if (projection == null) {
            return Optional.empty();
        }
        List<ProjectedEvent> events = em.createQuery(
                        "SELECT e FROM ProjectedEvent e WHERE e.orderId = :orderId ORDER BY e.position", ProjectedEvent.class)
                .setParameter("orderId", orderId)
                .getResultList();
        return Optional.of(new OrderProjectionView(projection, events, redeliveries.ignored(orderId.toString())));
    }

    /** The payload fields this consumer uses; {@code status} is the status the event leaves the order in. */
    private record Fields(UUID orderId, String customerId, BigDecimal total, String status, int revision) {

        static Fields read(ReceivedEvent event) {
            UUID orderId = UUID.fromString(event.aggregateId());
            JsonObject payload;
            try (JsonReader reader = Json.createReader(new StringReader(event.payload()))) {
                payload = reader.readObject();
            }
            int revision = payload.getInt("revision");
            if (OrderEvents.CREATED.equals(event.eventType())) {
                JsonValue total = payload.get("total");
                return new Fields(orderId, payload.getString("customerId"),
                        total instanceof JsonNumber n ? n.bigDecimalValue() : null, payload.getString("status"), revision);
            }
            if (OrderEvents.PAYMENT_OVERDUE.equals(event.eventType())) {
                return new Fields(orderId, null, null, OrderProjection.PAYMENT_OVERDUE, revision);
            }
            return new Fields(orderId, null, null, payload.getString("to"), revision);
        }
    }
}
