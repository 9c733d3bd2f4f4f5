package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.CompositeRelayListener;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.relay.kafka.KafkaPublisherFactory;
import io.eeoutbox.relay.trace.PublishTracing;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Starts the relay when the application starts and stops it when the application stops.
 *
 * <p>Resources come from JNDI under the configured names: the non-JTA data source
 * ({@value RelayConfig#DATASOURCE}), the ManagedScheduledExecutorService ({@value RelayConfig#EXECUTOR}), the
 * ManagedThreadFactory for the LISTEN thread ({@value RelayConfig#THREAD_FACTORY}). The publisher is the
 * application's one {@link Publisher} CDI bean, or, when there is none, the shipped {@link JmsPublisher}
 * on {@value RelayConfig#JMS_DESTINATION} or a destination per event ({@link ShippedJms}) (or, with
 * {@code outbox.relay.publisher=kafka}, the shipped Kafka publisher, see {@code io.eeoutbox.relay.kafka}). Every {@link RelayListener} bean
 * observes the relay. With {@value RelayConfig#ENABLED}=false nothing starts. A wrong setting or a missing
 * resource fails the deployment with a message that names it.
 */
@ApplicationScoped
public class OutboxRelayBootstrap {

    private static final Logger LOG = Logger.getLogger(OutboxRelayBootstrap.class.getName());
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    @Inject
    Instance<Publisher> publishers;

    @Inject
    Instance<RelayListener> listeners;

    private volatile OutboxRelay relay;
    private volatile ResourceNames resourceNames = ResourceNames.load(key -> java.util.Optional.empty());
    private JmsPublisher shippedPublisher;
    private Publisher shippedKafka;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        start();
    }

    void onStop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object ignored) {
        stop();
    }

    @PreDestroy
    void preDestroy() {
        stop();
    }

    /** The running relay, or empty when it is disabled or stopped (for the MBean and health checks). */
    /** The JNDI names of the resources the relay runs on (the defaults until it started). */
    public ResourceNames resourceNames() {
        return resourceNames;
    }

    public Optional<OutboxRelay> relay() {
        return Optional.ofNullable(relay);
    }

    /** Wakes the local relay (after a commit in this JVM). */
    public void wakeUp() {
        OutboxRelay r = relay;
        if (r != null) {
            r.wakeUp();
        }
    }

    synchronized void start() {
        if (relay != null) {
            return;
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ClassLoader appLoader = loader != null ? loader : OutboxRelayBootstrap.class.getClassLoader();
        java.util.function.Function<String, Optional<String>> lookup = EeConfigLookup.forApplication(appLoader);
        RelayConfig config = RelayConfig.load(lookup);
        ResourceNames names = ResourceNames.load(lookup);
        this.resourceNames = names;
        if (!config.enabled()) {
            LOG.info(RelaySettings.ENABLED.key() + "=false: the outbox relay does not run in this application");
            return;
        }
        try {
            InitialContext jndi = new InitialContext();
            DataSource dataSource = lookup(jndi, names.dataSource(), DataSource.class, ResourceNames.DATASOURCE.key());
            ScheduledExecutorService executor = lookup(jndi, names.executor(), ScheduledExecutorService.class,
                    ResourceNames.EXECUTOR.key());
            ThreadFactory threads = config.notifyEnabled()
                    ? lookup(jndi, names.threadFactory(), ThreadFactory.class, ResourceNames.THREAD_FACTORY.key())
                    : null;
            // cdc mode: a CDC connector publishes, so no publisher, queue or Kafka setting is looked up (docs/cdc.md)
            Publisher publisher = config.cdc() ? null
                    : PublishTracing.wrap(publisher(jndi, names, lookup, appLoader, config.lease()));
            List<RelayListener> all = new ArrayList<>();
            for (RelayListener l : listeners) {
                all.add(l);
            }
            OutboxRelay r = OutboxRelay.builder()
                    .config(config)
                    .dataSource(dataSource)
                    .executor(executor)
                    .threadFactory(threads)
                    .publisher(publisher)
                    .listener(CompositeRelayListener.of(all))
                    .fleet(FleetIdentities.of(config.name()))
                    .build();
            r.start();
            relay = r;
            PoolSizeCheck.checkOnceStarted(config, names.dataSource(), true, executor, r::isRunning);
        } catch (NamingException e) {
            throw new IllegalStateException("ee-outbox relay: JNDI is not available: " + e, e);
        }
    }

    synchronized void stop() {
        OutboxRelay r = relay;
        relay = null;
        // A batch still running after the grace must not hold up the undeploy: the JMS publisher leaves its context
        // to that batch to close, the Kafka producer fails its records in flight (their rows are published again).
        boolean idle = r == null || r.stop(STOP_GRACE);
        if (shippedPublisher != null) {
            shippedPublisher.close();
            shippedPublisher = null;
        }
        if (shippedKafka != null) {
            try {
                KafkaPublisherFactory.close(shippedKafka, !idle);
            } catch (RuntimeException e) {
                LOG.fine(() -> "closing the Kafka publisher failed: " + e);
            }
            shippedKafka = null;
        }
    }

    private Publisher publisher(InitialContext jndi, ResourceNames config,
                                java.util.function.Function<String, Optional<String>> lookup, ClassLoader loader,
                                java.time.Duration lease) {
        List<String> found = publishers.handlesStream()
                .map(h -> describe(h.getBean()))
                .collect(Collectors.toList());
        String shipped = lookup.apply(PublisherSelection.PUBLISHER).map(v -> v.strip().toLowerCase(java.util.Locale.ROOT))
                .filter(v -> !v.isEmpty()).orElse("jms");
        PublisherSelection.Choice choice = PublisherSelection.choose(found, shipped, config.jmsDestinations().toString(), () -> {
            try {
                ShippedJms.check(jndi, config);
                return Optional.empty();
            } catch (IllegalStateException e) {
                return Optional.of(e.getMessage());
            }
        });
        if (choice == PublisherSelection.Choice.APPLICATION_BEAN) {
            return publishers.get();
        }
        if (choice == PublisherSelection.Choice.SHIPPED_KAFKA) {
            Publisher kafka = KafkaPublisherFactory.create(lookup, loader, lease);
            shippedKafka = kafka;
            return kafka;
        }
        shippedPublisher = ShippedJms.create(jndi, config, lease);
        return shippedPublisher;
    }

    private static String describe(Bean<?> bean) {
        return bean.getBeanClass().getName() + (bean.getQualifiers().isEmpty() ? "" : " " + bean.getQualifiers());
    }

    static <T> T lookup(InitialContext jndi, String name, Class<T> type, String key) {
        Object found;
        try {
            found = jndi.lookup(name);
        } catch (NamingException e) {
            throw new IllegalStateException("ee-outbox relay: nothing is bound at " + name + " (" + key + "): " + e, e);
        }
        if (!type.isInstance(found)) {
            throw new IllegalStateException("ee-outbox relay: " + name + " (" + key + ") is a "
                    + (found == null ? "null" : found.getClass().getName()) + ", not a " + type.getName());
        }
        return type.cast(found);
    }
}
