package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.config.Setting;
import io.eeoutbox.relay.jms.DestinationRule;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The JNDI names of the server resources the relay runs on and the shipped publisher it uses, declared once apart
 * from the engine's tuning
 * ({@link io.eeoutbox.relay.config.RelaySettings}); the README's table of them is rendered from {@link #ALL}.
 */
public final class ResourceNames {

    private static final Pattern JNDI = Pattern.compile("\\S{1,255}");
    private static final String ALLOWED = "a JNDI name such as java:app/..., without spaces";

    public static final Setting<String> DATASOURCE = Setting.text("outbox.relay.datasource", "java:app/jdbc/OutboxRelay",
            JNDI, ALLOWED, "a **non-JTA** DataSource on the outbox database");

    public static final Setting<String> EXECUTOR = Setting.text("outbox.relay.executor",
            "java:comp/DefaultManagedScheduledExecutorService", JNDI, ALLOWED, "a ManagedScheduledExecutorService");

    public static final Setting<String> THREAD_FACTORY = Setting.text("outbox.relay.thread-factory",
            "java:comp/DefaultManagedThreadFactory", JNDI, ALLOWED, "a ManagedThreadFactory (the LISTEN thread)");

    public static final Setting<String> JMS_CONNECTION_FACTORY = Setting.text("outbox.relay.jms.connection-factory",
            "java:comp/DefaultJMSConnectionFactory", JNDI, ALLOWED, "the JMS connection factory; give the relay one"
                    + " that fails rather than reconnecting forever"
                    + " ([operations](docs/operations.md#broker-outages-and-the-connection-factory))");

    public static final Setting<String> JMS_DESTINATION = Setting.text(DestinationRule.DESTINATION,
            "java:app/jms/OutboxEvents", JNDI, ALLOWED, "the JMS queue or topic the events go to");

    /** A destination per event instead of {@link #JMS_DESTINATION}; {@link DestinationRule} checks it at start. */
    public static final Setting<String> JMS_DESTINATION_PATTERN = Setting.text(DestinationRule.PATTERN, null,
            Pattern.compile("(?s).+"), "a JNDI name with `{aggregate_type}` and/or `{event_type}`, without spaces",
            "a destination per event instead of `destination`: `java:app/jms/{aggregate_type}-events` sends an `order`"
                    + " event to the queue at `java:app/jms/order-events`; an event whose name is bound to nothing"
                    + " fails on its own ([JMS routing](docs/jms.md))");

    /** Which shipped publisher runs when the application has no Publisher bean (docs/kafka.md for Kafka's keys). */
    public static final Setting<String> PUBLISHER = Setting.word("outbox.relay.publisher", "jms",
            List.of("jms", "kafka"), "the shipped publisher used when the application has no"
                    + " `io.eeoutbox.spi.Publisher` bean ([Kafka](docs/kafka.md))");

    /** Every resource name, in the order the README lists them. */
    public static final List<Setting<?>> ALL = List.of(DATASOURCE, EXECUTOR, THREAD_FACTORY, JMS_CONNECTION_FACTORY,
            JMS_DESTINATION, JMS_DESTINATION_PATTERN, PUBLISHER);

    private final String dataSource;
    private final String executor;
    private final String threadFactory;
    private final String jmsConnectionFactory;
    private final String jmsDestination;
    private final DestinationRule jmsDestinations;

    private ResourceNames(Function<String, Optional<String>> lookup) {
        this.dataSource = read(lookup, DATASOURCE);
        this.executor = read(lookup, EXECUTOR);
        this.threadFactory = read(lookup, THREAD_FACTORY);
        this.jmsConnectionFactory = read(lookup, JMS_CONNECTION_FACTORY);
        this.jmsDestination = read(lookup, JMS_DESTINATION);
        this.jmsDestinations = rule(lookup, jmsDestination);
    }

    /** One destination, or with {@value DestinationRule#PATTERN} one per event; never both set. */
    private static DestinationRule rule(Function<String, Optional<String>> lookup, String destination) {
        Optional<String> pattern = given(lookup, JMS_DESTINATION_PATTERN);
        if (pattern.isEmpty()) {
            return DestinationRule.fixed(destination);
        }
        if (given(lookup, JMS_DESTINATION).isPresent()) {
            throw new IllegalArgumentException("invalid configuration: set one of " + JMS_DESTINATION.key() + " (one"
                    + " destination for every event) and " + JMS_DESTINATION_PATTERN.key() + " (one per event, such as"
                    + " java:app/jms/" + DestinationRule.AGGREGATE_TYPE + "-events); both are set");
        }
        return DestinationRule.pattern(pattern.get());
    }

    private static Optional<String> given(Function<String, Optional<String>> lookup, Setting<String> setting) {
        Optional<String> raw = lookup.apply(setting.key());
        return raw != null && raw.isPresent() && !raw.get().isBlank() ? Optional.of(raw.get().strip()) : Optional.empty();
    }

    /** Reads the names from {@code lookup}; an unset or empty key keeps its default. */
    public static ResourceNames load(Function<String, Optional<String>> lookup) {
        return new ResourceNames(lookup);
    }

    private static String read(Function<String, Optional<String>> lookup, Setting<String> setting) {
        Optional<String> raw = lookup.apply(setting.key());
        return raw != null && raw.isPresent() && !raw.get().isBlank() ? setting.parse(raw.get()) : setting.defaultValue();
    }

    public String dataSource() {
        return dataSource;
    }

    public String executor() {
        return executor;
    }

    public String threadFactory() {
        return threadFactory;
    }

    public String jmsConnectionFactory() {
        return jmsConnectionFactory;
    }

    /** The one destination's name ({@value DestinationRule#DESTINATION}; its default while a pattern is set). */
    public String jmsDestination() {
        return jmsDestination;
    }

    /** Which destination each event goes to: {@link #jmsDestination()}, or by {@value DestinationRule#PATTERN}. */
    public DestinationRule jmsDestinations() {
        return jmsDestinations;
    }

    @Override
    public String toString() {
        return "ResourceNames[datasource=" + dataSource + ", executor=" + executor + ", thread-factory=" + threadFactory
                + ", jms.connection-factory=" + jmsConnectionFactory + ", jms.destination" + (jmsDestinations.isFixed() ? "=" : "s=") + jmsDestinations + "]";
    }
}
