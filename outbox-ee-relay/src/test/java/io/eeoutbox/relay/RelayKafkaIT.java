package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import io.eeoutbox.relay.kafka.KafkaSettings;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import io.eeoutbox.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay with the shipped Kafka publisher against a real PostgreSQL and a real Kafka broker (see
 * {@link EmbeddedKafka}); assertions on what a consumer reads from the topic.
 */
class RelayKafkaIT {

    private static EmbeddedKafka kafka;
    private TestDatabase.Db db;
    private final List<ScheduledExecutorService> executors = new ArrayList<>();
    private final List<OutboxRelay> relays = new ArrayList<>();
    private final List<KafkaPublisher> publishers = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start();
        System.out.println("[RelayKafkaIT] broker: " + kafka.source());
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("relay_kafka_it", false);
    }

    @AfterEach
    void tearDown() {
        relays.forEach(r -> r.stop(Duration.ofSeconds(10)));
        executors.forEach(ScheduledExecutorService::shutdownNow);
        publishers.forEach(KafkaPublisher::close);
    }

    private KafkaPublisher publisher(String topic) {
        Map<String, String> m = new HashMap<>();
        m.put(KafkaSettings.TOPIC, topic);
        m.put("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
        m.put("outbox.relay.kafka.producer.delivery.timeout.ms", "8000");
        m.put("outbox.relay.kafka.producer.request.timeout.ms", "3000");
        m.put("outbox.relay.kafka.producer.max.block.ms", "3000");
        KafkaPublisher p = new KafkaPublisher(KafkaSettings.load(io.eeoutbox.relay.config.ConfigLookups.of(m), m.keySet()));
        publishers.add(p);
        return p;
    }

    private OutboxRelay relay(RelayConfig config, Publisher publisher, RelayListener listener, ScheduledExecutorService executor) {
        executors.add(executor);
        OutboxRelay r = OutboxRelay.builder().config(config).dataSource(db.dataSource()).executor(executor)
                .publisher(publisher).listener(listener).build();
        relays.add(r);
        return r;
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Writes {@code perAggregate} events for each of {@code aggregates}, interleaved; payload {"k":n} counts per aggregate. */
    private List<UUID> writeInterleaved(int aggregates, int perAggregate, String prefix, int payloadPadding) {
        List<UUID> ids = new ArrayList<>();
        String pad = "x".repeat(payloadPadding);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            OutboxEventJdbc dao = new OutboxEventJdbc(c);
            for (int k = 0; k < perAggregate; k++) {
                for (int a = 0; a < aggregates; a++) {
                    UUID id = UUID.randomUUID();
                    dao.insertOutboxEvent(new InsertOutboxEventParams(id, "order", prefix + a, "order.changed",
                            "{\"k\":" + k + ",\"pad\":\"" + pad + "\"}", null));
                    ids.add(id);
                }
                c.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return ids;
    }

    private static int k(ConsumerRecord<String, byte[]> r) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"k\":\\s*(\\d+)")
                .matcher(new String(r.value(), StandardCharsets.UTF_8)); // stored as jsonb: "k": 0
        assertThat(m.find()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static Set<String> eventIds(List<ConsumerRecord<String, byte[]>> records) {
        Set<String> ids = new HashSet<>();
        records.forEach(r -> ids.add(header(r, MessageHeaders.EVENT_ID)));
        return ids;
    }

    private static Set<String> strings(List<UUID> ids) {
        Set<String> s = new HashSet<>();
        ids.forEach(id -> s.add(id.toString()));
        return s;
    }

    private long deadLetters() {
        return db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL")
                + db.queryLong("SELECT count(*) FROM outbox_dead_letters");
    }

    @Test
    void everyEventLandsOnceKeyedByItsAggregateWithTheOutboxHeaders() throws Exception {
        kafka.createTopic("relay-basic", 4, Map.of());
        List<UUID> written = RelayIt.writeCommitted(db, 600, i -> new RelayIt.Event("order", "o" + (i % 23), "order.created"));
        relay(RelayIt.config("kafka-basic").set(RelaySettings.BATCH_SIZE, 100).build(), publisher("relay-basic"), null,
                Executors.newScheduledThreadPool(1)).start();
        RelayIt.await(Duration.ofSeconds(60), "every event marked", () -> RelayIt.pending(db) == 0);

        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("relay-basic", Duration.ofSeconds(30), r -> r.size() >= 600);
        assertThat(read).hasSize(600);
        assertThat(eventIds(read)).isEqualTo(strings(written));
        for (ConsumerRecord<String, byte[]> r : read) {
            assertThat(r.key()).isEqualTo(header(r, MessageHeaders.AGGREGATE_ID)).startsWith("o");
            assertThat(header(r, MessageHeaders.AGGREGATE_TYPE)).isEqualTo("order");
            assertThat(header(r, MessageHeaders.EVENT_TYPE)).isEqualTo("order.created");
            assertThat(header(r, MessageHeaders.ATTEMPT)).isEqualTo("1");
            assertThat(Instant.parse(header(r, MessageHeaders.CREATED_AT))).isBefore(Instant.now());
            assertThat(new String(r.value(), StandardCharsets.UTF_8)).startsWith("{\"n\":");
        }
        assertThat(deadLetters()).isZero();
    }

    @Test
    void twoOrderedRelaysKeepEachAggregatesWriteOrderInItsPartition() throws Exception {
        kafka.createTopic("relay-ordered", 6, Map.of());
        RelayConfig ordered = RelayIt.config("x").set(RelaySettings.ORDERED, true).set(RelaySettings.BATCH_SIZE, 40).build();
        relay(ordered.toBuilder().set(RelaySettings.NAME, "ordered-a").build(), publisher("relay-ordered"), null,
                Executors.newScheduledThreadPool(1)).start();
        relay(ordered.toBuilder().set(RelaySettings.NAME, "ordered-b").build(), publisher("relay-ordered"), null,
                Executors.newScheduledThreadPool(1)).start();
        // written while both relays run, in 40 transactions of one event per aggregate
        List<UUID> written = writeInterleaved(30, 40, "agg", 0);
        RelayIt.await(Duration.ofSeconds(120), "every event marked", () -> RelayIt.pending(db) == 0);

        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("relay-ordered", Duration.ofSeconds(30),
                r -> r.size() >= written.size());
        assertThat(eventIds(read)).isEqualTo(strings(written));
        Map<String, List<Integer>> byKey = new LinkedHashMap<>();
        Map<String, Integer> partitionOf = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : read) { // partition order, then offset order
            byKey.computeIfAbsent(r.key(), x -> new ArrayList<>()).add(k(r));
            assertThat(partitionOf.computeIfAbsent(r.key(), x -> r.partition())).as(r.key()).isEqualTo(r.partition());
        }
        assertThat(byKey).hasSize(30);
        byKey.forEach((key, ks) -> {
            List<Integer> firsts = ks.stream().distinct().toList();
            assertThat(firsts).as("the order of " + key + "'s events in its partition").isSorted().hasSize(40);
        });
        assertThat(new HashSet<>(partitionOf.values())).as("the aggregates spread over partitions").hasSizeGreaterThan(1);
    }

    @Test
    void aRecordTheClusterRefusesFailsAloneAndBecomesADeadLetterWhileItsBatchMatesLand() throws Exception {
        kafka.createTopic("relay-refused", 2, Map.of("max.message.bytes", Integer.toString(64 << 10)));
        List<UUID> small = new ArrayList<>(RelayIt.writeCommitted(db, 20, i -> new RelayIt.Event("order", "o" + i, "order.created")));
        UUID big = UUID.randomUUID();
        try (Connection c = db.connect()) {
            new OutboxEventJdbc(c).insertOutboxEvent(new InsertOutboxEventParams(big, "order", "big", "order.created",
                    "\"" + "x".repeat(100 << 10) + "\"", null));
        }
        small.addAll(RelayIt.writeCommitted(db, 20, i -> new RelayIt.Event("order", "p" + i, "order.created")));
        List<Throwable> causes = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch dead = new CountDownLatch(1);
        RelayListener listener = new RelayListener() {
            @Override
            public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
                causes.add(cause);
            }

            @Override
            public void deadLettered(OutboxMessage message, Throwable cause) {
                dead.countDown();
            }
        };
        relay(RelayIt.config("kafka-refused").set(RelaySettings.BATCH_SIZE, 100).set(RelaySettings.MAX_ATTEMPTS, 2).build(), publisher("relay-refused"), listener,
                Executors.newScheduledThreadPool(1)).start();
        assertThat(dead.await(60, TimeUnit.SECONDS)).as("the refused event became a dead letter").isTrue();
        RelayIt.await(Duration.ofSeconds(30), "the others marked", () -> RelayIt.pending(db) == 0);

        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("relay-refused", Duration.ofSeconds(30), r -> r.size() >= 40);
        assertThat(eventIds(read)).isEqualTo(strings(small));
        assertThat(causes).isNotEmpty().allMatch(c -> c instanceof org.apache.kafka.common.errors.RecordTooLargeException);
        assertThat(db.queryLong("SELECT attempts FROM outbox_dead_letters WHERE id = '" + big + "'")).isEqualTo(2);
    }

    @Test
    void aThirtySecondOutageUnderLoadMakesNoDeadLetterCountsNoAttemptAndEverythingLandsAfter() throws Exception {
        kafka.createTopic("relay-outage", 3, Map.of());
        AtomicInteger unavailable = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        RelayListener listener = new RelayListener() {
            @Override
            public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
                (cause instanceof BrokerUnavailableException ? unavailable : other).incrementAndGet();
            }
        };
        relay(RelayIt.config("kafka-outage").set(RelaySettings.BATCH_SIZE, 50).set(RelaySettings.MAX_ATTEMPTS, 2).set(RelaySettings.BACKOFF_INITIAL, Duration.ofMillis(50))
                        .set(RelaySettings.BACKOFF_MAX, Duration.ofMillis(500)).build(), publisher("relay-outage"), listener,
                Executors.newScheduledThreadPool(1)).start();
        // load: a writer commits 10 events every 20 ms for the whole test
        List<UUID> written = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        writer.scheduleAtFixedRate(() -> {
            int from = next.getAndAdd(10);
            written.addAll(RelayIt.writeCommitted(db, 10, i -> new RelayIt.Event("order", "o" + ((from + i) % 50), "order.created")));
        }, 0, 20, TimeUnit.MILLISECONDS);
        try {
            RelayIt.await(Duration.ofSeconds(30), "some events delivered before the outage",
                    () -> db.queryLong("SELECT count(*) FROM outbox_events WHERE processed_at IS NOT NULL") >= 200);
            kafka.stop();
            long outageStart = System.nanoTime();
            RelayIt.await(Duration.ofSeconds(90), "30 s of outage, with batches failing as unavailable",
                    () -> System.nanoTime() - outageStart >= TimeUnit.SECONDS.toNanos(30) && unavailable.get() >= 100);
            assertThat(deadLetters()).as("dead letters during the outage").isZero();
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE attempts > 0"))
                    .as("attempts counted during the outage").isZero();
            assertThat(RelayIt.pending(db)).as("a backlog built up").isGreaterThan(100);
        } finally {
            kafka.restart();
        }
        RelayIt.await(Duration.ofSeconds(20), "more written after the outage", () -> written.size() >= 3000);
        writer.shutdown();
        assertThat(writer.awaitTermination(10, TimeUnit.SECONDS)).as("the writer stopped").isTrue();
        int total = written.size();
        RelayIt.await(Duration.ofSeconds(120), "the backlog drained", () -> RelayIt.pending(db) == 0);

        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("relay-outage", Duration.ofSeconds(60),
                r -> eventIds(r).size() >= total);
        assertThat(eventIds(read)).containsAll(strings(new ArrayList<>(written)));
        assertThat(deadLetters()).isZero();
        assertThat(other.get()).as("failures other than unavailable").isZero();
        System.out.println("[RelayKafkaIT] outage: " + total + " events, " + read.size() + " records, "
                + unavailable.get() + " unavailable reports");
    }

    /**
     * The real publisher; says when its second batch is handed to it (the first one, with the topic's metadata, is
     * through by then), so the test can kill the relay while that batch's records are in flight.
     */
    private static final class Signalling implements Publisher {
        private final KafkaPublisher delegate;
        private final CountDownLatch entered = new CountDownLatch(2);

        Signalling(KafkaPublisher delegate) {
            this.delegate = delegate;
        }

        @Override
        public void publish(OutboxMessage message) throws Exception {
            delegate.publish(message);
        }

        @Override
        public PublishResult publishAll(List<OutboxMessage> batch) {
            entered.countDown();
            return delegate.publishAll(batch);
        }
    }

    @Test
    void aRelayKilledMidBatchLosesNothingAnotherTakesOverAfterTheLeaseWithDuplicatesOnly() throws Exception {
        kafka.createTopic("relay-killed", 3, Map.of());
        List<UUID> written = writeInterleaved(50, 60, "k", 200);
        RelayConfig config = RelayIt.config("x").set(RelaySettings.BATCH_SIZE, 500).set(RelaySettings.LEASE, Duration.ofSeconds(3)).build();
        Signalling dying = new Signalling(publisher("relay-killed"));
        ScheduledExecutorService dyingExecutor = Executors.newScheduledThreadPool(1);
        OutboxRelay a = relay(config.toBuilder().set(RelaySettings.NAME, "dying").build(), dying, null, dyingExecutor);
        a.start();
        assertThat(dying.entered.await(30, TimeUnit.SECONDS)).as("a second batch handed to the publisher").isTrue();
        dyingExecutor.shutdownNow(); // kills the relay's thread while its records are in flight
        assertThat(dyingExecutor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        long leftByTheDead = RelayIt.pending(db);

        relay(config.toBuilder().set(RelaySettings.NAME, "survivor").build(), publisher("relay-killed"), null,
                Executors.newScheduledThreadPool(1)).start();
        RelayIt.await(Duration.ofSeconds(120), "the survivor drained everything", () -> RelayIt.pending(db) == 0);

        List<ConsumerRecord<String, byte[]>> read = kafka.readAll("relay-killed", Duration.ofSeconds(60),
                r -> eventIds(r).size() >= written.size());
        assertThat(eventIds(read)).isEqualTo(strings(written));
        assertThat(read.size()).isGreaterThanOrEqualTo(written.size());
        assertThat(deadLetters()).isZero();
        System.out.println("[RelayKafkaIT] killed mid-batch: " + written.size() + " events, " + leftByTheDead
                + " left pending by the dead relay, " + (read.size() - written.size()) + " duplicates");
    }
}
