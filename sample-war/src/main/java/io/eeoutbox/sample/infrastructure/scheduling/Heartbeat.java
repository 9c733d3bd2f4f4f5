package io.eeoutbox.sample.infrastructure.scheduling;

import io.eeoutbox.sample.infrastructure.persistence.RelayDataSource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A periodic task on the server's managed scheduler, started with the application: the shape of
 * the outbox relay's poll loop. Each beat reads the outbox through the non-JTA relay datasource.
 */
@Startup
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Heartbeat {

    static final Duration PERIOD = Duration.ofMillis(500);
    private static final Logger LOG = Logger.getLogger(Heartbeat.class.getName());

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    private ManagedScheduledExecutorService scheduler;

    @Inject
    private RelayDataSource relay;

    private final AtomicLong beats = new AtomicLong();
    private final AtomicLong pendingOutboxEvents = new AtomicLong(-1);
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private ScheduledFuture<?> task;

    @PostConstruct
    void start() {
        task = scheduler.scheduleWithFixedDelay(this::beat, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (task != null) {
            task.cancel(false);
        }
    }

    private void beat() {
        try (Connection c = relay.getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM outbox_events WHERE processed_at IS NULL")) {
            rs.next();
            pendingOutboxEvents.set(rs.getLong(1));
            lastError.set(null);
        } catch (SQLException | RuntimeException e) {
            lastError.set(e.toString());
            LOG.log(Level.WARNING, "heartbeat could not read the outbox", e);
        } finally {
            beats.incrementAndGet();
        }
    }

    /** How many times the task has run. */
    public long beats() {
        return beats.get();
    }

    /** Pending outbox rows seen by the last successful beat, -1 before the first. */
    public long pendingOutboxEvents() {
        return pendingOutboxEvents.get();
    }

    /** The last beat's failure, or null. */
    public String lastError() {
        return lastError.get();
    }
}
