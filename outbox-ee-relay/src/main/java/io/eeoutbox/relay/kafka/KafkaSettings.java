package io.eeoutbox.relay.kafka;

import io.eeoutbox.relay.config.Setting;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The Kafka publisher's settings, read and checked once at start.
 *
 * <ul>
 *   <li>{@value #TOPIC}: every event goes to this topic; or {@value #TOPIC_PATTERN}: one topic per aggregate type,
 *       such as {@code events.{aggregate_type}}. Exactly one of the two.</li>
 *   <li>{@value #PRODUCER_PREFIX}{@code <name>}: the Kafka producer property {@code <name>}, passed through
 *       ({@code bootstrap.servers} is required). The delivery guarantees are fixed: {@code acks=all},
 *       {@code enable.idempotence=true}, {@code max.in.flight.requests.per.connection} at most 5; a setting that
 *       weakens them, a serializer or a {@code transactional.id} is refused.</li>
 * </ul>
 * Values whose key names a secret (see {@link #isSecret}) are masked wherever the settings are shown.
 */
public final class KafkaSettings {

    public static final String PREFIX = "outbox.relay.kafka.";
    /** Every event goes to this topic; {@link TopicRule} checks it against Kafka's topic names at start. */
    public static final Setting<String> TOPIC_SETTING = Setting.text("outbox.relay.kafka.topic", null,
            java.util.regex.Pattern.compile("(?s).+"), "a Kafka topic name: 1 to 249 of `a-z A-Z 0-9 . _ -`",
            "every event goes to this topic; set exactly one of `topic` and `topic-pattern`");
    /** One topic per aggregate type; {@link TopicRule} checks it at start. */
    public static final Setting<String> TOPIC_PATTERN_SETTING = Setting.text("outbox.relay.kafka.topic-pattern", null,
            java.util.regex.Pattern.compile("(?s).+"), "a topic name with `{aggregate_type}` once",
            "one topic per aggregate type: `events.{aggregate_type}` sends an `order` event to `events.order`; an"
                    + " event whose aggregate type makes no legal name, or has none, fails on its own");
    /** The declared Kafka settings, in the order docs/kafka.md lists them ({@code producer.*} passes through). */
    public static final List<Setting<?>> ALL = List.of(TOPIC_SETTING, TOPIC_PATTERN_SETTING);

    public static final String TOPIC = TOPIC_SETTING.key();
    public static final String TOPIC_PATTERN = TOPIC_PATTERN_SETTING.key();
    public static final String PRODUCER_PREFIX = "outbox.relay.kafka.producer.";

    /** The defaults this publisher sets; each can be overridden within the guarantees above. */
    static final Map<String, String> DEFAULTS = Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000",
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
            ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000",
            ProducerConfig.LINGER_MS_CONFIG, "5");

    static final long MAX_DELIVERY_TIMEOUT_MS = Duration.ofMinutes(15).toMillis();
    private static final String MASK = "****";

    private final TopicRule topics;
    private final Map<String, String> producer;

    private KafkaSettings(TopicRule topics, Map<String, String> producer) {
        this.topics = topics;
        this.producer = producer;
    }

    /**
     * Reads the settings.
     *
     * @param lookup     the configuration (MicroProfile Config, system properties, a map in tests)
     * @param knownNames names the configuration can list, so that producer properties the client does not declare
     *                   (an interceptor's, say) pass through too; every property the producer declares is looked up
     *                   by name whether listed or not (environment variables cannot be listed back into names)
     * @throws IllegalArgumentException naming the key and what it accepts; nothing is built then
     */
    public static KafkaSettings load(Function<String, Optional<String>> lookup, Collection<String> knownNames) {
        Objects.requireNonNull(lookup, "lookup");
        TopicRule topics = TopicRule.of(value(lookup, TOPIC).map(TOPIC_SETTING::parse),
                value(lookup, TOPIC_PATTERN).map(TOPIC_PATTERN_SETTING::parse));
        Map<String, String> producer = new TreeMap<>(DEFAULTS);
        for (String name : ProducerConfig.configNames()) {
            value(lookup, PRODUCER_PREFIX + name).ifPresent(v -> producer.put(name, v));
        }
        for (String key : knownNames) {
            if (key.startsWith(PRODUCER_PREFIX) && key.length() > PRODUCER_PREFIX.length()) {
                value(lookup, key).ifPresent(v -> producer.put(key.substring(PRODUCER_PREFIX.length()), v));
            }
        }
        check(producer);
        return new KafkaSettings(topics, Map.copyOf(producer));
    }

    private static Optional<String> value(Function<String, Optional<String>> lookup, String key) {
        Optional<String> v = lookup.apply(key);
        return v == null ? Optional.empty() : v.map(String::strip).filter(s -> !s.isEmpty());
    }

    private static void check(Map<String, String> p) {
        if (!p.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("invalid configuration: " + PRODUCER_PREFIX
                    + ProducerConfig.BOOTSTRAP_SERVERS_CONFIG + " is required with outbox.relay.publisher=kafka"
                    + " (host:port[,host:port...])");
        }
        String acks = p.get(ProducerConfig.ACKS_CONFIG);
        if (!acks.equals("all") && !acks.equals("-1")) {
            throw refused(ProducerConfig.ACKS_CONFIG, acks, "all (or -1): the relay marks an event published only"
                    + " once every in-sync replica has it");
        }
        if (!p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG).equalsIgnoreCase("true")) {
            throw refused(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG),
                    "true: without it a retried send can be written twice or out of order");
        }
        number(p, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1, 5,
                "1..5: the idempotent producer keeps order under retries only up to 5 requests in flight");
        long delivery = number(p, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 1, MAX_DELIVERY_TIMEOUT_MS,
                "1.." + MAX_DELIVERY_TIMEOUT_MS + " (ms): how long a batch may wait for the cluster");
        long request = number(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1, Integer.MAX_VALUE, "a positive int (ms)");
        long linger = number(p, ProducerConfig.LINGER_MS_CONFIG, 0, Integer.MAX_VALUE, "an int >= 0 (ms)");
        number(p, ProducerConfig.MAX_BLOCK_MS_CONFIG, 0, MAX_DELIVERY_TIMEOUT_MS, "0.." + MAX_DELIVERY_TIMEOUT_MS + " (ms)");
        if (delivery < request + linger) {
            throw refused(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(delivery),
                    "at least request.timeout.ms + linger.ms (" + (request + linger) + ")");
        }
        for (String fixed : new String[] {ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ProducerConfig.TRANSACTIONAL_ID_CONFIG}) {
            if (p.containsKey(fixed)) {
                throw new IllegalArgumentException("invalid configuration: " + PRODUCER_PREFIX + fixed
                        + " cannot be set: the relay sends the aggregate id as a string key and the payload as UTF-8"
                        + " bytes, without Kafka transactions");
            }
        }
    }

    private static long number(Map<String, String> p, String name, long min, long max, String accepted) {
        String raw = p.get(name);
        long v;
        try {
            v = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw refused(name, raw, accepted);
        }
        if (v < min || v > max) {
            throw refused(name, raw, accepted);
        }
        return v;
    }

    private static IllegalArgumentException refused(String name, String value, String accepted) {
        String shown = isSecret(name) ? MASK : value;
        return new IllegalArgumentException("invalid configuration: " + PRODUCER_PREFIX + name + "=" + shown
                + "; accepted: " + accepted);
    }

    /**
     * Whether a property holds a secret: the Kafka client declares it of type {@code PASSWORD} (such as
     * {@code ssl.keystore.key}, an inline private key, or {@code sasl.jaas.config}), or its name contains
     * {@code password}, {@code secret} or {@code token} (for a plugin's own properties the client does not know).
     */
    public static boolean isSecret(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.contains("password") || n.contains("secret") || n.contains("token") || n.contains("sasl.jaas.config")) {
            return true;
        }
        ConfigDef.ConfigKey known = ProducerConfig.configDef().configKeys().get(name);
        return known != null && known.type == ConfigDef.Type.PASSWORD;
    }

    /** The rule that names each event's topic. */
    public TopicRule topics() {
        return topics;
    }

    /** The producer's properties, secrets included: give them to the client only, never to a log. */
    public Properties producerProperties() {
        Properties props = new Properties();
        props.putAll(producer);
        return props;
    }

    /** A producer property's value (unmasked), or empty. */
    public Optional<String> producer(String name) {
        return Optional.ofNullable(producer.get(name));
    }

    /** How long the cluster may take for a batch: the producer's delivery timeout. */
    public Duration deliveryTimeout() {
        return Duration.ofMillis(Long.parseLong(producer.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)));
    }

    public String bootstrapServers() {
        return producer.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    /** The producer's properties for a log line, secrets masked: {@code {acks=all, sasl.jaas.config=****, ...}}. */
    public String describeProducer() {
        return producer.entrySet().stream()
                .map(e -> e.getKey() + "=" + (isSecret(e.getKey()) ? MASK : e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    @Override
    public String toString() {
        return "KafkaSettings[" + topics + ", producer=" + describeProducer() + "]";
    }
}
