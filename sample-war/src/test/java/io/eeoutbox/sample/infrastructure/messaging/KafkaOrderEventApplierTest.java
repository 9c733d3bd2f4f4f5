package io.eeoutbox.sample.infrastructure.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.sample.application.projection.ReceivedEvent;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** How the sample's Kafka consumer reads a record the relay wrote: the event from its headers and value. */
class KafkaOrderEventApplierTest {

    @Test
    void theEventComesFromTheOutboxHeadersAndTheValue() {
        UUID eventId = UUID.randomUUID();
        ConsumerRecord<String, String> r = new ConsumerRecord<>("order-events", 1, 7L, "order-1", "{\"revision\":1}");
        r.headers().add(MessageHeaders.EVENT_ID, eventId.toString().getBytes(StandardCharsets.UTF_8));
        r.headers().add(MessageHeaders.EVENT_TYPE, "order.created".getBytes(StandardCharsets.UTF_8));
        r.headers().add(MessageHeaders.AGGREGATE_ID, "order-1".getBytes(StandardCharsets.UTF_8));
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        r.headers().add(MessageHeaders.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));

        assertEquals(new ReceivedEvent(eventId, "order.created", "order-1", "{\"revision\":1}", traceparent, null),
                KafkaOrderEventApplier.read(r));
        assertEquals("order-events-1@7", KafkaOrderEventApplier.describe(r));
    }

    @Test
    void aRecordWithoutTheEventIdIsNotAnOutboxEvent() {
        ConsumerRecord<String, String> r = new ConsumerRecord<>("order-events", 0, 0L, "k", "{}");
        r.headers().add(MessageHeaders.EVENT_TYPE, "order.created".getBytes(StandardCharsets.UTF_8));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KafkaOrderEventApplier.read(r));
        assertTrue(e.getMessage().contains(MessageHeaders.EVENT_ID), e.getMessage());
    }

    @Test
    void aRecordWithAnEventIdThatIsNoUuidIsRefused() {
        ConsumerRecord<String, String> r = new ConsumerRecord<>("order-events", 0, 0L, "k", "{}");
        r.headers().add(MessageHeaders.EVENT_ID, "not-a-uuid".getBytes(StandardCharsets.UTF_8));
        r.headers().add(MessageHeaders.EVENT_TYPE, "order.created".getBytes(StandardCharsets.UTF_8));

        assertThrows(IllegalArgumentException.class, () -> KafkaOrderEventApplier.read(r));
    }
}
