package io.eeoutbox.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.ProcessedEventJdbc;
import io.eeoutbox.jpa.generated.RecordProcessedEventParams;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.relay.config.RelayMode;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import io.eeoutbox.relay.kafka.KafkaSettings;
import io.eeoutbox.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * docs/cdc.md's switch-over, run under load: producers write all along; the relay publishes to Kafka; the team switches
 * to the connector (slot and publication, connector started, the relay switched off once it published every event
 * written before the slot existed), the connector is killed and restarted in the middle (its offsets survive), and the
 * team switches back (the relay publishing again, the connector stopped once it confirmed everything written before).
 * A consumer applies every record through the inbox ({@code processed_events}): every acknowledged event arrives at
 * least once, repeats are counted and absorbed, none is missing.
 */
class CdcSwitchOverIT {

    private static final String TOPIC = "events.order";
    private static final String CONSUMER = "switch-over-it";
    /** docs/cdc.md's statements of the switch-over (CdcDocsTest finds them there with its example values). */
    static final String HIGHEST_SEQ = "SELECT max(seq) FROM outbox_events;";
    static final String LEFT_BEFORE_SLOT =
            "SELECT count(*) FROM outbox_events WHERE processed_at IS NULL AND dead_at IS NULL AND seq <= %s;";
    static final String WAL_POSITION = "SELECT pg_current_wal_lsn();";
    static final String CONFIRMED =
            "SELECT confirmed_flush_lsn >= '%s'::pg_lsn FROM pg_replication_slots WHERE slot_name = 'ee_outbox_cdc';";

    /** How long each phase runs under load. */
    private static final Duration PHASE = Duration.ofSeconds(2);

    private final Set<UUID> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<UUID> applied = ConcurrentHashMap.newKeySet();
    private final AtomicLong deliveries = new AtomicLong();
    private final AtomicLong absorbed = new AtomicLong();
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final AtomicBoolean consuming = new AtomicBoolean(true);

    @Test
    void switchingToTheConnectorAndBackUnderLoadLosesNoEvent() throws Exception {
        long started = System.nanoTime();
        Path offsets = Files.createTempFile("ee-outbox-cdc-switch-offsets", ".dat");
        ExecutorService load = Executors.newFixedThreadPool(3);
        try (LogicalPostgres pg = LogicalPostgres.start("cdc_switch_it");
             EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TestDatabase.Db db = pg.server().createDatabase("cdc_switch_it", false);
            kafka.createTopic(TOPIC, 3, Map.of());
            kafka.createTopic(CdcFiles.heartbeatTopic(), 1, Map.of()); // the connector runs longer than its heartbeat interval
            Relays relays = new Relays(db, kafka);
            try {
                load.submit(() -> produce(db, 0));
                load.submit(() -> produce(db, 1));
                load.submit(() -> consume(db, kafka));

                relays.startPublishing();
                await(PHASE);
                mark("relay publishing");

                // To the connector (docs/cdc.md, "Switching over").
                CdcFiles.setupStatements().forEach(db::execute);
                long before = db.queryLong(HIGHEST_SEQ);
                EmbeddedConnector connector = connector(db, kafka, offsets);
                RelayIt.await(Duration.ofSeconds(60), "the relay published every event written before the slot",
                        () -> db.queryLong(LEFT_BEFORE_SLOT.formatted(before)) == 0);
                relays.switchToCdc();
                mark("connector started, relay published what was written before the slot, relay switched off");
                await(PHASE);

                // Rows leave the table: from here on, an event the connector missed would be lost.
                RelayIt.await(Duration.ofSeconds(30), "cdc mode deletes rows older than its retention",
                        () -> db.queryLong("SELECT count(*) FROM outbox_events") < acknowledged.size() - 100);
                // The connector dies in the middle and comes back on its offsets.
                connector.kill();
                RelayIt.await(Duration.ofSeconds(30), "the killed connector's slot is free", () -> db.queryLong(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'ee_outbox_cdc' AND active") == 0);
                mark("connector killed, slot free");
                connector = connector(db, kafka, offsets);
                await(PHASE);

                // Back to the relay.
                relays.switchToRelay();
                mark("relay publishing again");
                String lsn = text(db, WAL_POSITION);
                RelayIt.await(Duration.ofSeconds(60), "the connector confirmed everything written before the relay took over",
                        () -> "t".equals(text(db, CONFIRMED.formatted(lsn))));
                connector.close();
                mark("relay publishing again, connector confirmed and stopped");
                await(PHASE);

                producing.set(false);
                RelayIt.await(Duration.ofSeconds(60), "every acknowledged event applied",
                        () -> applied.containsAll(acknowledged));
                mark("producers stopped, every event applied");
                System.out.printf("[CdcSwitchOverIT] %d events acknowledged, %d records delivered, %d repeats absorbed"
                        + " by the inbox, %d missing; %.1f s%n", acknowledged.size(), deliveries.get(), absorbed.get(),
                        acknowledged.stream().filter(id -> !applied.contains(id)).count(),
                        (System.nanoTime() - started) / 1e9);
                assertThat(acknowledged).as("events written").hasSizeGreaterThan(100);
                assertThat(deliveries.get()).as("records = events applied + repeats absorbed")
                        .isEqualTo(applied.size() + absorbed.get());
            } finally {
                producing.set(false);
                consuming.set(false);
                load.shutdown();
                load.awaitTermination(30, TimeUnit.SECONDS);
                relays.stop();
                CdcFiles.dropSlotAndRole(db);
            }
        } finally {
            Files.deleteIfExists(offsets);
        }
    }

    /** One producer: one event per transaction, acknowledged once committed, about 100 a second. */
    private Void produce(TestDatabase.Db db, int producer) throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            for (long n = 0; producing.get(); n++) {
                UUID id = UUID.randomUUID();
                dao.insertOutboxEvent(new InsertOutboxEventParams(id, "order", "o-" + producer + "-" + (n % 50),
                        "order.created", "{\"n\": " + n + "}", null));
                c.commit();
                acknowledged.add(id);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // pacing, not a wait for a condition
            }
        }
        return null;
    }

    /** The consumer: applies each record once through the inbox, in one transaction per record. */
    private Void consume(TestDatabase.Db db, EmbeddedKafka kafka) throws SQLException {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, CONSUMER);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
             Connection c = db.connect()) {
            consumer.subscribe(List.of(TOPIC));
            c.setAutoCommit(false);
            ProcessedEventJdbc inbox = new ProcessedEventJdbc(c);
            while (consuming.get()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    UUID id = UUID.fromString(CdcComparison.header(r, MessageHeaders.EVENT_ID));
                    deliveries.incrementAndGet();
                    if (inbox.recordProcessedEvent(new RecordProcessedEventParams(CONSUMER, id)) == 0) {
                        absorbed.incrementAndGet();
                    }
                    c.commit();
                    applied.add(id);
                }
            }
        }
        return null;
    }

    /** A one-value query's text, as psql shows it. */
    private static String text(TestDatabase.Db db, String sql) {
        try (Connection c = db.connect(); var st = c.createStatement(); var rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static EmbeddedConnector connector(TestDatabase.Db db, EmbeddedKafka kafka, Path offsets) {
        CdcFiles.Connector file = CdcFiles.connector();
        EmbeddedConnector connector = new EmbeddedConnector(file.name(), CdcFiles.configFor(file, db), offsets,
                kafka.bootstrapServers());
        connector.start();
        return connector;
    }

    private long last = System.nanoTime();

    /** Prints where the time goes and the repeats so far, phase by phase. */
    private void mark(String phase) {
        long now = System.nanoTime();
        System.out.printf("[CdcSwitchOverIT] %-90s +%.1f s, %d acknowledged, %d delivered, %d repeats%n", phase,
                (now - last) / 1e9, acknowledged.size(), deliveries.get(), absorbed.get());
        last = now;
    }

    /** Lets the load run for {@code d} while the test does nothing else. */
    private static void await(Duration d) {
        LockSupport.parkNanos(d.toNanos());
    }

    /** The test's relay: publishing to Kafka, or (between the switches) in cdc mode. */
    private static final class Relays {
        private final TestDatabase.Db db;
        private final EmbeddedKafka kafka;
        private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        private KafkaPublisher publisher;
        private OutboxRelay relay;

        Relays(TestDatabase.Db db, EmbeddedKafka kafka) {
            this.db = db;
            this.kafka = kafka;
        }

        void startPublishing() {
            Map<String, String> m = new HashMap<>();
            m.put(KafkaSettings.TOPIC_PATTERN, "events.{aggregate_type}");
            m.put("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
            publisher = new KafkaPublisher(KafkaSettings.load(ConfigLookups.of(m), m.keySet()));
            relay = OutboxRelay.builder().config(RelayIt.config("switch-over").build()).dataSource(db.dataSource())
                    .executor(executor).publisher(publisher).build();
            relay.start();
        }

        /**
         * The relay in cdc mode: it publishes nothing and deletes rows older than a retention short enough that rows
         * written while the connector publishes are gone from the table before the switch back, so only the connector
         * can have published them.
         */
        void switchToCdc() {
            stop();
            relay = OutboxRelay.builder().config(RelayIt.config("switch-over").set(RelaySettings.MODE, RelayMode.CDC)
                            .set(RelaySettings.CDC_RETENTION, Duration.ofMillis(500))
                            .set(RelaySettings.CLEANUP_INTERVAL, Duration.ofMillis(200)).build())
                    .dataSource(db.dataSource()).executor(executor).build();
            relay.start();
        }

        void switchToRelay() {
            stop();
            startPublishing();
        }

        void stop() {
            if (relay != null) {
                relay.stop(Duration.ofSeconds(10));
                relay = null;
            }
            if (publisher != null) {
                publisher.close();
                publisher = null;
            }
        }
    }
}
