package io.eeoutbox.relay.kafka;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/** The Kafka record of an outbox message, as {@link KafkaPublisher} describes it. */
final class Records {

    private Records() {
    }

    static ProducerRecord<String, byte[]> of(String topic, OutboxMessage m) {
        List<Header> headers = new ArrayList<>(6);
        header(headers, MessageHeaders.EVENT_ID, m.id().toString());
        header(headers, MessageHeaders.EVENT_TYPE, m.eventType());
        header(headers, MessageHeaders.AGGREGATE_TYPE, m.aggregateType());
        header(headers, MessageHeaders.AGGREGATE_ID, m.aggregateId());
        header(headers, MessageHeaders.CREATED_AT, m.createdAt() == null ? null : m.createdAt().toString());
        header(headers, MessageHeaders.ATTEMPT, Integer.toString(m.attempt()));
        if (m.trace() != null) {
            header(headers, MessageHeaders.TRACEPARENT, m.trace().traceparent());
            header(headers, MessageHeaders.TRACESTATE, m.trace().tracestate());
        }
        return new ProducerRecord<>(topic, null, m.aggregateId(), m.payload().getBytes(StandardCharsets.UTF_8), headers);
    }

    private static void header(List<Header> headers, String name, String value) {
        if (value != null) {
            headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
