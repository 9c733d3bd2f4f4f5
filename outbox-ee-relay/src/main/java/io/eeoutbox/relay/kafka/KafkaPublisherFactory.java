package io.eeoutbox.relay.kafka;

import io.eeoutbox.spi.Publisher;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Makes the shipped Kafka publisher for {@code outbox.relay.publisher=kafka}. Its signature holds no Kafka type,
 * so the relay's wiring can call it while kafka-clients is optional: without the jar it fails with a message that
 * says what to add, and nothing else in the relay ever loads a Kafka class.
 */
public final class KafkaPublisherFactory {

    static final String PRODUCER_CLASS = "org.apache.kafka.clients.producer.KafkaProducer";

    private KafkaPublisherFactory() {
    }

    /**
     * @param lookup the relay's configuration
     * @param loader the application's class loader (for kafka-clients and for MicroProfile Config's key names)
     * @param lease  the relay's lease ({@code outbox.relay.lease}): a batch must be answered well within it, or another
     *               relay claims the same events while this one still waits for them
     * @return a {@link KafkaPublisher}, which is also {@link AutoCloseable}
     * @throws IllegalStateException when kafka-clients is missing; IllegalArgumentException for a bad setting
     */
    public static Publisher create(Function<String, Optional<String>> lookup, ClassLoader loader, Duration lease) {
        try {
            Class.forName(PRODUCER_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("ee-outbox relay: outbox.relay.publisher=kafka needs the Kafka client in the"
                    + " application: add org.apache.kafka:kafka-clients (4.x) to it (" + e + ")", e);
        }
        KafkaSettings settings = KafkaSettings.load(lookup, configNames(loader));
        long blockMs = Long.parseLong(settings.producer("max.block.ms").orElse("0"));
        Duration worst = settings.deliveryTimeout().plusMillis(blockMs);
        if (worst.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("invalid configuration: " + KafkaSettings.PRODUCER_PREFIX
                    + "delivery.timeout.ms + max.block.ms (" + worst.toMillis() + " ms) must stay below outbox.relay.lease ("
                    + lease + "): a batch still waiting for the cluster when its lease ends is claimed by another relay");
        }
        return new KafkaPublisher(settings);
    }

    /**
     * The configuration's key names that can be listed: MicroProfile Config's (when the server has it) and the system
     * properties; producer properties the client declares are looked up by name in any case.
     */
    static Collection<String> configNames(ClassLoader loader) {
        Set<String> names = new LinkedHashSet<>(System.getProperties().stringPropertyNames());
        try {
            Class<?> provider = Class.forName("org.eclipse.microprofile.config.ConfigProvider", true, loader);
            Object config = provider.getMethod("getConfig", ClassLoader.class).invoke(null, loader);
            Method getNames = Class.forName("org.eclipse.microprofile.config.Config", true, loader)
                    .getMethod("getPropertyNames");
            for (Object n : (Iterable<?>) getNames.invoke(config)) {
                names.add(String.valueOf(n));
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // no MicroProfile Config: system properties only
        }
        return names;
    }

    /**
     * Closes a publisher {@link #create} made: waiting up to the delivery timeout for records in flight, or, when
     * {@code now} (a batch still runs after the relay's stop grace), failing them at once.
     */
    public static void close(Publisher publisher, boolean now) {
        KafkaPublisher kafka = (KafkaPublisher) publisher;
        if (now) {
            kafka.close(Duration.ZERO);
        } else {
            kafka.close();
        }
    }
}
