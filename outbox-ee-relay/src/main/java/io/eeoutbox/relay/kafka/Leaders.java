package io.eeoutbox.relay.kafka;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.utils.Utils;

/**
 * Whether the partition a keyed record goes to has a leader now, from the producer's own metadata. A record for a
 * partition without a leader would wait in the producer until its delivery timeout and then expire, which makes an
 * idempotent producer renumber every partition and stall the others; the publisher fails such a record at once
 * instead, as its topic's outage (docs/decisions/0015-a-full-destination-is-an-outage.md).
 *
 * <p>Only with the producer's default partitioner (which puts a keyed record on the partition of its key's murmur2
 * hash). Asking the producer about a topic whose metadata it lacks blocks like a send does (up to
 * {@code max.block.ms}), so a {@link View} asks at most once per topic per batch.
 */
final class Leaders {

    private final boolean defaultPartitioner;

    Leaders(Properties producerProperties) {
        this.defaultPartitioner = !producerProperties.containsKey(ProducerConfig.PARTITIONER_CLASS_CONFIG);
    }

    /** A view for one batch. */
    View view(Producer<String, byte[]> producer) {
        return new View(producer);
    }

    final class View {
        private final Producer<String, byte[]> producer;
        private final Map<String, List<PartitionInfo>> partitions = new HashMap<>();

        private View(Producer<String, byte[]> producer) {
            this.producer = producer;
        }

        private List<PartitionInfo> partitions(String topic) {
            return partitions.computeIfAbsent(topic, t -> {
                try {
                    List<PartitionInfo> p = producer.partitionsFor(t);
                    return p == null ? List.of() : p;
                } catch (RuntimeException e) {
                    return List.of(); // no metadata: the cluster's problem, not the topic's
                }
            });
        }

        /** The partition of {@code topic} that {@code key} goes to when it has no leader now; -1 otherwise or when unknown. */
        int leaderlessPartition(String topic, String key) {
            if (!defaultPartitioner || key == null) {
                return -1;
            }
            List<PartitionInfo> all = partitions(topic);
            if (all.isEmpty()) {
                return -1;
            }
            int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % all.size();
            for (PartitionInfo p : all) {
                if (p.partition() == partition) {
                    return leaderless(p) ? partition : -1;
                }
            }
            return -1;
        }

        /** Whether some partition of {@code topic} has no leader now (false when the producer does not know it). */
        boolean anyLeaderless(String topic) {
            return partitions(topic).stream().anyMatch(Leaders::leaderless);
        }
    }

    private static boolean leaderless(PartitionInfo p) {
        return p.leader() == null || p.leader().isEmpty();
    }
}
