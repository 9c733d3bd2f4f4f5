package io.eeoutbox.sample.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.relay.cdc.CdcFiles;
import io.eeoutbox.relay.cdc.EmbeddedConnector;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.sample.demo.DemoServer;
import io.eeoutbox.sample.fault.harness.OrdersApi;
import io.eeoutbox.sample.fault.harness.WildFlyManagement;
import io.eeoutbox.sample.it.Await;
import io.eeoutbox.sample.it.ConsumedTrace;
import io.eeoutbox.testing.TestDatabase;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
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
import org.junit.jupiter.api.Assumptions;
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
 * consumer with that trace, and the consumer's span continues it. The group's offsets are committed up to the topic's
 * end, and stopping the server (which undeploys the sample) takes the consumer out of its group. Then the same table
 * is read by a CDC connector instead, the relay in cdc mode, and the same consumer applies its records (docs/cdc.md;
 * {@link #connectorRecordsAreAppliedByTheSameConsumer}).
 *
 * <p>A database of its own (beside the in-server suite's) and a server process of its own, on free ports.
 */
@Tag("in-server")
class KafkaSampleIT {

    private static final String TOPIC = "order-events";
    private static final String GROUP = "order-projection";
    private static final int ORDERS = 20;
    private static final int CDC_ORDERS = 10;
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

            tracedOrderContinuesItsTrace(server, db, "kafka-traced");

            // the offsets are committed after the records were applied: all of them, once the topic is read
            long published = kafka.count(TOPIC);
            Await.until(DELIVERY_PATIENCE, () -> committed(kafka), n -> n == published,
                    "group order-projection to commit the topic's " + published + " records");
            // stopping the server undeploys the sample: the consumer leaves its group (no member waits for a timeout)
            server.close();
            ConsumerGroupDescription group = describeGroup(kafka);
            assertTrue(group.members().isEmpty(), "group order-projection after the server stopped: " + group);

            connectorRecordsAreAppliedByTheSameConsumer(kafka, db, server, work);
        }
    }

    /**
     * The second part (issue 33): the team switches the reader. The same table is read by docs/cdc/'s connector in
     * Debezium's embedded engine in the test JVM, outside the server as Kafka Connect would be, writing to the sample's
     * one topic ({@code transforms.outbox.route.topic.replacement}, as docs/cdc.md says for
     * {@code outbox.relay.kafka.topic}); the server restarts with the relay in cdc mode ({@code OUTBOX_RELAY_MODE=cdc}
     * in its environment), and the sample's consumer, unchanged and in the same group, applies the connector's
     * records through the inbox. Needs logical decoding: the suite's embedded PostgreSQL has it; a given server
     * without it skips this part, after the relay part above has passed.
     */
    private void connectorRecordsAreAppliedByTheSameConsumer(EmbeddedKafka kafka, KafkaItDatabase itDb, DemoServer server,
                                                             Path work) throws Exception {
        TestDatabase.Db db = itDb.asTestDb();
        Assumptions.assumeTrue(db.queryLong("SELECT count(*) FROM pg_settings WHERE name = 'wal_level'"
                        + " AND setting = 'logical'") == 1,
                "the CDC part needs wal_level=logical (docs/cdc.md), which the given PostgreSQL (outbox.test.jdbc-url) lacks");
        CdcFiles.setupStatements().forEach(db::execute);
        try {
            kafka.createTopic(CdcFiles.heartbeatTopic(), 1, Map.of());
            // the gauges refreshed every second instead of 15 (WildFly's model shows the slot as the last refresh read it)
            server.environment("OUTBOX_RELAY_MODE", "cdc").environment("OUTBOX_RELAY_METRICS_REFRESH_INTERVAL", "PT1S")
                    .restart();
            server.awaitDeployed(DEPLOY_PATIENCE);
            Map<String, String> config = CdcFiles.configFor(CdcFiles.connector(), db);
            config.put("transforms.outbox.route.topic.replacement", TOPIC);
            // a worker with OpenTelemetry's W3C propagator and no SDK, which writes the writer's trace context as
            // the records' traceparent (docs/cdc.md, "Trace context")
            GlobalOpenTelemetry.resetForTest();
            GlobalOpenTelemetry.set(OpenTelemetry.propagating(ContextPropagators.create(W3CTraceContextPropagator.getInstance())));
            try (EmbeddedConnector connector = new EmbeddedConnector("ee-outbox-cdc", config,
                    work.resolve("cdc-offsets.dat"), kafka.bootstrapServers())) {
                connector.start();
                JsonObject cdc = Await.until(DELIVERY_PATIENCE, () -> overview(server),
                        o -> "true".equals(o.getJsonObject("backlog").getJsonObject("cdcSlot").getString("active")),
                        "the console of " + server + " to show the connector on the slot");
                assertEquals("cdc", cdc.getJsonObject("backlog").getString("mode"), cdc.toString());
                assertTrue(cdc.getJsonArray("relays").getJsonObject(0).getString("publisher").startsWith("none"),
                        "the relay publishes nothing in cdc mode: " + cdc);
                if (server.managementPort() > 0) { // WildFly: the ee-outbox subsystem's model says so too, as of the
                    // relay's last gauge refresh (outbox.relay.metrics.refresh-interval)
                    JsonObject model = Await.until(DELIVERY_PATIENCE, () -> wildflyRelay(server),
                            m -> "true".equals(m.getJsonObject("cdc-slot").getString("active")),
                            "WildFly's model of " + server + " to show the connector on the slot");
                    assertEquals("cdc", model.getString("mode"), model.toString());
                }

                OrdersApi api = new OrdersApi(URI.create(server.baseUrl() + "/"));
                List<String> orders = new ArrayList<>();
                for (int i = 0; i < CDC_ORDERS; i++) {
                    OrdersApi.Reply created = api.createOrder("cdc-" + i, i + ".75");
                    assertTrue(created.isCreated(), "create an order on " + server + " in cdc mode: " + created);
                    orders.add(created.id().orElseThrow());
                }
                for (String id : orders.subList(0, CDC_ORDERS / 2)) {
                    assertEquals(200, api.changeStatus(id, "PAID").status(), "pay order " + id);
                }
                int events = CDC_ORDERS + CDC_ORDERS / 2;
                Set<String> eventIds = itDb.eventIds(orders);
                assertEquals(events, eventIds.size(), "the orders' events in the outbox");

                Await.until(DELIVERY_PATIENCE, () -> itDb.projectedEvents(orders), n -> n == events,
                        "the sample's Kafka consumer to apply the connector's " + events + " records on " + server);
                assertEquals(eventIds, itDb.inboxEventIds(eventIds), "one inbox row per event, consumer order-projection");
                assertTrue(idsOf(kafka.readAll(TOPIC, DELIVERY_PATIENCE, read -> idsOf(read).containsAll(eventIds)))
                        .containsAll(eventIds), "every event is on topic " + TOPIC);
                assertEquals(Set.of(), itDb.publishedEventIds(orders),
                        "no event marked published by the relay: the records came from the connector");
                tracedOrderContinuesItsTrace(server, itDb, "cdc-traced");
                assertEquals(null, connector.failure(), "the connector's engine");
            }
        } finally {
            GlobalOpenTelemetry.resetForTest();
            CdcFiles.dropSlotAndRole(db); // the slot would keep WAL, and DROP DATABASE refuses a database with a slot
        }
    }

    /** The sample's relay in WildFly's model ({@code /subsystem=ee-outbox/relay=*}), as the test server's Monitor reads it. */
    private static JsonObject wildflyRelay(DemoServer server) throws Exception {
        WildFlyManagement monitor = WildFlyManagement.onLocalPort(server.managementPort(), "outbox-monitor",
                "outbox-monitor-1");
        JsonObject names = json(monitor.run("read-children-names", Map.of("child-type", "relay"), "subsystem", "ee-outbox"));
        assertEquals(1, names.getJsonArray("result").size(), "one relay in " + server + ": " + names);
        String relay = names.getJsonArray("result").getString(0);
        return json(monitor.run("read-resource", Map.of("include-runtime", "true"), "subsystem", "ee-outbox", "relay", relay))
                .getJsonObject("result");
    }

    private static JsonObject json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** The console's overview as the test server's viewer (outbox-viewer) reads it. */
    private static JsonObject overview(DemoServer server) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(server.baseUrl() + "/outbox-admin/api/overview"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        "outbox-viewer:outbox-viewer-1".getBytes(StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), "GET the console's api/overview: " + r.body());
        return json(r.body());
    }

    /** A traced request: the record carries its trace, and the Kafka consumer's span continues it. */
    private static void tracedOrderContinuesItsTrace(DemoServer server, KafkaItDatabase db, String customer)
            throws Exception {
        String traceId = UUID.randomUUID().toString().replace("-", "");
        HttpResponse<String> traced = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(server.baseUrl() + "/api/orders")).header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-" + traceId.substring(0, 16) + "-01")
                .POST(HttpRequest.BodyPublishers.ofString("{\"customerId\":\"" + customer + "\",\"total\":2.50}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, traced.statusCode(), traced.body());
        String tracedOrder = traced.headers().firstValue("Location").orElseThrow().replaceFirst(".*/", "");
        ConsumedTrace consumed = Await.until(DELIVERY_PATIENCE, () -> db.consumedTrace(tracedOrder), r -> r != null,
                "the sample's Kafka consumer to apply the traced order " + customer + " on " + server);
        assertTrue(consumed.receivedTraceparent() != null && consumed.receivedTraceparent().contains("-" + traceId + "-"),
                "the record's traceparent is in the request's trace: " + consumed.receivedTraceparent());
        assertEquals(traceId, consumed.consumerTraceId(), "the Kafka consumer's span is in the request's trace");
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
