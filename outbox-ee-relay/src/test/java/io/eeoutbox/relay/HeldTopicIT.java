package io.eeoutbox.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.kafka.EmbeddedKafka;
import io.eeoutbox.relay.kafka.KafkaPublisher;
import io.eeoutbox.relay.kafka.KafkaSettings;
import io.eeoutbox.relay.kafka.SecondBroker;
import io.eeoutbox.relay.ops.RelayMetrics;
import io.eeoutbox.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 (c): a Kafka topic that cannot take records (its partitions lose their leader: the one node that holds
 * them stops while the relay runs) is held on its own: the other topic's events keep flowing, no attempt is
 * counted, no dead letter is made, and the held topic drains once its node is back. Against a two-node in-process
 * KRaft cluster and the test PostgreSQL; the producers write both kinds of event throughout. (Raising
 * {@code min.insync.replicas} above the replication factor does not do it: Kafka 4 caps the requirement at the
 * replica count.)
 */
class HeldTopicIT {

    private static final String ORDERS = "held-order";
    private static final String PAYMENTS = "held-payment";

    private static EmbeddedKafka kafka;
    private static SecondBroker second;
    private TestDatabase.Db db;
    private ScheduledExecutorService relayExecutor;
    private ScheduledExecutorService writer;
    private OutboxRelay relay;
    private KafkaPublisher publisher;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = EmbeddedKafka.startInProcess();
        second = SecondBroker.join(kafka);
    }

    @AfterAll
    static void stopBroker() {
        if (second != null) {
            second.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void tearDown() {
        if (writer != null) {
            writer.shutdownNow();
        }
        if (relay != null) {
            relay.stop(Duration.ofSeconds(10));
        }
        if (relayExecutor != null) {
            relayExecutor.shutdownNow();
        }
        if (publisher != null) {
            publisher.close();
        }
    }

    /** One order and one payment event per transaction, every 10 ms, each id noted under its aggregate type. */
    private void startWriting(Map<String, Collection<UUID>> written) throws SQLException {
        Connection c = db.connect();
        c.setAutoCommit(false);
        OutboxEventJdbc dao = new OutboxEventJdbc(c);
        writer = Executors.newSingleThreadScheduledExecutor();
        int[] n = {0};
        writer.scheduleAtFixedRate(() -> {
            try {
                List<UUID> ids = new ArrayList<>(2);
                for (String type : List.of("order", "payment")) {
                    UUID id = UUID.randomUUID();
                    dao.insertOutboxEvent(new InsertOutboxEventParams(id, type, type + "-" + (n[0] % 50),
                            type + ".created", "{\"n\":" + n[0] + "}", null));
                    ids.add(id);
                }
                c.commit();
                written.get("order").add(ids.get(0));
                written.get("payment").add(ids.get(1));
                n[0]++;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, 0, 10, TimeUnit.MILLISECONDS);
    }

    private Set<String> idsOn(String topic, Collection<UUID> expected) {
        Set<String> want = new HashSet<>();
        expected.forEach(id -> want.add(id.toString()));
        Set<String> read = new HashSet<>();
        kafka.readAll(topic, Duration.ofSeconds(30), records -> {
            records.forEach(r -> read.add(new String(r.headers().lastHeader(MessageHeaders.EVENT_ID).value(),
                    StandardCharsets.UTF_8)));
            return read.containsAll(want);
        });
        return read;
    }

    @Test
    void aTopicWithoutALeaderIsHeldAloneAndDrainsOnceItsNodeIsBack() throws Exception {
        db = TestDatabase.get().createDatabase("held_topic_it", false);
        second.createTopicOn(SecondBroker.NODE_ID, ORDERS, 3);
        second.createTopicOn(SecondBroker.FIRST_NODE, PAYMENTS, 3);
        Map<String, String> m = new HashMap<>();
        m.put(KafkaSettings.TOPIC_PATTERN, "held-" + io.eeoutbox.relay.kafka.TopicRule.PLACEHOLDER);
        m.put("outbox.relay.kafka.producer.bootstrap.servers", kafka.bootstrapServers());
        m.put("outbox.relay.kafka.producer.delivery.timeout.ms", "8000");
        m.put("outbox.relay.kafka.producer.request.timeout.ms", "3000");
        m.put("outbox.relay.kafka.producer.max.block.ms", "3000");
        publisher = new KafkaPublisher(KafkaSettings.load(ConfigLookups.of(m), m.keySet()));
        RelayMetrics metrics = new RelayMetrics();
        relayExecutor = Executors.newScheduledThreadPool(1);
        // the shipped backoff (the tests' usual one, 10 to 50 ms, would send a probe in nearly every batch)
        relay = OutboxRelay.builder().config(RelayIt.config("held-topic").set(RelaySettings.BATCH_SIZE, 100)
                        .set(RelaySettings.MAX_ATTEMPTS, 2).set(RelaySettings.BACKOFF_INITIAL, Duration.ofSeconds(1))
                        .set(RelaySettings.BACKOFF_MAX, Duration.ofMinutes(5)).build())
                .dataSource(db.dataSource()).executor(relayExecutor).publisher(publisher).listener(metrics).build();
        relay.start();
        Map<String, Collection<UUID>> written = Map.of("order", new ConcurrentLinkedQueue<>(),
                "payment", new ConcurrentLinkedQueue<>());
        startWriting(written);
        RelayIt.await(Duration.ofSeconds(30), "the first events published", () -> metrics.published() > 100);

        second.stop(); // the orders topic's partitions have no leader now
        RelayIt.await(Duration.ofSeconds(30), "the orders topic held", () -> relay.heldDestinations().stream()
                .map(DestinationHolds.Held::destination).toList().equals(List.of(ORDERS)));
        int paymentsBefore = written.get("payment").size();
        RelayIt.await(Duration.ofSeconds(30), "500 more payments written while it is held",
                () -> written.get("payment").size() >= paymentsBefore + 500);
        List<UUID> paymentsWhileHeld = new ArrayList<>(written.get("payment")).subList(paymentsBefore,
                paymentsBefore + 500);

        assertThat(idsOn(PAYMENTS, paymentsWhileHeld))
                .as("the payments written while the orders topic is held are published meanwhile")
                .containsAll(paymentsWhileHeld.stream().map(UUID::toString).toList());
        assertThat(relay.heldDestinations()).extracting(DestinationHolds.Held::destination)
                .as("still held: nothing was fixed yet").containsExactly(ORDERS);
        assertThat(relay.heldDestinations().get(0).error()).contains(ORDERS);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_type = 'order'"
                + " AND processed_at IS NULL")).as("orders wait in the outbox").isPositive();
        assertThat(relay.brokerHeldUntil()).as("the relay as a whole is not held").isNull();
        String lag = "percentile_cont(%s) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - created_at) * 1000)";
        try (Connection c = db.connect(); var st = c.prepareStatement("SELECT " + lag.formatted("0.5") + ", "
                + lag.formatted("0.99") + ", max(extract(epoch FROM processed_at - created_at) * 1000)"
                + " FROM outbox_events WHERE id = ANY (?)")) {
            st.setArray(1, c.createArrayOf("uuid", paymentsWhileHeld.toArray()));
            try (var rs = st.executeQuery()) {
                rs.next();
                System.out.printf("[HeldTopicIT] payments written while the orders topic was held: write to publish"
                        + " p50 %.0f ms, p99 %.0f ms, max %.0f ms%n", rs.getDouble(1), rs.getDouble(2), rs.getDouble(3));
            }
        }

        second.start();
        writer.shutdown();
        assertThat(writer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        RelayIt.await(Duration.ofSeconds(90), "everything published", () -> RelayIt.pending(db) == 0);

        assertThat(idsOn(ORDERS, written.get("order"))).containsAll(written.get("order").stream()
                .map(UUID::toString).toList());
        assertThat(idsOn(PAYMENTS, written.get("payment"))).containsAll(written.get("payment").stream()
                .map(UUID::toString).toList());
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE attempts > 0"))
                .as("a held topic counts no attempt").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL")).isZero();
        assertThat(relay.heldDestinations()).as("the hold ended with the first record the topic took").isEmpty();
        assertThat(metrics.deferredByDestination()).containsKey(ORDERS).doesNotContainKey(PAYMENTS);
        System.out.printf("[HeldTopicIT] %d orders and %d payments written; deferred by destination: %s%n",
                written.get("order").size(), written.get("payment").size(), metrics.deferredByDestination());
    }
}
