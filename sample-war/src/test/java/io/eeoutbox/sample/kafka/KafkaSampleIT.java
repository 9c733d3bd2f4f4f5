package io.eeoutbox.sample.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.sample.demo.DemoServer;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.it.Await;
import io.eeoutbox.sample.it.ConsumedTrace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sample in Kafka mode on a real server (the failsafe execution's, {@code outbox.it.server}): a Kafka broker in
 * the test JVM (outbox-ee-relay's {@link EmbeddedKafka}), the sample WAR unchanged, started with
 * {@code outbox.relay.publisher=kafka} and the broker's address as system properties, as the demo's
 * {@code -Ddemo.publisher=kafka} does. Orders created over HTTP must reach the topic through the relay inside the
 * server, with the event id header, and be applied exactly once by the sample's Kafka consumer: every event in the
 * projection, one inbox row per event. No JMS message is involved: in Kafka mode the relay publishes nothing to
 * the queue the MDB reads. An order created in a traced request (a {@code traceparent} of the test's) reaches the
 * consumer with that trace, and the consumer's span continues it. The group's offsets are committed up to the topic's end, and stopping the server (which
 * undeploys the sample) takes the consumer out of its group.
 *
 * <p>A database of its own (beside the in-server suite's) and a server process of its own, on free ports.
 */
@Tag("in-server")
class KafkaSampleIT {

    private static final String TOPIC = "order-events";
    private static final String GROUP = "order-projection";
    private static final int ORDERS = 20;
    private static final Duration DEPLOY_PATIENCE = Duration.ofMinutes(5);
    private static final Duration DELIVERY_PATIENCE = Duration.ofSeconds(120);

    private final String product = System.getProperty("outbox.it.server", "");

    @Test
    void ordersArePublishedToKafkaAndAppliedOnceByTheSamplesConsumer() throws Exception {
        Path work = Path.of(required("setup.work-dir")).resolveSibling("kafka-it").resolve(product).toAbsolutePath();
        try (EmbeddedKafka kafka = EmbeddedKafka.startInProcess();
             KafkaItDatabase db = KafkaItDatabase.create("kafka_sample_" + product);
             DemoServer server = server(work)) {
            kafka.createTopic(TOPIC, 3, Map.of());
            server.systemProperty("outbox.relay.publisher", "kafka")
                    .systemProperty("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
            server.start(Path.of(required("setup.war")), db.url(), db.user(), db.password());
            server.awaitDeployed(DEPLOY_PATIENCE);

            OrdersApi api = new OrdersApi(URI.create(server.baseUrl() + "/"));
            List<String> orders = new ArrayList<>();
            for (int i = 0; i < ORDERS; i++) {
                OrdersApi.Reply created = api.createOrder("kafka-" + i, i + ".25");
                assertTrue(created.isCreated(), "create an order on " + server + ": " + created);
                orders.add(created.id().orElseThrow());
            }
            List<String> paid = orders.subList(0, ORDERS / 2);
            for (String id : paid) {
                OrdersApi.Reply changed = api.changeStatus(id, "PAID");
                assertEquals(200, changed.status(), "pay order " + id + ": " + changed);
            }
            int events = ORDERS + paid.size();

            Set<String> eventIds = Await.until(DELIVERY_PATIENCE, () -> db.publishedEventIds(orders),
                    ids -> ids.size() == events, "the relay to publish the " + events + " events on " + server);
            List<ConsumerRecord<String, byte[]>> records = kafka.readAll(TOPIC, DELIVERY_PATIENCE,
                    read -> idsOf(read).containsAll(eventIds));
            assertTrue(idsOf(records).containsAll(eventIds), "every published event is on topic " + TOPIC + "; read "
                    + records.size() + " records");

            Await.until(DELIVERY_PATIENCE, () -> db.projectedEvents(orders), n -> n == events,
                    "the sample's Kafka consumer to apply the " + events + " events on " + server);
            assertEquals(eventIds, db.inboxEventIds(eventIds), "one inbox row per event, consumer order-projection");
            for (String id : orders) {
                OrdersApi.Reply projection = api.getProjection(id);
                assertEquals(200, projection.status(), projection.toString());
                String status = paid.contains(id) ? "PAID" : "NEW";
                int applied = paid.contains(id) ? 2 : 1;
                assertTrue(projection.body().contains("\"status\":\"" + status + "\"")
                        && projection.body().contains("\"eventsApplied\":" + applied), "order " + id + ": " + projection);
            }

            // a traced request: the record carries its trace, and the Kafka consumer's span continues it
            String traceId = UUID.randomUUID().toString().replace("-", "");
            HttpResponse<String> traced = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(server.baseUrl() + "/api/orders")).header("Content-Type", "application/json")
                    .header("traceparent", "00-" + traceId + "-" + traceId.substring(0, 16) + "-01")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"customerId\":\"kafka-traced\",\"total\":2.50}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, traced.statusCode(), traced.body());
            String tracedOrder = traced.headers().firstValue("Location").orElseThrow().replaceFirst(".*/", "");
            ConsumedTrace consumed = Await.until(DELIVERY_PATIENCE, () -> db.consumedTrace(tracedOrder), r -> r != null,
                    "the sample's Kafka consumer to apply the traced order on " + server);
            assertTrue(consumed.receivedTraceparent() != null && consumed.receivedTraceparent().contains("-" + traceId + "-"),
                    "the record's traceparent is in the request's trace: " + consumed.receivedTraceparent());
            assertEquals(traceId, consumed.consumerTraceId(), "the Kafka consumer's span is in the request's trace");

            // the offsets are committed after the records were applied: all of them, once the topic is read
            long published = kafka.count(TOPIC);
            Await.until(DELIVERY_PATIENCE, () -> committed(kafka), n -> n == published,
                    "group order-projection to commit the topic's " + published + " records");
            // stopping the server undeploys the sample: the consumer leaves its group (no member waits for a timeout)
            server.close();
            ConsumerGroupDescription group = describeGroup(kafka);
            assertTrue(group.members().isEmpty(), "group order-projection after the server stopped: " + group);
        }
    }

    private static long committed(EmbeddedKafka kafka) throws Exception {
        try (Admin admin = kafka.admin()) {
            return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
        }
    }

    private static ConsumerGroupDescription describeGroup(EmbeddedKafka kafka) throws Exception {
        try (Admin admin = kafka.admin()) {
            return admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP).get(10, TimeUnit.SECONDS);
        }
    }

    private static Set<String> idsOf(List<ConsumerRecord<String, byte[]>> records) {
        return records.stream()
                .map(r -> r.headers().lastHeader(MessageHeaders.EVENT_ID))
                .filter(h -> h != null)
                .map(h -> new String(h.value(), StandardCharsets.UTF_8))
                .collect(Collectors.toSet());
    }

    private DemoServer server(Path work) {
        if ("wildfly".equals(product)) {
            int from = Integer.getInteger("wildfly.port-offset", 1100) + 400;
            return DemoServer.wildfly(Path.of(required("wildfly.home")), work, DemoServer.freeOffset(true, from, 7));
        }
        int from = Integer.getInteger("liberty.http-port", 9380) - 9080 + 400;
        return DemoServer.liberty(Path.of(required("liberty.home")), Path.of("src/main/server/liberty/server.xml").toAbsolutePath(),
                work, DemoServer.freeOffset(false, from, 7), "kafka-sample-it");
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (sample-war's pom sets it)");
        }
        return value;
    }
}
