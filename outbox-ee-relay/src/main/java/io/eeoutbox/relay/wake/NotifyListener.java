package io.eeoutbox.relay.wake;

import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.ListenStatements;
import io.eeoutbox.relay.store.ListenerId;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Wakes the relay when another server commits outbox events: a dedicated PostgreSQL connection
 * LISTENs on the insert trigger's channel, on a long-running thread of its own.
 *
 * <p>Every burst of notifications read in one call becomes one wake-up (the relay coalesces
 * further). When the connection breaks (the database restarted, the network failed) the listener
 * reports that it is no longer listening, so the relay polls more often, and reconnects by itself
 * with an exponential backoff (100 ms doubling to 30 s). After every (re)connect it calls
 * {@link Events#connected()} once, so the relay catches up on whatever was committed while nobody listened
 * (the database answers again, so the relay need not wait out its error backoff).
 *
 * <p>The connection must not come from a JTA-enlisted pool and must stay open: either a dedicated
 * connection ({@code outbox.relay.notify.jdbc-url}) or one connection borrowed from the relay's non-JTA
 * data source and kept for the listener's whole life.
 */
public final class NotifyListener {

    /** Opens the connection to LISTEN on. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection connect() throws SQLException;
    }

    /** Names the channel, asked before every (re)connection: the outbox's (schema V15) or the configured one. */
    @FunctionalInterface
    public interface ChannelSource {
        String channel() throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(NotifyListener.class.getName());
    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final int WAIT_MILLIS = 500;
    private static final long PING_AFTER_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long MIN_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 30_000;

    private final String relayName;
    private final ChannelSource channels;
    private volatile String channel; // the last one listened on, or asked for
    private final ConnectionSource source;
    private final ThreadFactory threadFactory;
    private final Events events;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean listening;
    private volatile ListenerId identity; // of the LISTEN connection; null while not listening or unknown
    private Thread thread;

    /** What the listener reports, on its own thread. */
    public interface Events {
        /** A burst of notifications arrived: wake the relay. */
        void notified();

        /** The listener (re)connected: catch up on what was committed while nobody listened. */
        void connected();

        /** The listener is now listening, or no longer. */
        default void listeningChanged(boolean listening) {
        }
    }

    public NotifyListener(String relayName, ChannelSource channels, ConnectionSource source, ThreadFactory threadFactory,
                          Events events) {
        this.relayName = Objects.requireNonNull(relayName, "relayName");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.source = Objects.requireNonNull(source, "source");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.events = Objects.requireNonNull(events, "events");
    }

    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        thread = threadFactory.newThread(this::run);
        if (thread == null) {
            throw new IllegalStateException("the thread factory gave no thread for the LISTEN loop");
        }
        try {
            thread.setName("outbox-relay-listen-" + relayName);
        } catch (SecurityException ignored) {
            // a managed thread may refuse; its own name is fine
        }
        thread.start();
    }

    /** Stops listening and closes the connection; waits up to {@code timeout} for the thread to end. */
    public void stop(Duration timeout) {
        stopped.countDown();
        try {
            finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the LISTEN connection is up now. */
    public boolean isListening() {
        return listening;
    }

    /** The LISTEN connection's backend, or null while not listening (or when it could not be read). */
    public ListenerId identity() {
        return listening ? identity : null;
    }

    /** Reads the backend's name on the LISTEN connection itself (a pooler may report a pid of its own). */
    private ListenerId identify(Connection connection) {
        try {
            return ListenStatements.identity(connection).orElse(null);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "relay " + relayName + ": cannot read the LISTEN connection's backend from"
                    + " pg_stat_activity; this relay does not register for notifications (schema V8), so producers"
                    + " notify it only while another relay waits", e);
            return null;
        }
    }

    /** The channel goes into a LISTEN statement's text (no parameter can carry an identifier): checked here. */
    private static String checked(String channel) {
        if (channel == null || !CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("invalid configuration: " + RelaySettings.NOTIFY_CHANNEL.key() + "=" + channel
                    + " (allowed: a PostgreSQL identifier [a-z_][a-z0-9_]{0,62})");
        }
        return channel;
    }

    private boolean isStopped() {
        return stopped.getCount() == 0;
    }

    private void run() {
        long backoff = MIN_BACKOFF_MILLIS;
        int failures = 0;
        try {
            while (!isStopped()) {
                Connection connection = null;
                try {
                    channel = checked(channels.channel());
                    connection = source.connect();
                    connection.setAutoCommit(true);
                    PGConnection pg = connection.unwrap(PGConnection.class);
                    // Before LISTEN, so that pg_stat_activity shows LISTEN as this connection's last statement.
                    ListenerId id = identify(connection);
                    ListenStatements.listen(connection, channel);
                    identity = id;
                    setListening(true);
                    if (failures > 0) {
                        int f = failures;
                        LOG.info(() -> "relay " + relayName + ": LISTEN " + channel + " reconnected after " + f
                                + " failed attempts; catching up");
                    } else {
                        LOG.fine(() -> "relay " + relayName + ": LISTEN " + channel);
                    }
                    failures = 0;
                    backoff = MIN_BACKOFF_MILLIS;
                    events.connected();
                    listen(connection, pg);
                } catch (SQLException | RuntimeException e) {
                    if (isStopped()) {
                        break;
                    }
                    setListening(false);
                    failures++;
                    if (failures == 1) {
                        LOG.log(Level.WARNING, "relay " + relayName + ": LISTEN " + channel + " connection lost or unavailable ("
                                + e + "); reconnecting with backoff, polling meanwhile", e);
                    } else {
                        LOG.fine(() -> "relay " + relayName + ": LISTEN reconnect failed: " + e);
                    }
                } finally {
                    release(connection);
                }
                if (!isStopped()) {
                    if (stopped.await(backoff, TimeUnit.MILLISECONDS)) {
                        break;
                    }
                    backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            setListening(false);
            finished.countDown();
        }
    }

    private void listen(Connection connection, PGConnection pg) throws SQLException {
        long lastSign = System.nanoTime();
        while (!isStopped()) {
            PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
            if (notifications != null && notifications.length > 0) {
                lastSign = System.nanoTime();
                events.notified();
            } else if (System.nanoTime() - lastSign > PING_AFTER_NANOS) {
                // A silently dropped network never raises an error by itself.
                if (!connection.isValid(5)) {
                    throw new SQLException("the LISTEN connection no longer answers");
                }
                lastSign = System.nanoTime();
            }
        }
    }

    private void setListening(boolean value) {
        if (!value) {
            identity = null;
        }
        if (listening != value) {
            listening = value;
            try {
                events.listeningChanged(value);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "listening-state callback threw; ignored", e);
            }
        }
    }

    /**
     * Gives the connection back (to its pool, when it came from the data source) no longer listening:
     * UNLISTEN, then the notifications PgJDBC has already buffered are read and dropped. A pooled
     * connection still LISTENing would go on receiving (and PgJDBC buffering, without bound) every
     * notification for whoever borrows it next, or forever while it sits idle in the pool. A broken
     * connection is only closed: the pool discards it.
     */
    private void release(Connection c) {
        if (c == null) {
            return;
        }
        try {
            if (!c.isClosed()) {
                ListenStatements.unlistenAll(c);
                c.unwrap(PGConnection.class).getNotifications();
            }
        } catch (SQLException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "relay " + relayName + ": UNLISTEN before giving the connection back failed; closing it", e);
        } finally {
            closeQuietly(c); // always: a connection kept here is one the pool never gets back
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException | RuntimeException ignored) {
                // already broken
            }
        }
    }
}
