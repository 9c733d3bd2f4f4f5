package io.eeoutbox.jpa;

import io.eeoutbox.InvalidEventException;
import io.eeoutbox.OutboxCommitted;
import io.eeoutbox.OutboxException;
import io.eeoutbox.OutboxService;
import io.eeoutbox.TraceContext;
import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.trace.TraceCapture;
import io.eeoutbox.jpa.write.EventWriter;
import io.eeoutbox.spi.PayloadSerializer;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link OutboxService} over JPA: writes the event row with the generated {@code InsertOutboxEvent}
 * statement on the connection of the application's {@code EntityManager}, so it joins the caller's JTA
 * transaction ({@link EventWriter}: on Hibernate through the session's connection, elsewhere as a named
 * native query). After that transaction commits (only then) it fires {@link OutboxCommitted}, which
 * wakes a relay in the same JVM without a database round trip.
 *
 * <p>When an OpenTelemetry span is active on the calling thread (the OpenTelemetry API is optional), the row also
 * stores its W3C trace context in {@code tracingspancontext}, and the relay sends it with the message
 * ({@link TraceCapture}); otherwise the column stays NULL.
 *
 * <p>Configuration: {@code outbox.payload.max-bytes} (default 1048576), the largest payload in
 * bytes of UTF-8 JSON.
 */
@ApplicationScoped
public class JpaOutboxService implements OutboxService {

    static final String MAX_PAYLOAD_KEY = "outbox.payload.max-bytes";
    private static final Logger LOG = Logger.getLogger(JpaOutboxService.class.getName());
    private static final Object TX_EVENTS_KEY = new Object() {
        @Override
        public String toString() {
            return "ee-outbox events in this transaction";
        }
    };

    @Inject
    JtaResources resources;

    @Inject
    Instance<PayloadSerializer> serializers;

    @Inject
    Event<OutboxCommitted> committed;

    private EventValidator validator;
    private PayloadSerializer serializer;
    private TraceCapture traces;
    private EventWriter writer;

    @PostConstruct
    void init() {
        String configured = OutboxSettings.lookup().apply(MAX_PAYLOAD_KEY).orElse(null);
        int max = EventValidator.DEFAULT_MAX_PAYLOAD_BYTES;
        if (configured != null) {
            try {
                max = Integer.parseInt(configured);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(MAX_PAYLOAD_KEY + "=" + configured + " is not allowed: it must be a whole "
                        + "number of bytes from 1 to " + EventValidator.MAX_PAYLOAD_LIMIT, e);
            }
        }
        validator = new EventValidator(max);
        serializer = serializers.isResolvable() ? serializers.get() : new JsonPayloadSerializer();
        traces = TraceCapture.detect();
        writer = EventWriter.detect();
    }

    @Override
    public UUID record(String aggregateType, String aggregateId, String eventType, Object payload) {
        return record(aggregateType, aggregateId, eventType, payload, null);
    }

    /** A delayed event goes through {@code InsertOutboxEventAt} (schema V14); one without a delay as before. */
    @Override
    public UUID record(String aggregateType, String aggregateId, String eventType, Object payload, Instant notBefore) {
        TransactionSynchronizationRegistry tsr = resources.requireActiveTransaction("OutboxService.record");
        String json;
        try {
            validator.checkNames(aggregateType, aggregateId, eventType);
            try {
                json = serializer.toJson(payload);
            } catch (IllegalArgumentException e) {
                throw new InvalidEventException("payload", e.getMessage(), e);
            }
            validator.checkPayloadJson(json);
            EventValidator.checkNotBefore(notBefore, Instant.now());
        } catch (InvalidEventException e) {
            // Nothing of the caller's transaction may commit, even if the caller catches this.
            tsr.setRollbackOnly();
            throw e;
        }
        UUID id = Uuids.v7();
        TraceContext trace = traces.current();
        try {
            String traceText = trace == null ? null : trace.toStoredText();
            if (notBefore == null) {
                writer.insert(resources.entityManager(), new InsertOutboxEventParams(id, aggregateType, aggregateId,
                        eventType, json, traceText));
            } else {
                writer.insertAt(resources.entityManager(), new InsertOutboxEventAtParams(id, aggregateType,
                        aggregateId, eventType, json, traceText, notBefore));
            }
        } catch (PersistenceException e) {
            tsr.setRollbackOnly();
            throw new OutboxException("could not write outbox event event_id=" + id + " event_type=" + eventType
                    + " aggregate_id=" + aggregateId + "; the transaction is marked for rollback: " + e.getMessage(), e);
        }
        countInTransaction(tsr);
        return id;
    }

    private void countInTransaction(TransactionSynchronizationRegistry tsr) {
        Object existing = tsr.getResource(TX_EVENTS_KEY);
        if (existing instanceof AtomicInteger count) {
            count.incrementAndGet();
            return;
        }
        AtomicInteger count = new AtomicInteger(1);
        tsr.putResource(TX_EVENTS_KEY, count);
        tsr.registerInterposedSynchronization(new AfterCommit(count, committed));
    }

    /** Fires {@link OutboxCommitted} after a successful commit, never after a rollback. */
    private record AfterCommit(AtomicInteger count, Event<OutboxCommitted> committed) implements Synchronization {

        @Override
        public void beforeCompletion() {
            // nothing: the hint is only worth sending once the events are visible
        }

        @Override
        public void afterCompletion(int status) {
            if (status != Status.STATUS_COMMITTED) {
                return;
            }
            try {
                committed.fire(new OutboxCommitted(count.get()));
            } catch (RuntimeException e) {
                // A lost hint costs latency, not events: the relay's poll finds them.
                LOG.log(Level.FINE, "ee-outbox: after-commit wake-up failed; the relay's poll will find the events", e);
            }
        }
    }

    /** For tests: the payload limit in force. */
    int maxPayloadBytes() {
        return validator.maxPayloadBytes();
    }

    @Override
    public String toString() {
        return "JpaOutboxService[maxPayloadBytes=" + (validator == null ? "?" : validator.maxPayloadBytes()) + "]";
    }
}
