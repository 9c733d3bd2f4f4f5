package io.eeoutbox.relay.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.TraceContext;
import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.PublishResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The publisher alone against a real broker: what lands, what is refused alone, what an outage looks like. */
class KafkaPublisherIT {

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start();
        System.out.println("[KafkaPublisherIT] broker: " + kafka.source());
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    static Map<String, String> settings(EmbeddedKafka kafka, String topicKey, String topic) {
        Map<String, String> m = new HashMap<>();
        m.put(topicKey, topic);
        m.put("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
        m.put("outbox.relay.kafka.producer.delivery.timeout.ms", "8000");
        m.put("outbox.relay.kafka.producer.request.timeout.ms", "3000");
        m.put("outbox.relay.kafka.producer.max.block.ms", "3000");
        return m;
    }

    private static KafkaPublisher publisher(Map<String, String> m) {
        return new KafkaPublisher(KafkaSettings.load(ConfigLookups.of(m), m.keySet()));
    }

    private static OutboxMessage event(String aggregateType, String aggregateId, String payload) {
        return new OutboxMessage(UUID.randomUUID(), 1, "order.created", payload,
                new OutboxMessage.Aggregate(aggregateType, aggregateId),
                OutboxMessage.Delivery.of(Instant.parse("2026-12-01T10:15:30.123456Z"), 2));
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void aBatchLandsWithKeysHeadersAndPayloads() {
        kafka.createTopic("pub-basic", 3, Map.of());
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            batch.add(event("order", "o" + (i % 7), "{\"n\":" + i + ",\"text\":\"grüße\"}"));
        }
        batch.add(new OutboxMessage(UUID.randomUUID(), 2, "system.tick", "{}", new OutboxMessage.Aggregate(null, null),
                OutboxMessage.Delivery.of(null, 1)));
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        OutboxMessage traced = new OutboxMessage(UUID.randomUUID(), 3, "order.traced", "{}",
                new OutboxMessage.Aggregate("order", "o-traced"),
                new OutboxMessage.Delivery(Instant.EPOCH, 1, new TraceContext(traceparent, "vendor=1")));
        batch.add(traced);
        try (KafkaPublisher publisher = publisher(settings(kafka, KafkaSettings.TOPIC, "pub-basic"))) {
            assertThat(publisher.publishAll(batch).failures()).isEmpty();
        }
        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("pub-basic", Duration.ofSeconds(30), r -> r.size() >= 52);
        assertThat(read).hasSize(52);
        ConsumerRecord<String, byte[]> withTrace = read.stream()
                .filter(r -> traced.id().toString().equals(header(r, MessageHeaders.EVENT_ID))).findFirst().orElseThrow();
        assertThat(header(withTrace, MessageHeaders.TRACEPARENT)).isEqualTo(traceparent);
        assertThat(header(withTrace, MessageHeaders.TRACESTATE)).isEqualTo("vendor=1");
        ConsumerRecord<String, byte[]> first = read.stream()
                .filter(r -> batch.get(0).id().toString().equals(header(r, MessageHeaders.EVENT_ID))).findFirst().orElseThrow();
        assertThat(first.key()).isEqualTo("o0");
        assertThat(new String(first.value(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":0,\"text\":\"grüße\"}");
        assertThat(header(first, MessageHeaders.EVENT_TYPE)).isEqualTo("order.created");
        assertThat(header(first, MessageHeaders.AGGREGATE_TYPE)).isEqualTo("order");
        assertThat(header(first, MessageHeaders.AGGREGATE_ID)).isEqualTo("o0");
        assertThat(header(first, MessageHeaders.CREATED_AT)).isEqualTo("2026-12-01T10:15:30.123456Z");
        assertThat(header(first, MessageHeaders.ATTEMPT)).isEqualTo("2");
        assertThat(header(first, MessageHeaders.TRACEPARENT)).as("an event written without a trace").isNull();
        assertThat(header(first, MessageHeaders.TRACESTATE)).isNull();
        // one aggregate, one partition
        for (int k = 0; k < 7; k++) {
            String key = "o" + k;
            assertThat(read.stream().filter(r -> key.equals(r.key())).map(ConsumerRecord::partition).distinct()).hasSize(1);
        }
        ConsumerRecord<String, byte[]> tick = read.stream()
                .filter(r -> "system.tick".equals(header(r, MessageHeaders.EVENT_TYPE))).findFirst().orElseThrow();
        assertThat(tick.key()).isNull();
        assertThat(header(tick, MessageHeaders.AGGREGATE_ID)).isNull();
        assertThat(header(tick, MessageHeaders.CREATED_AT)).isNull();
    }

    @Test
    void aRecordAboveTheTopicsLimitFailsAloneAndItsBatchMatesLand() {
        // the topic's limit above the producer's batch.size (16 KiB), as in any real set-up: the large record then
        // travels in a batch of its own, which the broker refuses (a limit below batch.size makes the client split
        // a refused batch of many small records over and over until the delivery timeout: Kafka's behaviour)
        kafka.createTopic("pub-small", 2, Map.of("max.message.bytes", Integer.toString(64 << 10)));
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(event("order", "o" + i, i == 4 ? "\"" + "x".repeat(100 << 10) + "\"" : "{\"n\":" + i + "}"));
        }
        PublishResult result;
        try (KafkaPublisher publisher = publisher(settings(kafka, KafkaSettings.TOPIC, "pub-small"))) {
            result = publisher.publishAll(batch);
        }
        assertThat(result.failures()).containsOnlyKeys(batch.get(4).id());
        assertThat(result.failures().get(batch.get(4).id())).isInstanceOf(RecordTooLargeException.class);
        assertThat(kafka.readAll("pub-small", Duration.ofSeconds(30), r -> r.size() >= 9)).hasSize(9);
    }

    @Test
    void aTopicThatDoesNotExistFailsItsEventsAloneWhenAutoCreationIsOff() {
        kafka.createTopic("events.order", 1, Map.of());
        Map<String, String> m = settings(kafka, KafkaSettings.TOPIC_PATTERN, "events.{aggregate_type}");
        OutboxMessage order = event("order", "o1", "{}");
        OutboxMessage ghost = event("ghost", "g1", "{}");
        OutboxMessage illegal = event("bad type", "b1", "{}");
        PublishResult result;
        try (KafkaPublisher publisher = publisher(m)) {
            result = publisher.publishAll(List.of(ghost, order, illegal));
        }
        assertThat(result.failures()).containsOnlyKeys(ghost.id(), illegal.id());
        assertThat(result.failures().get(ghost.id())).isInstanceOf(UnknownTopicOrPartitionException.class)
                .hasMessageContaining("events.ghost does not exist");
        assertThat(result.failures().get(illegal.id())).isInstanceOf(IllegalArgumentException.class);
        assertThat(kafka.readAll("events.order", Duration.ofSeconds(30), r -> !r.isEmpty())).hasSize(1);
        assertThat(kafka.topics()).doesNotContain("events.ghost");
    }

    @Test
    void aStoppedBrokerMakesTheWholeBatchUnavailableAndTheSamePublisherWorksAfterIt() {
        kafka.createTopic("pub-outage", 2, Map.of());
        try (KafkaPublisher publisher = publisher(settings(kafka, KafkaSettings.TOPIC, "pub-outage"))) {
            assertThat(publisher.publishAll(List.of(event("order", "o1", "{}"))).failures()).isEmpty();
            kafka.stop();
            List<OutboxMessage> batch = List.of(event("order", "o2", "{}"), event("order", "o3", "{}"),
                    event("order", "o4", "{}"));
            PublishResult during;
            try {
                during = publisher.publishAll(batch);
            } finally {
                kafka.restart();
            }
            assertThat(during.failures()).hasSize(3);
            assertThat(during.failures().values()).allMatch(f -> f instanceof BrokerUnavailableException);
            assertThat(publisher.publishAll(batch).failures()).isEmpty();
        }
        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("pub-outage", Duration.ofSeconds(30), r -> r.size() >= 4);
        assertThat(read.stream().map(ConsumerRecord::key).distinct()).contains("o1", "o2", "o3", "o4");
    }

    @Test
    void theFactoryTheRelayUsesMakesAWorkingPublisherFromConfiguration() throws Exception {
        kafka.createTopic("pub-factory", 1, Map.of());
        Map<String, String> m = settings(kafka, KafkaSettings.TOPIC, "pub-factory");
        io.eeoutbox.spi.Publisher publisher = KafkaPublisherFactory.create(ConfigLookups.of(m), getClass().getClassLoader(),
                Duration.ofSeconds(60));
        try {
            assertThat(publisher.describe()).isEqualTo("kafka:topic=pub-factory@" + kafka.bootstrapServers());
            publisher.publish(event("order", "f1", "{}"));
        } finally {
            ((AutoCloseable) publisher).close();
        }
        assertThat(kafka.readAll("pub-factory", Duration.ofSeconds(30), r -> !r.isEmpty())).extracting(ConsumerRecord::key)
                .containsExactly("f1");
    }
}
