package io.eeoutbox.relay.kafka;

import io.eeoutbox.relay.RelayIt;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Time;

/**
 * A second node (broker only) in the cluster of an in-process {@link EmbeddedKafka}, so that a test can take one
 * topic's partitions away while the first node keeps serving the others: a topic placed only on this node has no
 * leader while it is stopped (producers' records to it wait for a leader until their delivery timeout).
 */
public final class SecondBroker implements AutoCloseable {

    /** The first node's id ({@link EmbeddedKafka}'s). */
    public static final int FIRST_NODE = 1;
    /** This node's id. */
    public static final int NODE_ID = 2;

    private final EmbeddedKafka kafka;
    private final Path logDir;
    private final Properties properties;
    private KafkaRaftServer server;

    private SecondBroker(EmbeddedKafka kafka, Path logDir, Properties properties) {
        this.kafka = kafka;
        this.logDir = logDir;
        this.properties = properties;
    }

    /** Starts node 2 in {@code kafka}'s cluster, or returns null when {@code kafka} is not in this JVM (Docker). */
    public static SecondBroker join(EmbeddedKafka kafka) throws Exception {
        Properties p = kafka.serverProperties();
        if (p == null) {
            return null;
        }
        Path dir = Files.createTempDirectory("ee-outbox-kafka-2");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        p.put("process.roles", "broker");
        p.put("node.id", Integer.toString(NODE_ID));
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("log.dirs", dir.toString());
        EmbeddedKafka.format(dir, p, NODE_ID);
        p.remove(EmbeddedKafka.CLUSTER_ID);
        SecondBroker b = new SecondBroker(kafka, dir, p);
        b.start();
        return b;
    }

    /** Creates a topic whose every partition lives on node {@code nodeId} alone, and waits for their leader. */
    public void createTopicOn(int nodeId, String name, int partitions) throws Exception {
        Map<Integer, List<Integer>> assignment = new java.util.HashMap<>();
        for (int i = 0; i < partitions; i++) {
            assignment.put(i, List.of(nodeId));
        }
        try (Admin admin = kafka.admin()) {
            admin.createTopics(List.of(new NewTopic(name, assignment))).all().get(30, TimeUnit.SECONDS);
            RelayIt.await(Duration.ofSeconds(30), "topic " + name + " has a leader for every partition",
                    () -> leaders(admin, name));
        }
    }

    private static boolean leaders(Admin admin, String name) {
        try {
            return admin.describeTopics(List.of(name)).allTopicNames().get(10, TimeUnit.SECONDS).get(name).partitions()
                    .stream().allMatch(pi -> pi.leader() != null && !pi.leader().isEmpty());
        } catch (Exception e) {
            return false; // not known yet
        }
    }

    /** Starts (or restarts, with the same data) this node; returns once the cluster lists it. */
    public synchronized void start() throws Exception {
        if (server == null) {
            KafkaRaftServer s = new KafkaRaftServer(KafkaConfig.fromProps(properties, false), Time.SYSTEM);
            s.startup();
            server = s;
        }
        try (Admin admin = kafka.admin()) {
            RelayIt.await(Duration.ofSeconds(60), "node " + NODE_ID + " in the cluster", () -> {
                try {
                    return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream().anyMatch(n -> n.id() == NODE_ID);
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /** Shuts this node down: the partitions it alone holds have no leader until {@link #start()}. */
    public synchronized void stop() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(logDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }
}
