package io.eeoutbox.sample.infrastructure.messaging;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.sample.application.projection.OrderProjectionService;
import io.eeoutbox.sample.application.projection.ReceivedEvent;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Applies one Kafka record in one container transaction (REQUIRED): the inbox record and the projection
 * ({@link OrderProjectionService#apply}) commit together or not at all, as in {@link OrderEventConsumer}. The
 * caller ({@link KafkaOrderEventListener}) commits the record's offset only after this method returned; a record
 * read again (after a failure, a rebalance, or sent twice by the relay) finds its event id in the inbox.
 */
@Stateless
public class KafkaOrderEventApplier {

    private static final Logger LOG = Logger.getLogger(KafkaOrderEventApplier.class.getName());

    @EJB
    private OrderProjectionService projection;

    /**
     * Applies the record, unless it is not an outbox event (then it is skipped with a warning: reading it again
     * would not help).
     *
     * @throws RuntimeException when the transaction fails (the caller reads the record again later)
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void apply(ConsumerRecord<String, String> record) {
        ReceivedEvent event;
        try {
            event = read(record);
        } catch (RuntimeException e) {
            LOG.warning(() -> "record skipped, not an outbox event: " + describe(record) + ": " + e);
            return;
        }
        try (DeliverySpan span = ConsumerTracing.start(new Incoming("kafka", record.topic(), name -> header(record, name)))) {
            try {
                projection.apply(event.inTrace(span.traceId()));
            } catch (RuntimeException e) {
                span.failed(e);
                throw e;
            }
        }
    }

    static ReceivedEvent read(ConsumerRecord<String, String> record) {
        String eventId = header(record, MessageHeaders.EVENT_ID);
        String eventType = header(record, MessageHeaders.EVENT_TYPE);
        if (eventId == null || eventType == null) {
            throw new IllegalArgumentException("no " + MessageHeaders.EVENT_ID + " or " + MessageHeaders.EVENT_TYPE + " header");
        }
        if (record.value() == null) {
            throw new IllegalArgumentException("no value");
        }
        return new ReceivedEvent(UUID.fromString(eventId), eventType, header(record, MessageHeaders.AGGREGATE_ID),
                record.value(), header(record, MessageHeaders.TRACEPARENT), null);
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    static String describe(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
