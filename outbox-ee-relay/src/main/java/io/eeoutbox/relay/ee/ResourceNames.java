package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.config.Setting;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The JNDI names of the server resources the relay runs on, declared once apart from the engine's tuning
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

    public static final Setting<String> JMS_DESTINATION = Setting.text("outbox.relay.jms.destination",
            "java:app/jms/OutboxEvents", JNDI, ALLOWED, "the JMS queue or topic the events go to");

    /** Every resource name, in the order the README lists them. */
    public static final List<Setting<?>> ALL = List.of(DATASOURCE, EXECUTOR, THREAD_FACTORY, JMS_CONNECTION_FACTORY,
            JMS_DESTINATION);

    private final String dataSource;
    private final String executor;
    private final String threadFactory;
    private final String jmsConnectionFactory;
    private final String jmsDestination;

    private ResourceNames(Function<String, Optional<String>> lookup) {
        this.dataSource = read(lookup, DATASOURCE);
        this.executor = read(lookup, EXECUTOR);
        this.threadFactory = read(lookup, THREAD_FACTORY);
        this.jmsConnectionFactory = read(lookup, JMS_CONNECTION_FACTORY);
        this.jmsDestination = read(lookup, JMS_DESTINATION);
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

    public String jmsDestination() {
        return jmsDestination;
    }

    @Override
    public String toString() {
        return "ResourceNames[datasource=" + dataSource + ", executor=" + executor + ", thread-factory=" + threadFactory
                + ", jms.connection-factory=" + jmsConnectionFactory + ", jms.destination=" + jmsDestination + "]";
    }
}
