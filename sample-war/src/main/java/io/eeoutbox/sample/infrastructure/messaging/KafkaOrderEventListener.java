package io.eeoutbox.sample.infrastructure.messaging;

import io.eeoutbox.sample.application.projection.OrderProjectionService;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The sample's Kafka consumer, the counterpart of {@link OrderEventConsumer} (the MDB) when the relay publishes to
 * Kafka ({@value #PUBLISHER}{@code =kafka}); with the JMS default it does nothing and loads no Kafka class.
 *
 * <p>It reads the topic the relay writes to ({@value #TOPIC}) from the cluster the relay writes to
 * ({@value #BOOTSTRAP}), as consumer group {@value OrderProjectionService#CONSUMER}, with auto-commit off, on one
 * thread of the server's default {@link ManagedThreadFactory}. Each record is applied by
 * {@link KafkaOrderEventApplier} in a transaction of its own (inbox and projection together); the offsets of the
 * applied records are committed after each poll. When a record fails, its partition is moved back to it and read
 * again after {@link #RETRY_PAUSE}; the inbox makes a record applied twice harmless. A poll that fails (an
 * unreachable or refusing cluster) does not end the loop: it polls again after a pause growing to
 * {@link #POLL_PAUSE_MAX}, logging the first failure of a streak and its end. Undeploying stops the loop and
 * closes the consumer, committing what was applied.
 *
 * <p>One partition is read by one consumer of the group, in order: with the relay's ordered mode (the sample's
 * default) an order's events are applied in the order they were written.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class KafkaOrderEventListener {

    static final String PUBLISHER = "outbox.relay.publisher";
    static final String TOPIC = "outbox.relay.kafka.topic";
    static final String BOOTSTRAP = "outbox.relay.kafka.producer.bootstrap.servers";
    static final Duration POLL = Duration.ofMillis(500);
    static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    static final Duration POLL_PAUSE_MAX = Duration.ofSeconds(30);
    static final int WARN_EVERY = 60;
    private static final Duration STOP_PATIENCE = Duration.ofSeconds(30);
    private static final Logger LOG = Logger.getLogger(KafkaOrderEventListener.class.getName());

    @Resource
    private ManagedThreadFactory threads;

    @EJB
    private KafkaOrderEventApplier applier;

    private final CountDownLatch stop = new CountDownLatch(1);
    private KafkaConsumer<String, String> consumer;
    private Thread loop;
    /** Tries of the records that failed and were not applied since (the loop's thread only). */
    private final Map<String, Integer> failingRecords = new HashMap<>();

    @PostConstruct
    void start() {
        Config config = ConfigProvider.getConfig();
        String publisher = config.getOptionalValue(PUBLISHER, String.class).orElse("jms").strip().toLowerCase(Locale.ROOT);
        if (!publisher.equals("kafka")) {
            return;
        }
        String topic = required(config, TOPIC);
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, required(config, BOOTSTRAP));
        p.put(ConsumerConfig.GROUP_ID_CONFIG, OrderProjectionService.CONSUMER);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, OrderProjectionService.CONSUMER);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // a group's first start reads what the relay published before it joined
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "200");
        // the Kafka client's own classes, not the thread's context class loader, for its plug-ins
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(KafkaConsumer.class.getClassLoader());
        try {
            consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        consumer.subscribe(List.of(topic));
        loop = threads.newThread(this::run);
        loop.setName("order-projection-kafka");
        loop.start();
        LOG.info(() -> "Kafka consumer " + OrderProjectionService.CONSUMER + " reading topic " + topic + " from "
                + p.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    private static String required(Config config, String key) {
        Optional<String> value = config.getOptionalValue(key, String.class).map(String::strip).filter(v -> !v.isEmpty());
        return value.orElseThrow(() -> new IllegalStateException("invalid configuration: " + PUBLISHER + "=kafka and "
                + key + " is not set; the sample's Kafka consumer reads the topic and cluster the relay writes to"));
    }

    private void run() {
        int failedPolls = 0;
        try {
            while (stop.getCount() > 0) {
                ConsumerRecords<String, String> records;
                try {
                    records = consumer.poll(POLL);
                } catch (WakeupException | InterruptException stopping) {
                    throw stopping;
                } catch (RuntimeException e) {
                    // not a reason to stop reading for good (an authorisation or a cluster error can pass):
                    // logged once per streak, polled again after a pause that grows to POLL_PAUSE_MAX
                    failedPolls++;
                    logFailedPoll(failedPolls, e);
                    stop.await(pauseAfter(failedPolls).toMillis(), TimeUnit.MILLISECONDS);
                    continue;
                }
                if (failedPolls > 0) {
                    int failed = failedPolls;
                    LOG.info(() -> "the Kafka consumer " + OrderProjectionService.CONSUMER + " reads again after "
                            + failed + " failed polls");
                    failedPolls = 0;
                }
                if (!applyAll(records)) {
                    stop.await(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (WakeupException | InterruptException stopping) {
            // undeploy: stop() woke the consumer up, or the server interrupted its managed thread
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // not a failed poll (retried above): a fault of the loop itself, which it cannot go on from
            LOG.log(Level.SEVERE, "the Kafka consumer " + OrderProjectionService.CONSUMER + " stopped", e);
        } finally {
            try {
                consumer.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.fine(() -> "closing the Kafka consumer: " + e);
            }
        }
    }

    private static void logFailedPoll(int failedPolls, RuntimeException e) {
        if (failedPolls == 1) {
            LOG.log(Level.SEVERE, "the Kafka consumer " + OrderProjectionService.CONSUMER + " could not poll; it tries"
                    + " again, every " + POLL_PAUSE_MAX.toSeconds() + " s at most, and logs when it reads again", e);
        } else {
            LOG.fine(() -> "the Kafka consumer could not poll (" + failedPolls + " in a row): " + e);
        }
    }

    /** 1 s, 2 s, 4 s ... up to {@link #POLL_PAUSE_MAX}. */
    static Duration pauseAfter(int failedPolls) {
        long seconds = 1L << Math.min(failedPolls - 1, 16);
        return seconds >= POLL_PAUSE_MAX.toSeconds() ? POLL_PAUSE_MAX : Duration.ofSeconds(seconds);
    }

    /**
     * Applies each partition's records in order, stopping a partition at its first failure (and moving it back to
     * that record), then commits the offsets after the applied records.
     *
     * @return false when a record failed
     */
    private boolean applyAll(ConsumerRecords<String, String> records) {
        boolean allApplied = true;
        Map<TopicPartition, OffsetAndMetadata> applied = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            for (ConsumerRecord<String, String> r : records.records(partition)) {
                try {
                    applier.apply(r);
                } catch (RuntimeException e) {
                    allApplied = false;
                    consumer.seek(partition, r.offset());
                    logNotApplied(r, e);
                    break;
                }
                if (!failingRecords.isEmpty()) {
                    failingRecords.remove(KafkaOrderEventApplier.describe(r));
                }
                applied.put(partition, new OffsetAndMetadata(r.offset() + 1));
            }
        }
        if (!applied.isEmpty()) {
            try {
                consumer.commitSync(applied);
            } catch (WakeupException | InterruptException stopping) {
                throw stopping;
            } catch (RuntimeException e) {
                // a rebalance took the partitions away: their new reader starts at the last commit, the inbox
                // absorbs the repeats
                LOG.warning(() -> "offsets not committed, records may be read again: " + e);
            }
        }
        return allApplied;
    }

    /**
     * A record that fails is read again every {@link #RETRY_PAUSE} and blocks its partition: its first failure is
     * a WARNING, then one every {@link #WARN_EVERY} tries (not one a second, all day), the others at FINE.
     */
    void logNotApplied(ConsumerRecord<String, String> r, RuntimeException e) {
        int tries = failingRecords.merge(KafkaOrderEventApplier.describe(r), 1, Integer::sum);
        if (tries == 1 || tries % WARN_EVERY == 0) {
            LOG.warning(() -> "record " + KafkaOrderEventApplier.describe(r) + " not applied (" + tries + " tries; its"
                    + " partition waits for it), read again every " + RETRY_PAUSE.toMillis() + " ms: " + e);
        } else {
            LOG.fine(() -> "record " + KafkaOrderEventApplier.describe(r) + " not applied (" + tries + " tries): " + e);
        }
        if (failingRecords.size() > 1000) {
            failingRecords.clear(); // records long since applied or skipped; keeps the map small
        }
    }

    @PreDestroy
    void stop() {
        if (loop == null) {
            return;
        }
        stop.countDown();
        consumer.wakeup();
        try {
            loop.join(STOP_PATIENCE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (loop.isAlive()) {
            LOG.warning(() -> "the Kafka consumer " + OrderProjectionService.CONSUMER + " did not stop within "
                    + STOP_PATIENCE.toSeconds() + " s");
        }
    }
}
