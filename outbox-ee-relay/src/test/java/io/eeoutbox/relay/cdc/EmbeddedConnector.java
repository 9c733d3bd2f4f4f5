package io.eeoutbox.relay.cdc;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;

/**
 * The connector configuration of docs/cdc/ee-outbox-connector.json in Debezium's embedded engine, writing to Kafka
 * as a Kafka Connect worker does: each record the connector and its transforms produce is turned into bytes by the
 * configuration's key, value and header converters and sent with its topic, partition and timestamp (what Kafka
 * Connect's source task does with a SourceRecord; Kafka Connect's documentation, "Converters").
 */
public final class EmbeddedConnector implements AutoCloseable {

    /** The prefix of the heartbeat topic's name (Debezium's {@code topic.heartbeat.prefix}, by default). */
    public static final String HEARTBEATS = "__debezium-heartbeat";

    private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> new Thread(r, "cdc-embedded-engine"));
    private final KafkaProducer<byte[], byte[]> producer;
    private final Converter keys;
    private final Converter values;
    private final HeaderConverter headers;
    private final AtomicInteger sent = new AtomicInteger();
    /** Records written to Kafka other than heartbeats (whose topic is {@value #HEARTBEATS}, a dot and {@code topic.prefix}). */
    private final AtomicInteger records = new AtomicInteger();
    private volatile long firstBatchNanos;
    private volatile long lastAckNanos;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    /**
     * @param config    the file's "config" with the database connection of the test in place of the example's
     * @param offsets   a file for the engine's offsets (a Kafka Connect worker keeps them in a topic)
     * @param bootstrap the Kafka cluster to write to
     */
    public EmbeddedConnector(String name, Map<String, String> config, Path offsets, String bootstrap) {
        keys = converter(config, "key.converter", true);
        values = converter(config, "value.converter", false);
        headers = instance(config.get("header.converter"), HeaderConverter.class);
        headers.configure(prefixed(config, "header.converter."));
        Properties p = new Properties();
        p.putAll(config);
        p.put("name", name);
        p.put("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        p.put("offset.storage.file.filename", offsets.toString());
        p.put("offset.flush.interval.ms", "0");
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer());
        engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(p)
                .notifying(this::handleBatch)
                .using((success, message, error) -> {
                    if (!success) {
                        failure.compareAndSet(null, error != null ? error : new IllegalStateException(message));
                    }
                })
                .build();
    }

    public void start() {
        runner.execute(engine);
    }

    private void handleBatch(List<RecordChangeEvent<SourceRecord>> batch,
                             DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        if (firstBatchNanos == 0) {
            firstBatchNanos = System.nanoTime();
        }
        try {
            // The batch's records are sent together and each is marked processed once Kafka acknowledged it, in order,
            // as a Connect worker commits only offsets whose records were written.
            List<java.util.concurrent.Future<?>> acks = new java.util.ArrayList<>(batch.size());
            for (RecordChangeEvent<SourceRecord> event : batch) {
                acks.add(producer.send(toKafka(event.record())));
            }
            for (int i = 0; i < batch.size(); i++) {
                acks.get(i).get(30, TimeUnit.SECONDS);
                sent.incrementAndGet();
                if (!batch.get(i).record().topic().startsWith(HEARTBEATS)) {
                    records.incrementAndGet();
                    lastAckNanos = System.nanoTime();
                }
                committer.markProcessed(batch.get(i));
            }
            committer.markBatchFinished();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            failure.compareAndSet(null, e);
            throw new IllegalStateException("could not write a CDC record to Kafka", e);
        }
    }

    /** As Kafka Connect's source task converts a record: headers first, then key and value with them. */
    private ProducerRecord<byte[], byte[]> toKafka(SourceRecord r) {
        RecordHeaders h = new RecordHeaders();
        for (Header header : r.headers()) {
            h.add(header.key(), headers.fromConnectHeader(r.topic(), header.key(), header.schema(), header.value()));
        }
        byte[] key = keys.fromConnectData(r.topic(), h, r.keySchema(), r.key());
        byte[] value = values.fromConnectData(r.topic(), h, r.valueSchema(), r.value());
        Long timestamp = r.timestamp() != null && r.timestamp() >= 0 ? r.timestamp() : null;
        return new ProducerRecord<>(r.topic(), r.kafkaPartition(), timestamp, key, value, h);
    }

    /** Records written to Kafka so far (heartbeats included). */
    int sent() {
        return sent.get();
    }

    /** Outbox records written to Kafka so far (heartbeats left out). */
    public int records() {
        return records.get();
    }

    /** {@link System#nanoTime()} when the engine handed over its first batch, or 0 before. */
    public long firstBatchNanos() {
        return firstBatchNanos;
    }

    /** {@link System#nanoTime()} when Kafka acknowledged the last outbox record so far, or 0 before. */
    public long lastAckNanos() {
        return lastAckNanos;
    }

    /** Why the engine stopped or a record could not be written, or null. */
    public Throwable failure() {
        return failure.get();
    }

    /**
     * Stops the engine as a crash would: its thread is interrupted and the producer closed at once, so records already
     * sent whose offsets were not yet committed are read again by the next engine on the same offsets file. Returns
     * once the engine's thread ended.
     */
    void kill() throws InterruptedException {
        runner.shutdownNow();
        producer.close(java.time.Duration.ZERO);
        if (!runner.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the Debezium engine's thread did not end within 30 s of its interruption");
        }
    }

    @Override
    public void close() throws Exception {
        try {
            engine.close();
        } finally {
            runner.shutdown();
            boolean stopped = runner.awaitTermination(30, TimeUnit.SECONDS);
            producer.close(java.time.Duration.ofSeconds(10));
            if (!stopped) {
                throw new IllegalStateException("the Debezium engine did not stop within 30 s");
            }
        }
    }

    private static Converter converter(Map<String, String> config, String key, boolean isKey) {
        Converter c = instance(config.get(key), Converter.class);
        c.configure(prefixed(config, key + "."), isKey);
        return c;
    }

    private static Map<String, String> prefixed(Map<String, String> config, String prefix) {
        Map<String, String> out = new java.util.HashMap<>();
        config.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    private static <T> T instance(String className, Class<T> type) {
        if (className == null) {
            throw new IllegalArgumentException("docs/cdc/ee-outbox-connector.json names no " + type.getSimpleName());
        }
        try {
            return type.cast(Class.forName(className).getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make " + className, e);
        }
    }
}
