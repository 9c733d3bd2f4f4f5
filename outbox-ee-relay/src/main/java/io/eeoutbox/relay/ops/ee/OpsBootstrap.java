package io.eeoutbox.relay.ops.ee;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.ee.EeConfigLookup;
import io.eeoutbox.relay.ee.OutboxRelayBootstrap;
import io.eeoutbox.relay.ops.GaugeRefresher;
import io.eeoutbox.relay.ops.GaugeSource;
import io.eeoutbox.relay.ops.History;
import io.eeoutbox.relay.ops.MetricsSink;
import io.eeoutbox.relay.ops.OpsConfig;
import io.eeoutbox.relay.ee.ResourceNames;
import io.eeoutbox.relay.ops.JmxAdapter;
import io.eeoutbox.relay.ops.RecentFailures;
import io.eeoutbox.relay.ops.RelayHealth;
import io.eeoutbox.relay.ops.RelayMBeans;
import io.eeoutbox.relay.ops.RelayMetrics;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.store.OperatorQueries;
import io.eeoutbox.spi.RelayListener;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The relay's observability and operations in a server: hands out the one {@link RelayOperations} of the relay
 * running in this application ({@link #operations()}: the MBean, the web console and a server's management model
 * all call that instance); listens to the relay (it is a {@link RelayListener} bean, so
 * {@link OutboxRelayBootstrap} hands it every observation, for the metrics, the health and the recent failures);
 * and, right after the bootstrap has started the relay, registers the MBean, starts the gauge refresher on the
 * relay's executor, samples the console's {@link History} every {@link History#STEP} on it (from the gauges and
 * the counters, no statement of its own; the history outlives a relay restarted within the deployment) and exports
 * the metrics through the server's metrics API; right before the bootstrap stops the relay, it undoes all of it, so
 * a redeployment starts clean.
 *
 * <p>The ordering comes from observer priorities: the bootstrap observes the application's start and
 * stop at the default priority ({@code APPLICATION + 500}); this bean starts after it and stops before it.
 */
@ApplicationScoped
public class OpsBootstrap implements RelayListener {

    private static final Logger LOG = Logger.getLogger(OpsBootstrap.class.getName());
    private static final int AFTER_BOOTSTRAP = Interceptor.Priority.APPLICATION + 600;
    private static final int BEFORE_BOOTSTRAP = Interceptor.Priority.APPLICATION + 400;
    private static final int METRICS_BIND_ATTEMPTS = 30;

    @Inject
    OutboxRelayBootstrap bootstrap;

    private final Clock clock = Clock.systemUTC();
    private final RecentFailures recentFailures = new RecentFailures();
    private RelayOperations operations;
    private volatile OpsConfig config;
    private volatile RelayMetrics metrics;
    private volatile RelayHealth health;
    private volatile History history;
    private GaugeRefresher refresher;
    private ScheduledFuture<?> sampler;
    private ObjectName mbeanName;
    private List<MetricsSink> sinks = List.of();
    private boolean started;

    OpsConfig config() {
        OpsConfig c = config;
        if (c == null) {
            synchronized (this) {
                if (config == null) {
                    OpsConfig loaded = OpsConfig.load(EeConfigLookup.forApplication(loader()));
                    metrics = new RelayMetrics();
                    health = new RelayHealth(clock, loaded);
                    history = new History(clock, loaded.refreshInterval().multipliedBy(2).plus(History.STEP));
                    // Published last: a relay thread that sees config set (without the lock) must also
                    // see metrics and health (it once saw health still null at start-up).
                    config = loaded;
                }
                c = config;
            }
        }
        return c;
    }

    void onStart(@Observes @Priority(AFTER_BOOTSTRAP) @Initialized(ApplicationScoped.class) Object ignored) {
        start();
    }

    void onStop(@Observes @Priority(BEFORE_BOOTSTRAP) @BeforeDestroyed(ApplicationScoped.class) Object ignored) {
        stop();
    }

    @PreDestroy
    void preDestroy() {
        stop();
    }

    synchronized void start() {
        if (started) {
            return;
        }
        OpsConfig c = config();
        Optional<RelayOperations> found = operations();
        if (found.isEmpty()) {
            LOG.fine("the outbox relay does not run in this application: no MBean, gauges or metrics");
            return;
        }
        started = true;
        RelayOperations ops = found.get();
        String name = ops.name();
        refresher = new GaugeRefresher(name, ops::stats, clock, c.refreshInterval(), health);
        ScheduledExecutorService executor = null;
        try {
            executor = InitialContext.doLookup(bootstrap.resourceNames().executor());
            refresher.start(executor);
            // the first point at start, beside the first refresh: its pending is unknown if it runs before it
            sampler = executor.scheduleAtFixedRate(this::sample, 0, History.STEP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (NamingException | RuntimeException e) {
            LOG.log(Level.WARNING, "relay " + name + ": the gauge refresher could not be scheduled on "
                    + bootstrap.resourceNames().executor() + "; the database gauges stay unknown", e);
        }
        if (c.jmxEnabled()) {
            mbeanName = RelayMBeans.register(ManagementFactory.getPlatformMBeanServer(), new JmxAdapter(ops, clock,
                    refresher::latest, applicationName()));
        }
        LOG.info(() -> "relay " + name + " operations: gauges refreshed every " + c.refreshInterval() + ", MBean "
                + (mbeanName == null ? "none" : mbeanName.toString()));
        if (c.metricsEnabled()) {
            bindMetrics(name, loader(), GaugeSource.of(refresher, metrics), executor, 1);
        }
    }

    /** {@code java:app/AppName}, the application's name as the server gives it (the WAR's name without .war), or null. */
    private static String applicationName() {
        try {
            return InitialContext.doLookup("java:app/AppName");
        } catch (NamingException | RuntimeException e) {
            LOG.fine(() -> "java:app/AppName is not available: " + e);
            return null;
        }
    }

    /**
     * Exports the metrics through the first registry available; retried a few times on the executor,
     * because Open Liberty's MicroProfile Metrics registry is not available yet while the application starts.
     */
    private synchronized void bindMetrics(String name, ClassLoader loader, GaugeSource source,
                                          ScheduledExecutorService executor, int attempt) {
        if (!started) {
            return;
        }
        Optional<MetricsSink> sink = MetricsExports.bind(loader, source);
        if (sink.isPresent()) {
            sinks = List.of(sink.get());
            metrics.attach(sink.get());
            LOG.info(() -> "relay " + name + ": metrics exported to " + sink.get());
            return;
        }
        if (!MetricsExports.apiPresent(loader)) {
            LOG.info(() -> "relay " + name + ": neither MicroProfile Metrics nor Micrometer is available to this "
                    + "application; the metrics are not exported (the MBean shows the counters)");
        } else if (attempt < METRICS_BIND_ATTEMPTS && executor != null) {
            try {
                executor.schedule(() -> bindMetrics(name, loader, source, executor, attempt + 1), 1, TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "relay " + name + ": could not schedule the metrics registration", e);
            }
        } else {
            LOG.warning(() -> "relay " + name + ": no metrics registry became available after " + attempt
                    + " attempts; the metrics are not exported");
        }
    }

    /** One point of the console's chart (a scheduled task must not throw: that would end its schedule). */
    private void sample() {
        try {
            history.sample(refresher, operations().orElse(null));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "the console's history could not be sampled", e);
        }
    }

    synchronized void stop() {
        if (!started) {
            return;
        }
        started = false;
        if (sampler != null) {
            sampler.cancel(false);
            sampler = null;
        }
        RelayMBeans.unregister(ManagementFactory.getPlatformMBeanServer(), mbeanName);
        mbeanName = null;
        if (refresher != null) {
            refresher.stop();
        }
        metrics.detachAll();
        sinks = List.of();
    }

    /**
     * The operations service of the relay running in this application, the one instance every surface calls (the
     * MBean, the console, a management model); empty when the relay does not run here. A relay restarted within
     * the deployment gets a new one.
     */
    public synchronized Optional<RelayOperations> operations() {
        config(); // the history
        Optional<OutboxRelay> running = bootstrap.relay();
        if (running.isEmpty()) {
            return Optional.empty();
        }
        OutboxRelay relay = running.get();
        if (operations == null || !operations.serves(relay)) {
            ResourceNames names = bootstrap.resourceNames();
            OperatorQueries queries = null;
            try {
                queries = new OperatorQueries(InitialContext.<DataSource>doLookup(names.dataSource()));
            } catch (NamingException e) {
                LOG.log(Level.WARNING, "relay " + relay.config().name() + ": its data source " + names.dataSource()
                        + " cannot be found; the console cannot browse dead letters", e);
            }
            operations = new RelayOperations(relay, queries, recentFailures::list, shown(names), clock, history);
        }
        return Optional.of(operations);
    }

    /** The server resources the relay uses, as the console shows them after the relay's settings. */
    private static Map<String, String> shown(ResourceNames names) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(ResourceNames.DATASOURCE.key(), names.dataSource());
        m.put(ResourceNames.EXECUTOR.key(), names.executor());
        m.put(ResourceNames.THREAD_FACTORY.key(), names.threadFactory());
        m.put(ResourceNames.JMS_CONNECTION_FACTORY.key(), names.jmsConnectionFactory());
        if (names.jmsDestinations().isFixed()) {
            m.put(ResourceNames.JMS_DESTINATION.key(), names.jmsDestination());
        } else { // a destination per event: the pattern in force, not the unused default of the fixed one
            m.put(ResourceNames.JMS_DESTINATION_PATTERN.key(), names.jmsDestinations().pattern());
        }
        return m;
    }

    /** The relay's readiness now (UP when the relay does not run here). */
    public RelayHealth.Report readiness() {
        config();
        return health.readiness(bootstrap.relay().map(r -> r.heldDestinations().stream()
                .map(DestinationHolds.Held::describe).toList()).orElse(List.of()));
    }

    /** The relay's liveness now. */
    public RelayHealth.Report liveness() {
        config();
        Optional<OutboxRelay> relay = bootstrap.relay();
        boolean running = relay.map(OutboxRelay::isRunning).orElse(false);
        // paused on its own, or held by the fleet (pause all, or not known yet at start): it does not loop then
        boolean paused = relay.map(r -> r.isPaused() || (r.fleet() != null && r.fleet().holds())).orElse(false);
        Duration poll = relay.map(OutboxRelay::currentPollInterval).orElse(Duration.ofSeconds(1));
        return health.liveness(running, paused, poll, relay.map(OutboxRelay::publishingUntil).orElse(null));
    }

    /** The metrics collected since the application started. */
    public RelayMetrics metrics() {
        config();
        return metrics;
    }

    // --- RelayListener: to the metrics and the health --------------------------------------------

    @Override
    public void published(OutboxMessage message) {
        config();
        metrics.published(message);
        health.published(message);
    }

    @Override
    public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
        config();
        metrics.failed(message, cause, retryAfter);
        health.failed(message, cause, retryAfter);
        recentFailures.failed(message, cause, retryAfter);
    }

    @Override
    public void deadLettered(OutboxMessage message, Throwable cause) {
        config();
        metrics.deadLettered(message, cause);
        recentFailures.deadLettered(message, cause);
    }

    @Override
    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
        config();
        metrics.batchCompleted(claimed, published, failed, elapsed);
        health.batchCompleted(claimed, published, failed, elapsed);
    }

    @Override
    public void relayError(Throwable cause) {
        config();
        health.relayError(cause);
    }

    @Override
    public void loopRan(Instant at) {
        config();
        health.loopRan(at);
    }

    private static ClassLoader loader() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : OpsBootstrap.class.getClassLoader();
    }
}
