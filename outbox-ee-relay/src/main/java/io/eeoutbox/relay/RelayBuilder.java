package io.eeoutbox.relay;

import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.fleet.FleetMembership;
import io.eeoutbox.relay.store.FleetStore;
import io.eeoutbox.relay.store.OutboxInstance;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.relay.wake.NotifyListener;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import java.sql.DriverManager;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Builds a relay; {@code config}, {@code executor}, {@code publisher} (not in cdc mode) and a data source (or a store)
 * are required.
 */
public final class RelayBuilder {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName()); // the relay's own logger

    RelayConfig config;
    DataSource dataSource;
    OutboxStore store;
    ScheduledExecutorService executor;
    Clock clock;
    Publisher publisher;
    RelayListener listener;
    BackoffPolicy backoff;
    ThreadFactory threadFactory;
    NotifyListener.ConnectionSource notifyConnections;
    LongSupplier nanoTime;
    boolean pipelined = true;
    FleetStore.Identity fleetIdentity;
    private OutboxInstance outboxInstance;

    RelayBuilder() {
    }

    /**
     * Whether batch N may be completed on a second connection while batch N+1 is claimed and
     * published (default true). The completion runs on the executor; the relay then uses two
     * connections while it drains. Either way, a full batch that was published whole (with
     * pipelining: in under 2 ms, so there is nothing to overlap) is completed by the next claim's
     * own statement instead, one transaction and one commit per batch.
     */
    public RelayBuilder pipelined(boolean pipelined) {
        this.pipelined = pipelined;
        return this;
    }

    public RelayBuilder config(RelayConfig config) {
        this.config = config;
        return this;
    }

    /** A non-JTA data source whose connections autocommit. */
    public RelayBuilder dataSource(DataSource dataSource) {
        this.dataSource = dataSource;
        return this;
    }

    /** Replaces the JDBC store (tests). */
    public RelayBuilder store(OutboxStore store) {
        this.store = store;
        return this;
    }

    /** Runs drains, the poll and the cleanup; the relay never shuts it down. */
    public RelayBuilder executor(ScheduledExecutorService executor) {
        this.executor = executor;
        return this;
    }

    public RelayBuilder clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    public RelayBuilder publisher(Publisher publisher) {
        this.publisher = publisher;
        return this;
    }

    /** One listener; use {@link CompositeRelayListener} for several. */
    public RelayBuilder listener(RelayListener listener) {
        this.listener = listener;
        return this;
    }

    /** Default: exponential with the configured initial delay, factor, maximum and jitter. */
    public RelayBuilder backoff(BackoffPolicy backoff) {
        this.backoff = backoff;
        return this;
    }

    /** Makes the NOTIFY listener's long-running thread (in a server: a ManagedThreadFactory). */
    public RelayBuilder threadFactory(ThreadFactory threadFactory) {
        this.threadFactory = threadFactory;
        return this;
    }

    /**
     * Where the NOTIFY listener gets its connection. Default: {@link RelayConfig#notifyJdbcUrl()}
     * through DriverManager when set, else one connection of the data source, kept open.
     */
    public RelayBuilder notifyConnections(NotifyListener.ConnectionSource source) {
        this.notifyConnections = source;
        return this;
    }

    /**
     * Makes the relay a member of its outbox's fleet (schema V13) under this identity: it reports itself every
     * {@code outbox.relay.fleet.heartbeat-interval} and honours pause all; needs a {@link #dataSource}. Default: none.
     */
    public RelayBuilder fleet(FleetStore.Identity identity) {
        this.fleetIdentity = identity;
        return this;
    }

    /** The relay's fleet membership, or null without an identity or a data source. */
    FleetMembership fleetMembership(FleetMembership.Relay relay) {
        return fleetIdentity == null || dataSource == null ? null : new FleetMembership(new FleetStore(dataSource),
                fleetIdentity, config.get(RelaySettings.FLEET_HEARTBEAT_INTERVAL), config.get(RelaySettings.FLEET_RETENTION),
                executor, relay);
    }

    RelayBuilder nanoTime(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        return this;
    }

    /**
     * The relay's NOTIFY listener, or null when there is nowhere to connect: a notification wakes the relay
     * ({@code onNotify}), a (re)connection makes it look at once ({@code onConnected}: rows may have been committed
     * while it was not listening).
     */
    NotifyListener notifyListener(Runnable onNotify, Runnable onConnected) {
        NotifyListener.ConnectionSource source = notifySource();
        if (source == null) {
            return null;
        }
        String name = config.name();
        OutboxInstance outbox = outboxInstance();
        return new NotifyListener(name, outbox::channel, source, listenThreads(), new NotifyListener.Events() {
            @Override
            public void notified() {
                onNotify.run();
            }

            @Override
            public void connected() {
                onConnected.run();
            }

            @Override
            public void listeningChanged(boolean listening) {
                LOG.fine(() -> "relay " + name + (listening ? " listening" : " not listening"));
            }
        });
    }

    /** The outbox this relay serves (its schema's channel and maintenance key, schema V15), read once, when first needed. */
    synchronized OutboxInstance outboxInstance() {
        if (outboxInstance == null) {
            outboxInstance = new OutboxInstance(dataSource, config.name(), config.notifyChannel(),
                    RelaySettings.NOTIFY_CHANNEL.defaultValue());
        }
        return outboxInstance;
    }

    /** The relay's cleaner: it locks with its outbox's maintenance key. */
    OutboxCleaner cleaner(OutboxStore store, Clock clock, BooleanSupplier keepGoing) {
        return new OutboxCleaner(store, outboxInstance()::maintenanceLockKey, clock, config.name(),
                config.cleanupBatchSize(), keepGoing).cdcRetention(config.cdc() ? config.cdcRetention() : null);
    }

    /** Where the NOTIFY listener connects: the given source, else the configured URL, else the data source; or null. */
    NotifyListener.ConnectionSource notifySource() {
        if (notifyConnections != null) {
            return notifyConnections;
        }
        if (config.notifyJdbcUrl().isPresent()) {
            String url = config.notifyJdbcUrl().get();
            String user = config.notifyUser().orElse(null);
            String password = config.notifyPassword().orElse(null);
            return () -> DriverManager.getConnection(url, user, password);
        }
        return dataSource == null ? null : dataSource::getConnection;
    }

    /** The thread factory for the LISTEN thread: the given one, else daemon threads. */
    ThreadFactory listenThreads() {
        return threadFactory != null ? threadFactory : r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
    }

    /** In cdc mode without a publisher, {@link CdcMode#NO_PUBLISHER}: the relay publishes nothing there. */
    public OutboxRelay build() {
        if (publisher == null && config != null && config.cdc()) {
            publisher = CdcMode.NO_PUBLISHER;
        }
        return new OutboxRelay(this);
    }
}

