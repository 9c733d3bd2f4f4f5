package io.eeoutbox.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.TraceContext;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import io.eeoutbox.relay.kafka.KafkaSettings;
import io.eeoutbox.testing.TestDatabase;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The CDC path of docs/cdc.md makes the same Kafka records as the relay's {@link KafkaPublisher}: the same events,
 * written once through the generated DAO, are published by the relay and then read from the write-ahead log by
 * Debezium's PostgreSQL connector with the outbox event router, configured by docs/cdc/ee-outbox-connector.json and
 * docs/cdc/ee-outbox-cdc-setup.sql as they are; the two records of each event are compared field by field
 * ({@link CdcComparison}, which also holds the differences docs/cdc.md lists).
 *
 * <p>Both paths write to one broker and the same topics: the relay's records first, the connector's after them (the
 * slot, made by the setup file before the writes, keeps the inserts until the connector reads them).
 */
class CdcRecordsIT {

    private static final String PATTERN = "events.{aggregate_type}";
    private static final List<String> TOPICS = List.of("events.order", "events.payment", "events.customer");
    private static final TraceContext WITH_STATE = new TraceContext(
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
    private static final TraceContext PARENT_ONLY = TraceContext.of("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");

    /** One event to write; trace may be null. */
    private record Event(String aggregateType, String aggregateId, String eventType, String payload, TraceContext trace) {
    }

    @Test
    void theConnectorMakesTheRecordsOfTheRelaysKafkaPublisher() throws Exception {
        long started = System.nanoTime();
        // The Connect worker's OpenTelemetry: the W3C propagator and no tracer of its own (docs/cdc.md, "Trace context").
        GlobalOpenTelemetry.resetForTest();
        GlobalOpenTelemetry.set(OpenTelemetry.propagating(ContextPropagators.create(W3CTraceContextPropagator.getInstance())));
        Path offsets = Files.createTempFile("ee-outbox-cdc-offsets", ".dat");
        try (LogicalPostgres pg = LogicalPostgres.start("cdc_records_it");
             EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TestDatabase.Db db = pg.server().createDatabase("cdc_records_it", false);
            System.out.println("[CdcRecordsIT] PostgreSQL: " + pg.server().source() + ", broker: " + kafka.source());
            CdcFiles.setupStatements().forEach(db::execute);
            try {
                TOPICS.forEach(t -> kafka.createTopic(t, 3, Map.of()));
                kafka.createTopic(CdcFiles.heartbeatTopic(), 1, Map.of()); // heartbeats every 10 s: a slow run sends one
                Map<UUID, Event> written = write(db);

                long servers = System.nanoTime();
                Map<UUID, ConsumerRecord<String, byte[]>> relayed = relay(db, kafka, written.size());
                long relayDone = System.nanoTime();
                Map<UUID, ConsumerRecord<String, byte[]>> captured = capture(db, kafka, offsets, relayed);
                System.out.printf("[CdcRecordsIT] servers and setup %.1f s, relay %.1f s, connector (start, read, stop) %.1f s%n",
                        (servers - started) / 1e9, (relayDone - servers) / 1e9, (System.nanoTime() - relayDone) / 1e9);

                assertThat(captured.keySet()).as("events the connector wrote").isEqualTo(written.keySet());
                List<String> differences = new ArrayList<>();
                written.forEach((id, e) -> differences.addAll(CdcComparison.compare(id, e.trace() != null,
                        relayed.get(id), captured.get(id))));
                assertThat(differences).as("differences between the relay's and the connector's records").isEmpty();
            } finally {
                CdcFiles.dropSlotAndRole(db);
            }
        } finally {
            GlobalOpenTelemetry.resetForTest();
            Files.deleteIfExists(offsets);
            System.out.printf("[CdcRecordsIT] wall time %.1f s%n", (System.nanoTime() - started) / 1e9);
        }
    }

    /** Several aggregate types, one aggregate with several events, with and without trace context, in two transactions. */
    private static Map<UUID, Event> write(TestDatabase.Db db) {
        Map<UUID, Event> written = new LinkedHashMap<>();
        write(db, written, List.of(
                new Event("order", "o-1", "order.created", "{\"total\": 12.50, \"lines\": [{\"sku\": \"A-1\", \"qty\": 2}]}", WITH_STATE),
                new Event("order", "o-1", "order.paid", "{\"paid\": true}", PARENT_ONLY),
                new Event("order", "o-2", "order.created", "{\"total\": 0, \"note\": null}", null),
                new Event("payment", "p-1", "payment.captured", "{\"amount\": 1250, \"currency\": \"EUR\"}", null)));
        write(db, written, List.of(
                new Event("customer", "c-1", "customer.registered", "{\"name\": \"Zoë Ωmega\", \"tags\": [\"a\", \"b\"]}", WITH_STATE),
                new Event("customer", "c-1", "customer.renamed", "[1, 2, 3]", null),
                new Event("payment", "p-1", "payment.refunded", "{\"amount\": 1250}", PARENT_ONLY),
                new Event("order", "o-1", "order.shipped", "{}", null)));
        writeAt(db, written, new Event("payment", "p-2", "payment.settled", "{\"n\": 1}", null), "2026-01-02T03:04:05.120Z");
        writeAt(db, written, new Event("customer", "c-2", "customer.closed", "{\"n\": 2}", WITH_STATE), "2026-01-02T03:04:06Z");
        return written;
    }

    /**
     * An event whose created_at falls on a whole millisecond or second, where the two paths write the time's text
     * differently (docs/cdc.md, "What differs"). The DAO takes created_at from the transaction's start, which cannot be
     * chosen, so this insert names the column; the other columns are the DAO's statement's.
     */
    private static void writeAt(TestDatabase.Db db, Map<UUID, Event> written, Event e, String createdAt) {
        UUID id = UUID.randomUUID();
        db.execute("INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext,"
                + " created_at) VALUES ('" + id + "', '" + e.aggregateType() + "', '" + e.aggregateId() + "', '"
                + e.eventType() + "', '" + e.payload() + "'::jsonb, " + (e.trace() == null ? "NULL" : "'"
                + e.trace().toStoredText().replace("'", "''") + "'") + ", '" + createdAt + "'::timestamptz)");
        written.put(id, e);
    }

    private static void write(TestDatabase.Db db, Map<UUID, Event> written, List<Event> events) {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            for (Event e : events) {
                UUID id = UUID.randomUUID();
                dao.insertOutboxEvent(new InsertOutboxEventParams(id, e.aggregateType(), e.aggregateId(), e.eventType(),
                        e.payload(), e.trace() == null ? null : e.trace().toStoredText()));
                written.put(id, e);
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The relay with the Kafka publisher (topic-pattern events.{aggregate_type}) publishes every event once. */
    private static Map<UUID, ConsumerRecord<String, byte[]>> relay(TestDatabase.Db db, EmbeddedKafka kafka, int n)
            throws InterruptedException {
        Map<String, String> m = new HashMap<>();
        m.put(KafkaSettings.TOPIC_PATTERN, PATTERN);
        m.put("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
        try (KafkaPublisher publisher = new KafkaPublisher(KafkaSettings.load(ConfigLookups.of(m), m.keySet()))) {
            OutboxRelay relay = OutboxRelay.builder().config(RelayIt.config("cdc-records").build())
                    .dataSource(db.dataSource()).executor(executor).publisher(publisher).build();
            relay.start();
            try {
                RelayIt.await(Duration.ofSeconds(60), "the relay published every event", () -> RelayIt.pending(db) == 0);
            } finally {
                relay.stop(Duration.ofSeconds(10));
            }
        } finally {
            executor.shutdownNow();
        }
        Map<UUID, ConsumerRecord<String, byte[]>> byEvent = read(kafka, n, Set.of());
        assertThat(byEvent).as("records the relay wrote").hasSize(n);
        return byEvent;
    }

    /** The connector, as docs/cdc/ee-outbox-connector.json configures it, reads the same inserts from the slot. */
    private static Map<UUID, ConsumerRecord<String, byte[]>> capture(TestDatabase.Db db, EmbeddedKafka kafka, Path offsets,
            Map<UUID, ConsumerRecord<String, byte[]>> relayed) throws Exception {
        CdcFiles.Connector file = CdcFiles.connector();
        Map<String, String> config = CdcFiles.configFor(file, db);
        Set<String> relayPositions = new HashSet<>();
        relayed.values().forEach(r -> relayPositions.add(position(r)));
        try (EmbeddedConnector connector = new EmbeddedConnector(file.name(), config, offsets, kafka.bootstrapServers())) {
            connector.start();
            int n = relayed.size();
            RelayIt.await(Duration.ofSeconds(90), "the connector wrote " + n + " outbox records", () -> {
                if (connector.failure() != null) {
                    throw new AssertionError("the connector failed", connector.failure());
                }
                return TOPICS.stream().mapToLong(kafka::count).sum() >= 2L * n;
            });
            // docs/cdc.md's lag query, as an operator runs it: the slot is in use and has confirmed what was sent
            RelayIt.await(Duration.ofSeconds(30), "the lag query shows the slot active, lag_bytes >= 0", () -> lagRow(db));
        }
        return read(kafka, relayed.size(), relayPositions);
    }

    private static boolean lagRow(TestDatabase.Db db) {
        try (Connection c = db.connect(); var s = c.createStatement(); var rs = s.executeQuery(CdcFiles.read(CdcFiles.LAG))) {
            return rs.next() && rs.getString("slot_name").equals("ee_outbox_cdc") && rs.getBoolean("active")
                    && rs.getLong("lag_bytes") >= 0 && rs.getLong("retained_wal_bytes") >= 0
                    && "streaming".equals(rs.getString("sender_state"));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The records of the outbox topics by event id, leaving out those at {@code skip} (topic/partition@offset). */
    private static Map<UUID, ConsumerRecord<String, byte[]>> read(EmbeddedKafka kafka, int n, Set<String> skip) {
        Map<UUID, ConsumerRecord<String, byte[]>> byEvent = new LinkedHashMap<>();
        for (String topic : TOPICS) {
            for (ConsumerRecord<String, byte[]> r : kafka.readAll(topic, Duration.ofSeconds(30),
                    read -> read.size() >= kafka.count(topic))) {
                if (skip.contains(position(r))) {
                    continue;
                }
                UUID id = UUID.fromString(CdcComparison.header(r, MessageHeaders.EVENT_ID));
                ConsumerRecord<String, byte[]> before = byEvent.put(id, r);
                assertThat(before).as("a second record of event " + id + " at " + position(r)).isNull();
            }
        }
        return byEvent;
    }

    private static String position(ConsumerRecord<?, ?> r) {
        return r.topic() + "/" + r.partition() + "@" + r.offset();
    }
}
