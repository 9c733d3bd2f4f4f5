package io.eeoutbox.relay.kafka;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes outbox events to Kafka.
 *
 * <p>Each record's key is the aggregate id (so an aggregate's events share a partition), its value the JSON
 * payload as UTF-8, its headers the {@link MessageHeaders} names as UTF-8 text: {@value MessageHeaders#EVENT_ID},
 * {@value MessageHeaders#EVENT_TYPE}, {@value MessageHeaders#AGGREGATE_TYPE} and {@value MessageHeaders#AGGREGATE_ID}
 * (when the event has them), {@value MessageHeaders#CREATED_AT} (ISO-8601) and {@value MessageHeaders#ATTEMPT}
 * (decimal). The topic comes from the {@link TopicRule}.
 *
 * <h2>A batch</h2>
 * {@link #publishAll} hands every record of the batch to the producer first and then waits for all of them
 * (bounded by the delivery timeout plus a margin), so one batch costs about one round trip to the cluster, not one
 * per record. The producer is idempotent with {@code acks=all}: a record is reported published only once every
 * in-sync replica has it. Each record is reported on its own: one the cluster refuses (too large, not
 * authorised, a topic that does not exist while auto-creation is off, invalid) fails alone and its batch-mates
 * go through; one that could not be delivered because of the cluster (unreachable, no answer within the delivery
 * timeout, a retriable error) fails with {@link BrokerUnavailableException}, which the relay retries without
 * counting an attempt, so an outage makes no dead letters. When a send finds the cluster unreachable before it
 * could even queue (no metadata within {@code max.block.ms}), the rest of the batch is not handed over: it fails
 * the same way at once instead of waiting out the same timeout once per record.
 *
 * <h2>Order</h2>
 * Within one partition the idempotent producer writes records in the order they were sent, also across its own
 * retries: the broker accepts each producer's batches only in sequence, and with at most 5 requests in flight
 * (enforced by {@link KafkaSettings}) a retried batch cannot overtake a later one. In ordered mode the relay
 * hands a publisher at most one event per aggregate per batch and claims the aggregate's next event only after
 * this one was reported published, so each aggregate's write order holds across batches and relays.
 *
 * <p>Delivery is at least once: a record reported unavailable (a timeout, an interrupted wait) may still have
 * been written, and is sent again; consumers deduplicate by {@value MessageHeaders#EVENT_ID}. Why an idempotent
 * producer and no Kafka transactions: docs/decisions/0009-kafka-idempotent-producer-no-transactions.md.
 *
 * <p>Thread-safe: the relay sends one batch at a time; the producer is shared.
 */
public final class KafkaPublisher implements Publisher, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaPublisher.class.getName());
    private static final Duration WAIT_MARGIN = Duration.ofSeconds(5);
    /**
     * How long a batch waits for its last records once others were acknowledged and answers stopped coming: the
     * unanswered ones wait on a partition that cannot take them, and fail as their topic's outage instead of
     * holding the batch until the delivery timeout (docs/decisions/0015-a-full-destination-is-an-outage.md).
     */
    static final Duration STRAGGLER_WAIT = Duration.ofSeconds(1);

    private final KafkaSettings settings;
    private final Supplier<Producer<String, byte[]>> producers;
    private final TopicProbe probe;
    private final Duration waitBound;
    private final Duration stragglerWait;
    private final Leaders leaders;
    /** Topics the current producer has sent to (it has their metadata); cleared with the producer. */
    private final java.util.Set<String> knownTopics = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * Topics that could not take a record lately, until one of their records is acknowledged: their leaders are
     * checked before a send also with a new producer (which then fetches their metadata: quick while the cluster
     * answers), so a probe to a partition without a leader fails at once instead of waiting out the delivery timeout.
     */
    private final java.util.Set<String> suspectTopics = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private Producer<String, byte[]> producer;
    private boolean closed; // guarded by this: set by close, after which no producer is made

    /** A publisher with a {@link KafkaProducer} made from the settings' producer properties. */
    public KafkaPublisher(KafkaSettings settings) {
        this(settings, () -> new KafkaProducer<>(settings.producerProperties(), new StringSerializer(),
                new ByteArraySerializer()));
    }

    KafkaPublisher(KafkaSettings settings, Supplier<Producer<String, byte[]>> producers) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.producers = Objects.requireNonNull(producers, "producers");
        this.waitBound = settings.deliveryTimeout().plus(WAIT_MARGIN);
        this.stragglerWait = STRAGGLER_WAIT.compareTo(settings.deliveryTimeout()) < 0 ? STRAGGLER_WAIT : settings.deliveryTimeout();
        this.leaders = new Leaders(settings.producerProperties());
        this.probe = new TopicProbe(settings.producerProperties(), Duration.ofSeconds(5));
        LOG.info(() -> "ee-outbox Kafka publisher: " + settings.topics() + ", producer " + settings.describeProducer());
    }

    /** Sends one record and waits for it; throws its failure (a {@link BrokerUnavailableException} for the cluster's). */
    @Override
    public void publish(OutboxMessage message) throws Exception {
        Throwable failure = publishAll(List.of(message)).failures().get(message.id());
        if (failure instanceof Exception e) {
            throw e;
        } else if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    public PublishResult publishAll(List<OutboxMessage> batch) {
        if (batch.isEmpty()) {
            return PublishResult.allPublished();
        }
        Map<UUID, Throwable> failures = new LinkedHashMap<>();
        Producer<String, byte[]> p;
        try {
            p = producer();
        } catch (RuntimeException e) {
            // a producer that cannot be made is a configuration the client refused: no event's fault
            for (OutboxMessage m : batch) {
                failures.put(m.id(), unavailable(e));
            }
            return PublishResult.of(failures);
        }
        List<Sent> sent = new ArrayList<>(batch.size());
        Acks acks = new Acks();
        Leaders.View view = leaders.view(p);
        boolean broken = false;
        for (int i = 0; i < batch.size(); i++) {
            OutboxMessage m = batch.get(i);
            String topic;
            try {
                topic = settings.topics().topicFor(m);
            } catch (IllegalArgumentException e) {
                failures.put(m.id(), e);
                continue;
            }
            int leaderless = knownTopics.contains(topic) || suspectTopics.contains(topic)
                    ? view.leaderlessPartition(topic, m.aggregateId()) : -1;
            if (leaderless >= 0) {
                failures.put(m.id(), topicUnavailable(topic, new org.apache.kafka.common.errors.LeaderNotAvailableException(
                        "partition " + topic + "-" + leaderless + " has no leader")));
                continue;
            }
            Future<RecordMetadata> future;
            try {
                future = p.send(Records.of(topic, m), acks.callback(sent.size()));
            } catch (RuntimeException e) {
                future = null;
                KafkaFailures.Verdict verdict = verdict(e, topic);
                if (verdict == KafkaFailures.Verdict.REFUSED) {
                    failures.put(m.id(), e);
                    continue;
                }
                broken |= verdict == KafkaFailures.Verdict.PRODUCER_BROKEN;
                restUnavailable(batch, i, e, failures);
                break;
            }
            if (future.isDone() && !failedAlone(future, m, topic, failures)) {
                // no metadata within max.block.ms: every further send would wait as long again
                restUnavailable(batch, i, failures.get(m.id()), failures);
                break;
            }
            sent.add(new Sent(m, topic, future));
            knownTopics.add(topic); // the send found its metadata: the leader check above will not block for it
        }
        broken |= await(sent, acks, view, failures);
        int waiting = sent.size() - acks.answeredCount();
        if (broken) {
            resetProducer();
        } else if (waiting > 0 && !Thread.currentThread().isInterrupted()) {
            dropUnanswered(waiting);
        }
        return PublishResult.of(failures);
    }

    /** For a future already done: true when it succeeded or failed on its own record; false when the cluster is out. */
    private boolean failedAlone(Future<RecordMetadata> future, OutboxMessage m, String topic, Map<UUID, Throwable> failures) {
        try {
            future.get();
            return true;
        } catch (ExecutionException e) {
            Throwable cause = KafkaFailures.unwrap(e);
            if (verdict(cause, topic) == KafkaFailures.Verdict.REFUSED) {
                failures.put(m.id(), refusal(cause, topic));
                return true;
            }
            failures.put(m.id(), unavailable(cause));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.put(m.id(), unavailable(e));
            return false;
        }
    }

    /**
     * Waits for every sent record (bounded; see {@link Acks}); returns whether the producer is unusable afterwards.
     * A record that could not be delivered while others of the batch were, or that failed for its partition alone,
     * is its topic's outage ({@link DestinationUnavailableException}): the relay holds that topic and keeps
     * publishing to the others.
     */
    private boolean await(List<Sent> sent, Acks acks, Leaders.View view, Map<UUID, Throwable> failures) {
        boolean interrupted = false;
        try {
            acks.await(sent.size(), System.nanoTime() + waitBound.toNanos(), stragglerWait.toNanos());
        } catch (InterruptedException e) {
            interrupted = true; // the relay is being stopped: what is in flight may still be written, and is sent again
        }
        boolean clusterWorks = acks.anyAcknowledged();
        boolean broken = false;
        for (int i = 0; i < sent.size(); i++) {
            Sent s = sent.get(i);
            if (failures.containsKey(s.message.id())) {
                continue;
            }
            if (!acks.answered(i)) {
                failures.put(s.message.id(), interrupted
                        ? unavailable(new InterruptedException("the relay thread was interrupted"))
                        : clusterWorks
                        ? topicUnavailable(s.topic, new java.util.concurrent.TimeoutException("no acknowledgement within "
                                + stragglerWait.toMillis() + " ms after the batch's other records"))
                        : (knownTopics.contains(s.topic) && view.anyLeaderless(s.topic))
                        ? topicUnavailable(s.topic, new java.util.concurrent.TimeoutException("no answer within "
                                + waitBound.toMillis() + " ms, and a partition of the topic has no leader"))
                        : unavailable(new java.util.concurrent.TimeoutException("no answer within " + waitBound.toMillis() + " ms")));
                continue;
            }
            Throwable cause = acks.failure(i);
            if (cause == null) {
                suspectTopics.remove(s.topic);
                continue;
            }
            cause = KafkaFailures.unwrap(cause);
            KafkaFailures.Verdict verdict = verdict(cause, s.topic);
            if (verdict == KafkaFailures.Verdict.REFUSED) {
                failures.put(s.message.id(), refusal(cause, s.topic));
            } else {
                broken |= verdict == KafkaFailures.Verdict.PRODUCER_BROKEN;
                boolean topics = verdict == KafkaFailures.Verdict.UNAVAILABLE
                        && (clusterWorks || KafkaFailures.isPartitionOutage(cause) || (knownTopics.contains(s.topic) && view.anyLeaderless(s.topic)));
                failures.put(s.message.id(), topics ? topicUnavailable(s.topic, cause) : unavailable(cause));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return broken;
    }

    private DestinationUnavailableException topicUnavailable(String topic, Throwable cause) {
        suspectTopics.add(topic);
        return new DestinationUnavailableException(topic, "topic " + topic + " on the Kafka cluster at "
                + settings.bootstrapServers() + " cannot take records now: " + KafkaFailures.unwrap(cause), cause);
    }

    /** The topic {@code message} goes to, or null when the topic rule cannot name one (the send fails alone then). */
    @Override
    public String destinationOf(OutboxMessage message) {
        try {
            return settings.topics().topicFor(message);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private KafkaFailures.Verdict verdict(Throwable failure, String topic) {
        if (KafkaFailures.mayBeMissingTopic(failure) && probe.isMissing(topic)) {
            return KafkaFailures.Verdict.REFUSED;
        }
        return KafkaFailures.classify(failure);
    }

    private Throwable refusal(Throwable cause, String topic) {
        if (KafkaFailures.mayBeMissingTopic(cause)) {
            return new UnknownTopicOrPartitionException("topic " + topic + " does not exist and the cluster does not"
                    + " create it (auto.create.topics.enable=false): create it, or change " + settings.topics());
        }
        return cause;
    }

    private void restUnavailable(List<OutboxMessage> batch, int from, Throwable cause, Map<UUID, Throwable> failures) {
        Throwable unavailable = cause instanceof BrokerUnavailableException ? cause : unavailable(cause);
        for (OutboxMessage m : batch.subList(from, batch.size())) {
            failures.putIfAbsent(m.id(), unavailable);
        }
    }

    private BrokerUnavailableException unavailable(Throwable cause) {
        return new BrokerUnavailableException("the Kafka cluster at " + settings.bootstrapServers()
                + " did not take the record: " + KafkaFailures.unwrap(cause), cause);
    }

    private synchronized Producer<String, byte[]> producer() {
        if (closed) {
            // a batch still running when the application stopped: its records fail as unavailable, no new producer
            throw new IllegalStateException("the Kafka publisher is closed");
        }
        if (producer == null) {
            producer = producers.get();
        }
        return producer;
    }

    /**
     * Records still waiting when the batch's wait ended are the only ones in the producer (the relay sends one batch
     * at a time): a new producer drops them. Left in it, they would be retried until the delivery timeout and then
     * expire, and an idempotent producer whose records expired unanswered must renumber every partition (a new
     * epoch), which stalled the other topics' records for tens of seconds in our tests (docs/kafka.md).
     */
    private synchronized void dropUnanswered(int records) {
        if (producer != null && !closed) {
            LOG.fine(() -> "ee-outbox Kafka publisher: dropping " + records + " records still waiting for their"
                    + " partition with the producer; they are deferred and sent again");
            closeQuietly(producer);
            producer = null;
            knownTopics.clear();
        }
    }

    private synchronized void resetProducer() {
        if (producer != null && !closed) {
            LOG.warning(() -> "ee-outbox Kafka publisher: the producer cannot send any more; making a new one");
            closeQuietly(producer);
            producer = null;
            knownTopics.clear();
        }
    }

    private static void closeQuietly(Producer<String, byte[]> p) {
        try {
            p.close(Duration.ZERO);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "closing the Kafka producer failed", e);
        }
    }

    /** {@code kafka:topic=orders@broker1:9092}. */
    @Override
    public String describe() {
        return "kafka:" + settings.topics() + "@" + settings.bootstrapServers();
    }

    /** Closes the producer, waiting up to the delivery timeout for records still in flight. */
    @Override
    public void close() {
        close(settings.deliveryTimeout());
    }

    /**
     * Closes the producer, waiting up to {@code wait} for records still in flight; {@link Duration#ZERO} fails
     * them at once (their batch reports them unavailable, and their rows are published again).
     */
    public synchronized void close(Duration wait) {
        closed = true;
        probe.close();
        if (producer != null) {
            try {
                producer.close(wait);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing the Kafka producer failed", e);
            }
            producer = null;
        }
    }

    private record Sent(OutboxMessage message, String topic, Future<RecordMetadata> future) {
    }
}
