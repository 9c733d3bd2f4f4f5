package io.eeoutbox.relay.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.ConfigLookups;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class KafkaSettingsTest {

    private static Map<String, String> minimal() {
        Map<String, String> m = new HashMap<>();
        m.put("outbox.relay.kafka.topic", "orders");
        m.put("outbox.relay.kafka.producer.bootstrap.servers", "localhost:9092");
        return m;
    }

    private static KafkaSettings load(Map<String, String> m) {
        return KafkaSettings.load(ConfigLookups.of(m), m.keySet());
    }

    private static OutboxMessage event(String aggregateType) {
        return new OutboxMessage(UUID.randomUUID(), 1, "order.created", "{}",
                new OutboxMessage.Aggregate(aggregateType, "a-1"), OutboxMessage.Delivery.of(Instant.EPOCH, 1));
    }

    @Test
    void defaultsGiveTheGuarantees() {
        KafkaSettings s = load(minimal());
        assertThat(s.producerProperties())
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", "true")
                .containsEntry("max.in.flight.requests.per.connection", "5")
                .containsEntry("delivery.timeout.ms", "30000")
                .containsEntry("bootstrap.servers", "localhost:9092");
        assertThat(s.deliveryTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.topics().topicFor(event("order"))).isEqualTo("orders");
    }

    @Test
    void everyProducerKeyPassesThroughDeclaredOrNot() {
        Map<String, String> m = minimal();
        m.put("outbox.relay.kafka.producer.compression.type", "lz4");
        m.put("outbox.relay.kafka.producer.my.interceptor.setting", "x");
        // a key the source cannot list (an environment variable) is still found when the client declares it
        Map<String, String> unlisted = Map.of("outbox.relay.kafka.producer.linger.ms", "20");
        Map<String, String> all = new HashMap<>(m);
        all.putAll(unlisted);
        KafkaSettings s = KafkaSettings.load(ConfigLookups.of(all), m.keySet());
        assertThat(s.producerProperties())
                .containsEntry("compression.type", "lz4")
                .containsEntry("my.interceptor.setting", "x")
                .containsEntry("linger.ms", "20");
    }

    @Test
    void secretsAreMaskedWhereverShown() {
        Map<String, String> m = minimal();
        m.put("outbox.relay.kafka.producer.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"hunter2\";");
        m.put("outbox.relay.kafka.producer.ssl.key.password", "hunter3");
        m.put("outbox.relay.kafka.producer.ssl.truststore.password", "hunter4");
        m.put("outbox.relay.kafka.producer.sasl.oauthbearer.token.endpoint.url", "https://idp/token?secret=hunter5");
        KafkaSettings s = load(m);
        assertThat(s.describeProducer()).doesNotContain("hunter").contains("sasl.jaas.config=****")
                .contains("ssl.key.password=****").contains("ssl.truststore.password=****");
        assertThat(s.toString()).doesNotContain("hunter");
        // the client gets the real values
        assertThat(s.producerProperties()).containsEntry("ssl.key.password", "hunter3");
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(KafkaPublisher.class.getName());
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                logged.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        KafkaPublisher publisher;
        try {
            publisher = new KafkaPublisher(s, () -> {
                throw new AssertionError("no producer is made before the first batch");
            });
        } finally {
            log.removeHandler(capture);
        }
        assertThat(logged).as("the start-up line").singleElement().asString()
                .contains("sasl.jaas.config=****").doesNotContain("hunter");
        assertThat(publisher.describe()).doesNotContain("hunter").isEqualTo("kafka:topic=orders@localhost:9092");
    }

    @Test
    void aSecretInABadValueIsMaskedInTheError() {
        assertThat(KafkaSettings.isSecret("sasl.jaas.config")).isTrue();
        assertThat(KafkaSettings.isSecret("sasl.oauthbearer.token.endpoint.url")).isTrue();
        assertThat(KafkaSettings.isSecret("client.secret")).isTrue();
        assertThat(KafkaSettings.isSecret("bootstrap.servers")).isFalse();
        // declared PASSWORD by the client, without a telling name
        assertThat(KafkaSettings.isSecret("ssl.keystore.key")).isTrue();
        assertThat(KafkaSettings.isSecret("ssl.keystore.certificate.chain")).isTrue();
        assertThat(KafkaSettings.isSecret("ssl.truststore.certificates")).isTrue();
        assertThat(KafkaSettings.isSecret("ssl.keystore.location")).isFalse();
    }

    @Test
    void bootstrapServersAreRequired() {
        Map<String, String> m = minimal();
        m.remove("outbox.relay.kafka.producer.bootstrap.servers");
        assertThatThrownBy(() -> load(m)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox.relay.kafka.producer.bootstrap.servers is required");
    }

    @Test
    void exactlyOneTopicRule() {
        Map<String, String> none = minimal();
        none.remove("outbox.relay.kafka.topic");
        assertThatThrownBy(() -> load(none)).hasMessageContaining("outbox.relay.kafka.topic")
                .hasMessageContaining("outbox.relay.kafka.topic-pattern").hasMessageContaining("neither is set");
        Map<String, String> both = minimal();
        both.put("outbox.relay.kafka.topic-pattern", "events.{aggregate_type}");
        assertThatThrownBy(() -> load(both)).hasMessageContaining("both are set");
    }

    @Test
    void illegalTopicNamesAreRefusedNamingTheKey() {
        for (String bad : List.of("orders!", "with space", ".", "..", "x".repeat(250))) {
            Map<String, String> m = minimal();
            m.put("outbox.relay.kafka.topic", bad);
            assertThatThrownBy(() -> load(m)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outbox.relay.kafka.topic=").hasMessageContaining("not a legal Kafka topic name");
        }
        Map<String, String> ok = minimal();
        ok.put("outbox.relay.kafka.topic", "x".repeat(249));
        assertThat(load(ok).topics().toString()).startsWith("topic=xxx");
    }

    @Test
    void topicPatternNeedsThePlaceholderOnceAndLegalLiterals() {
        for (String bad : List.of("events", "events.{aggregate_type}.{aggregate_type}", "ev ents.{aggregate_type}",
                "events.{aggregateType}", "x".repeat(249) + "{aggregate_type}")) {
            Map<String, String> m = minimal();
            m.remove("outbox.relay.kafka.topic");
            m.put("outbox.relay.kafka.topic-pattern", bad);
            assertThatThrownBy(() -> load(m)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outbox.relay.kafka.topic-pattern=");
        }
    }

    @Test
    void topicPatternNamesTopicsByAggregateTypeAndFailsAnEventItCannotName() {
        Map<String, String> m = minimal();
        m.remove("outbox.relay.kafka.topic");
        m.put("outbox.relay.kafka.topic-pattern", "events.{aggregate_type}.v1");
        TopicRule rule = load(m).topics();
        assertThat(rule.topicFor(event("order"))).isEqualTo("events.order.v1");
        assertThatThrownBy(() -> rule.topicFor(event("bad type"))).hasMessageContaining("aggregate type 'bad type'");
        assertThatThrownBy(() -> rule.topicFor(event(null))).hasMessageContaining("has no aggregate type");
    }

    @Test
    void settingsThatWeakenTheGuaranteesAreRefused() {
        Map<String, String[]> cases = Map.of(
                "acks", new String[] {"1", "accepted: all"},
                "enable.idempotence", new String[] {"false", "accepted: true"},
                "max.in.flight.requests.per.connection", new String[] {"6", "accepted: 1..5"},
                "delivery.timeout.ms", new String[] {"many", "accepted: 1..900000"},
                "max.block.ms", new String[] {"-1", "accepted: 0..900000"},
                "request.timeout.ms", new String[] {"0", "accepted: a positive int"});
        cases.forEach((key, v) -> {
            Map<String, String> m = minimal();
            m.put("outbox.relay.kafka.producer." + key, v[0]);
            assertThatThrownBy(() -> load(m)).as(key).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outbox.relay.kafka.producer." + key + "=" + v[0]).hasMessageContaining(v[1]);
        });
        Map<String, String> tight = minimal();
        tight.put("outbox.relay.kafka.producer.delivery.timeout.ms", "5000");
        assertThatThrownBy(() -> load(tight)).hasMessageContaining("at least request.timeout.ms + linger.ms (10005)");
        for (String fixed : List.of("key.serializer", "value.serializer", "transactional.id")) {
            Map<String, String> m = minimal();
            m.put("outbox.relay.kafka.producer." + fixed, "x");
            assertThatThrownBy(() -> load(m)).as(fixed).hasMessageContaining(fixed + " cannot be set");
        }
    }

    @Test
    void theFactoryRefusesADeliveryTimeoutThatOutlastsTheLease() {
        Map<String, String> m = minimal();
        assertThatThrownBy(() -> KafkaPublisherFactory.create(ConfigLookups.of(m), getClass().getClassLoader(),
                Duration.ofSeconds(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delivery.timeout.ms + max.block.ms (40000 ms)")
                .hasMessageContaining("outbox.relay.lease (PT30S)");
    }
}
