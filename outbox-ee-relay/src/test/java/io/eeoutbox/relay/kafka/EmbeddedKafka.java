package io.eeoutbox.relay.kafka;

import io.eeoutbox.relay.RelayIt;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real Kafka broker for the tests.
 *
 * <p>When a Docker engine answers, Testcontainers' Kafka (see {@link KafkaContainers}); otherwise one KRaft node
 * (broker and controller in one) in this JVM, from Maven Central's Kafka server artifacts: its log directory is
 * formatted once (as {@code kafka-storage format} does: a cluster id, the node id, the bootstrap metadata of the
 * latest production release), then a {@link KafkaRaftServer} runs on two free ports. {@link #stop()} shuts it down
 * and {@link #restart()} starts a new server on the same ports and the same log directory, so clients see an
 * outage and then the same cluster, with its topics and records, back.
 *
 * <p>Topics are never created automatically ({@code auto.create.topics.enable=false}): a test creates its topics.
 */
public final class EmbeddedKafka implements AutoCloseable {

    static final String CLUSTER_ID = "ee-outbox.test.cluster.id";

    private final Path logDir;
    private final Properties serverProperties;
    private final String bootstrapServers;
    private final KafkaContainers.Handle container;
    private KafkaRaftServer server;

    private EmbeddedKafka(Path logDir, Properties serverProperties, String bootstrapServers, KafkaContainers.Handle container) {
        this.logDir = logDir;
        this.serverProperties = serverProperties;
        this.bootstrapServers = bootstrapServers;
        this.container = container;
    }

    /** Testcontainers' Kafka when Docker answers, else an in-process KRaft node. */
    public static EmbeddedKafka start() {
        KafkaContainers.Handle c = KafkaContainers.tryStart();
        if (c != null) {
            return new EmbeddedKafka(null, null, c.bootstrapServers(), c);
        }
        return startInProcess();
    }

    /** An in-process KRaft node on free ports with a new temporary log directory. */
    public static EmbeddedKafka startInProcess() {
        try {
            Path dir = Files.createTempDirectory("ee-outbox-kafka");
            int brokerPort = freePort();
            int controllerPort = freePort();
            Properties p = new Properties();
            p.put("process.roles", "broker,controller");
            p.put("node.id", "1");
            p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
            p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
            p.put("controller.listener.names", "CONTROLLER");
            p.put("inter.broker.listener.name", "PLAINTEXT");
            p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.put("log.dirs", dir.toString());
            p.put("auto.create.topics.enable", "false");
            p.put("num.partitions", "3");
            p.put("offsets.topic.replication.factor", "1");
            p.put("offsets.topic.num.partitions", "1");
            p.put("transaction.state.log.replication.factor", "1");
            p.put("transaction.state.log.min.isr", "1");
            p.put("share.coordinator.state.topic.replication.factor", "1");
            p.put("share.coordinator.state.topic.min.isr", "1");
            p.put("group.initial.rebalance.delay.ms", "0");
            p.put("log.segment.bytes", Integer.toString(16 << 20));
            p.put(CLUSTER_ID, Uuid.randomUuid().toString()); // kept for a second node (see SecondBroker), not a server setting
            format(dir, p, 1);
            EmbeddedKafka kafka = new EmbeddedKafka(dir, p, "127.0.0.1:" + brokerPort, null);
            kafka.restart();
            return kafka;
        } catch (Exception e) {
            throw new IllegalStateException("could not start an in-process Kafka broker", e);
        }
    }

    /** Formats {@code dir} as node {@code nodeId} of the cluster {@code p} names. */
    static void format(Path dir, Properties p, int nodeId) throws Exception {
        new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(nodeId)
                .setClusterId(p.getProperty(CLUSTER_ID))
                .setControllerListenerName("CONTROLLER")
                .setMetadataLogDirectory(dir.toString())
                .setDirectories(List.of(dir.toString()))
                .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                .setReleaseVersion(MetadataVersion.latestProduction())
                .run();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** The in-process node's server properties (a copy), for {@link SecondBroker}; null with Docker. */
    Properties serverProperties() {
        if (serverProperties == null) {
            return null;
        }
        Properties copy = new Properties();
        copy.putAll(serverProperties);
        return copy;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Where the broker came from, for test logs. */
    public String source() {
        return container != null ? container.source() : "in-process KRaft node, " + logDir;
    }

    /** Takes the broker away (clients see connections refused, or with Docker a paused container). */
    public synchronized void stop() {
        if (container != null) {
            container.pause();
            return;
        }
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    /** Brings the broker back on the same address with the same data; returns once it answers. */
    public synchronized void restart() {
        if (container != null) {
            container.unpause();
        } else if (server == null) {
            Properties props = new Properties();
            props.putAll(serverProperties);
            props.remove(CLUSTER_ID);
            KafkaRaftServer s = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
            s.startup();
            server = s;
        }
        awaitAnswering(Duration.ofSeconds(60));
    }

    private void awaitAnswering(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < end) {
            try (Admin admin = admin()) {
                if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (Exception e) {
                last = new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("the Kafka broker did not answer within " + timeout, last);
    }

    public Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(p);
    }

    /** Creates a topic (replication factor 1) with the given topic configs, and waits until it is ready. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                    .get(30, TimeUnit.SECONDS);
            RelayIt.await(Duration.ofSeconds(30), "topic " + name + " has a leader for every partition", () -> {
                try {
                    return hasLeaders(admin, name);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException("could not create topic " + name, e);
        }
    }

    /** Whether every partition of a just-created topic has a leader (false while the broker does not know it yet). */
    private static boolean hasLeaders(Admin admin, String name) throws Exception {
        try {
            return admin.describeTopics(List.of(name)).allTopicNames().get(10, TimeUnit.SECONDS).get(name).partitions()
                    .stream().allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty());
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Reads a topic from the beginning, all partitions, until {@code done} holds for what was read (checked after
     * each poll) or {@code timeout} passes; returns everything read, in partition order then offset order.
     */
    public List<ConsumerRecord<String, byte[]>> readAll(String topic, Duration timeout,
                                                        Predicate<List<ConsumerRecord<String, byte[]>>> done) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(pi -> new TopicPartition(topic, pi.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long end = System.nanoTime() + timeout.toNanos();
            do {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            } while (!done.test(read) && System.nanoTime() < end);
        }
        read.sort(Comparator.<ConsumerRecord<String, byte[]>>comparingInt(ConsumerRecord::partition)
                .thenComparingLong(ConsumerRecord::offset));
        return read;
    }

    /** The record count of a topic (sum of end offsets), without reading it. */
    public long count(String topic) {
        try (Admin admin = admin()) {
            var description = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> specs = new java.util.HashMap<>();
            description.partitions().forEach(pi -> specs.put(new TopicPartition(topic, pi.partition()),
                    org.apache.kafka.clients.admin.OffsetSpec.latest()));
            return admin.listOffsets(specs).all().get(10, TimeUnit.SECONDS).values().stream()
                    .mapToLong(org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
        } catch (Exception e) {
            throw new IllegalStateException("could not count " + topic, e);
        }
    }

    public Set<String> topics() {
        try (Admin admin = admin()) {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void close() {
        if (container != null) {
            container.close();
            return;
        }
        stop();
        if (logDir != null) {
            try (Stream<Path> files = Files.walk(logDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException ignored) {
                // a temporary directory
            }
        }
    }
}
