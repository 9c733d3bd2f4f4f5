package io.eeoutbox.relay;

import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The relay: moves committed outbox events to a {@link Publisher}, at least once, without holding a
 * database transaction across broker calls. Independent of any container: it takes a data source,
 * a scheduled executor, a clock and a publisher; the EE layer only wires it up.
 *
 * <p>Work is done in <em>drains</em> ({@link DrainLoop}) run on the executor, one at a time. A drain
 * starts on {@link #wakeUp()} (after a local commit, on a NOTIFY from another server) and on the
 * fallback poll; wake-ups that arrive while a drain is pending or running coalesce into at most one
 * more drain. A drain that claimed events is followed by another after the busy-poll interval, and so
 * on until one finds nothing, so a steady stream of events does not wait on notifications (which
 * PostgreSQL and PgJDBC deliver in bunches under load); with schema V8 a busy relay also tells
 * producers that they need not notify it ({@link WaiterRegistration}). When the database fails, the failure is logged once per streak, reported to the
 * listener, and the relay tries again at the next poll, by itself, until the database is back.
 *
 * <p>{@link #stop(Duration)} claims nothing new; the batch in flight is completed (its published rows
 * marked, its unpublished rows released), never half-marked.
 */
public final class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());
    private static final long POLL_TOLERANCE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final RelayConfig config;
    private final OutboxStore store;
    private final ScheduledExecutorService executor;
    private final Clock clock;
    private final Publisher publisher;
    private final RelayListener listener;
    private final RelayCounters counters = new RelayCounters();
    private final CoalescingTrigger trigger;
    private final DrainLoop drainLoop;
    private final OutboxCleaner cleaner;
    private final ExhaustedRows exhausted;
    private final NotifyListener notifyListener; // null when notify is off
    private final WaiterRegistration waiters;
    private final LongSupplier nanoTime;

    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean forceNext = new AtomicBoolean();
    /** Set by {@link #runNow()}: the next drain runs even while the relay waits out a broker outage. */
    private final AtomicBoolean ignoreBrokerHold = new AtomicBoolean();
    private final AtomicInteger errorStreak = new AtomicInteger();
    private volatile boolean stopping;
    private volatile boolean paused;
    private volatile long lastDrainEndNanos;
    private volatile long errorRetryAtNanos;
    private ScheduledFuture<?> followUp; // guarded by this: the one pending delayed look
    private long followUpDueNanos; // guarded by this
    private ScheduledFuture<?> pollFuture;
    private ScheduledFuture<?> cleanupFuture;

    private OutboxRelay(Builder b) {
        this.config = Objects.requireNonNull(b.config, "config");
        this.executor = Objects.requireNonNull(b.executor, "executor");
        this.publisher = Objects.requireNonNull(b.publisher, "publisher");
        this.clock = b.clock != null ? b.clock : Clock.systemUTC();
        this.listener = b.listener != null ? b.listener : new RelayListener() { };
        this.nanoTime = b.nanoTime != null ? b.nanoTime : System::nanoTime;
        if (b.store != null) {
            this.store = b.store;
        } else {
            this.store = new JdbcOutboxStore(Objects.requireNonNull(b.dataSource, "dataSource (or store)"),
                    config.synchronousCommit());
        }
        BackoffPolicy backoff = b.backoff != null ? b.backoff
                : BackoffPolicy.exponential(config.backoffInitial(), config.backoffFactor(), config.backoffMax(),
                        config.backoffJitter(), () -> ThreadLocalRandom.current().nextDouble());
        this.drainLoop = new DrainLoop(store, publisher, listener, backoff, config, clock, counters,
                () -> !stopping && !paused, () -> stopping, nanoTime, b.pipelined ? executor : null, true);
        this.exhausted = new ExhaustedRows(store, clock, config.name(), config.maxAttempts());
        this.cleaner = new OutboxCleaner(store, clock, config.name(), config.cleanupBatchSize(), () -> !stopping);
        this.trigger = new CoalescingTrigger(executor, this::drainOnce);
        if (config.notifyEnabled()) {
            NotifyListener.ConnectionSource source = b.notifyConnections;
            if (source == null) {
                source = defaultNotifySource(config, b.dataSource);
            }
            ThreadFactory threads = b.threadFactory != null ? b.threadFactory : r -> {
                Thread t = new Thread(r);
                t.setDaemon(true);
                return t;
            };
            this.notifyListener = source == null ? null
                    : new NotifyListener(config.name(), config.notifyChannel(), source, threads, this::wakeUp, this::runNow,
                            listening -> LOG.fine(() -> "relay " + config.name() + (listening ? " listening" : " not listening")));
        } else {
            this.notifyListener = null;
        }
        this.waiters = new WaiterRegistration(store, config.name(),
                () -> notifyListener == null ? null : notifyListener.identity(), config.busyPollInterval(), nanoTime);
    }

    private static NotifyListener.ConnectionSource defaultNotifySource(RelayConfig config, DataSource dataSource) {
        if (config.notifyJdbcUrl().isPresent()) {
            String url = config.notifyJdbcUrl().get();
            String user = config.notifyUser().orElse(null);
            String password = config.notifyPassword().orElse(null);
            return () -> DriverManager.getConnection(url, user, password);
        }
        return dataSource == null ? null : dataSource::getConnection;
    }

    public static Builder builder() {
        return new Builder();
    }

    // --- lifecycle ---------------------------------------------------------------------------

    /** Starts the NOTIFY listener, the fallback poll and the cleanup, and drains once at once. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("relay " + config.name() + " was already started");
        }
        LOG.info(() -> "relay " + config.name() + " starting: publisher=" + publisher.describe() + ", " + config);
        if (notifyListener != null) {
            notifyListener.start();
        } else if (config.notifyEnabled()) {
            LOG.warning(() -> "relay " + config.name() + ": NOTIFY is enabled but no connection source is available; polling only");
        }
        lastDrainEndNanos = nanoTime.getAsLong();
        try {
            executor.execute(exhausted::run);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "relay " + config.name() + ": the executor refused the start-up look for stranded rows", e);
        }
        if (notifyListener != null) {
            try {
                executor.execute(waiters::deleteStale);
            } catch (RejectedExecutionException e) {
                LOG.log(Level.FINE, "relay " + config.name() + ": the executor refused the start-up cleanup of registrations", e);
            }
        }
        schedulePoll(config.pollInterval(isListening()));
        long cleanupMillis = config.cleanupInterval().toMillis();
        long initialCleanup = Math.min(cleanupMillis, TimeUnit.MINUTES.toMillis(1));
        synchronized (this) {
            cleanupFuture = executor.scheduleWithFixedDelay(() -> {
                if (!stopping) {
                    exhausted.run();
                    cleaner.runScheduled(config.retention(), config.inboxRetention());
                    waiters.deleteStale();
                    waiters.renewAtNextDrain();
                }
            }, initialCleanup, cleanupMillis, TimeUnit.MILLISECONDS);
        }
        wakeUp();
    }

    /**
     * Stops: claims nothing new, stops listening and polling, and waits up to {@code grace} for the
     * drain in flight to complete its batch (published rows marked, unpublished rows released).
     *
     * @return true if no drain was running any more when this returned
     */
    public boolean stop(Duration grace) {
        if (!started.get() || stopping) {
            return trigger.isIdle();
        }
        stopping = true;
        synchronized (this) {
            if (pollFuture != null) {
                pollFuture.cancel(false);
            }
            if (followUp != null) {
                followUp.cancel(false);
            }
            if (cleanupFuture != null) {
                cleanupFuture.cancel(false);
            }
        }
        if (notifyListener != null) {
            notifyListener.stop(Duration.ofSeconds(2));
        }
        boolean idle;
        try {
            idle = trigger.awaitIdle(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            idle = trigger.isIdle();
        }
        waiters.close();
        if (idle) {
            LOG.info(() -> "relay " + config.name() + " stopped");
        } else {
            LOG.warning(() -> "relay " + config.name() + " stopped while a batch was still being published after "
                    + grace + "; its rows are completed when the publisher returns, or taken by another relay when"
                    + " their lease of " + config.lease() + " ends");
        }
        return idle;
    }

    /**
     * Asks for a drain soon. Cheap and safe to call from any thread, as often as wanted: calls while a
     * drain is pending or running add at most one more drain.
     */
    public void wakeUp() {
        if (!isRunning() || paused) {
            return;
        }
        request();
    }

    /**
     * Drains now, even during the back-off after a database error or a broker outage. Does nothing
     * while paused or stopped.
     */
    public void runNow() {
        if (!isRunning() || paused) {
            return;
        }
        forceNext.set(true);
        ignoreBrokerHold.set(true);
        request();
    }

    /** Claims no new batches until {@link #resume()}; the batch in flight completes. */
    public void pause() {
        paused = true;
        LOG.info(() -> "relay " + config.name() + " paused");
    }

    public void resume() {
        paused = false;
        LOG.info(() -> "relay " + config.name() + " resumed");
        wakeUp();
    }

    public boolean isRunning() {
        return started.get() && !stopping;
    }

    public boolean isPaused() {
        return paused;
    }

    /** Whether the NOTIFY listener is connected now. */
    public boolean isListening() {
        return notifyListener != null && notifyListener.isListening();
    }

    /** The fallback poll interval in force now (it depends on whether the NOTIFY listener is connected). */
    public Duration currentPollInterval() {
        return config.pollInterval(isListening());
    }

    /**
     * Whether no drain is running or asked for and no delayed look (busy poll, a retried quiesce, the
     * end of a broker hold) is pending: only a wake-up or the fallback poll starts the next drain.
     */
    boolean awaitingWakeUp() {
        synchronized (this) {
            // Read first: a look that has fired has already asked the trigger for its drain.
            if (followUp != null && !followUp.isDone()) {
                return false;
            }
        }
        return trigger.isIdle();
    }

    /**
     * Whether the relay is registered as waiting for notifications (schema V8), has made its last look
     * and has none pending: only a notification, an in-JVM wake-up or the fallback poll starts its next
     * drain.
     */
    boolean waitingForNotifications() {
        return waiters.waiting() && awaitingWakeUp();
    }

    public RelayConfig config() {
        return config;
    }

    public Publisher publisher() {
        return publisher;
    }

    private void request() {
        try {
            trigger.request();
        } catch (RejectedExecutionException e) {
            if (!stopping) {
                LOG.log(Level.FINE, "relay " + config.name() + ": the executor refused a drain", e);
            }
        }
    }

    // --- the drain and the poll --------------------------------------------------------------

    private void drainOnce() {
        boolean forced = forceNext.getAndSet(false);
        boolean ignoreHold = ignoreBrokerHold.getAndSet(false);
        if (stopping || paused) {
            return;
        }
        if (!forced && errorStreak.get() > 0 && nanoTime.getAsLong() - errorRetryAtNanos < 0) {
            return; // backing off after a database error; the poll retries
        }
        Instant at = clock.instant();
        counters.loopRan(at); // also while waiting out a broker outage: the loop is alive (liveness)
        listener.loopRan(at);
        if (!ignoreHold && drainLoop.holdsForBroker(at)) {
            // Look again when the hold ends: a relay that was busy when the broker failed is not
            // registered for notifications (V8), so none would wake it then.
            Instant until = drainLoop.brokerHoldUntil();
            if (until != null) {
                scheduleFollowUp(Duration.between(at, until).plusMillis(1));
            }
            return; // the broker was unreachable; the poll or a wake-up after the deferral's end tries again
        }
        try {
            int claimed = drainLoop.drain();
            Duration next = waiters.afterDrain(claimed);
            if (next != null) {
                scheduleFollowUp(next);
            }
            int failures = errorStreak.getAndSet(0);
            if (failures > 0) {
                LOG.info(() -> "relay " + config.name() + ": the database answers again after " + failures + " failed attempts");
            }
        } catch (SQLException | RuntimeException e) {
            int failures = errorStreak.incrementAndGet();
            errorRetryAtNanos = nanoTime.getAsLong() + currentPollInterval().toNanos();
            counters.error(ErrorTexts.describe(e), clock.instant());
            if (failures == 1) {
                LOG.log(Level.WARNING, "relay " + config.name() + ": database error, retrying every "
                        + currentPollInterval() + " until it works again: " + e, e);
            } else {
                LOG.fine(() -> "relay " + config.name() + ": database error again (" + failures + "): " + e);
            }
            listener.relayError(e);
        } finally {
            lastDrainEndNanos = nanoTime.getAsLong();
        }
    }

    /**
     * Looks again after {@code delay} (see {@link RelayConfig#busyPollInterval()} and
     * {@link WaiterRegistration}); at most one delayed look is pending, the earliest asked for.
     */
    private void scheduleFollowUp(Duration delay) {
        if (stopping) {
            return;
        }
        if (delay.isZero() || delay.isNegative()) {
            request();
            return;
        }
        long delayNanos = delay.toNanos();
        long due = System.nanoTime() + delayNanos;
        synchronized (this) {
            if (followUp != null && !followUp.isDone() && followUpDueNanos - due <= 0) {
                return; // an earlier look is already scheduled
            }
            if (followUp != null) {
                followUp.cancel(false);
            }
            followUpDueNanos = due;
            try {
                followUp = executor.schedule(this::wakeUp, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                followUp = null; // shutting down; the poll or the next wake-up covers it
            }
        }
    }

    private void schedulePoll(Duration delay) {
        synchronized (this) {
            if (stopping) {
                return;
            }
            try {
                pollFuture = executor.schedule(this::pollTick, Math.max(1, delay.toNanos()), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                if (!stopping) {
                    LOG.log(Level.WARNING, "relay " + config.name() + ": the executor refused the poll; the relay stops polling", e);
                }
            }
        }
    }

    /**
     * The fallback poll: drains when no drain has ended for a whole poll interval, so an idle relay
     * sends one claim per interval and a busy one none extra.
     */
    private void pollTick() {
        if (stopping) {
            return;
        }
        Duration interval = currentPollInterval();
        long sinceLast = nanoTime.getAsLong() - lastDrainEndNanos;
        long remaining = interval.toNanos() - sinceLast;
        if (remaining <= POLL_TOLERANCE_NANOS) {
            if (!paused) {
                forceNext.set(true);
                request();
            }
            schedulePoll(interval);
        } else {
            schedulePoll(Duration.ofNanos(remaining));
        }
    }

    // --- administration ------------------------------------------------------------------------

    /** Makes one dead letter due again with a fresh retry budget; false when {@code id} is no dead letter. */
    public boolean retryDeadLetter(UUID id) throws SQLException {
        boolean retried = store.retryDeadLetter(Objects.requireNonNull(id, "id"));
        if (retried) {
            LOG.info(() -> "relay " + config.name() + ": dead letter event_id=" + id + " retried on request");
            wakeUp();
        }
        return retried;
    }

    /**
     * Makes every dead letter matching all given filters due again (a null filter matches all;
     * {@code createdFrom} inclusive, {@code createdTo} exclusive).
     */
    public int retryDeadLetters(String eventType, String aggregateType, Instant createdFrom, Instant createdTo)
            throws SQLException {
        int retried = store.retryDeadLetters(eventType, aggregateType, createdFrom, createdTo);
        LOG.info(() -> "relay " + config.name() + ": " + retried + " dead letters retried on request (event_type="
                + eventType + " aggregate_type=" + aggregateType + " from=" + createdFrom + " to=" + createdTo + ")");
        if (retried > 0) {
            wakeUp();
        }
        return retried;
    }

    /**
     * Deletes published rows processed more than {@code age} ago, now, in bounded batches.
     *
     * @return how many rows were deleted
     * @throws IllegalStateException when another relay holds the maintenance lock (it is cleaning now)
     */
    public long purgeProcessedOlderThan(Duration age) throws SQLException {
        if (Objects.requireNonNull(age, "age").isNegative()) {
            throw new IllegalArgumentException("age must not be negative, was " + age);
        }
        OutboxCleaner.Result r = cleaner.clean(age);
        if (r.lockedElsewhere() && r.deleted() == 0) {
            throw new IllegalStateException("another relay holds the outbox maintenance lock; try again later");
        }
        LOG.info(() -> "relay " + config.name() + ": purged " + r.deleted() + " published rows older than " + age);
        return r.deleted();
    }

    /** Runs the scheduled cleanup now (with the configured retention); logs instead of throwing. */
    public void cleanUpNow() {
        cleaner.runScheduled(config.retention(), config.inboxRetention());
    }

    /** Pending rows, dead letters and how long the oldest pending row has waited. */
    public RelayStats stats() throws SQLException {
        OutboxStore.Stats s = store.stats();
        Duration age = s.oldestPendingCreatedAt() == null ? Duration.ZERO
                : Duration.between(s.oldestPendingCreatedAt(), clock.instant());
        return new RelayStats(s.pending(), s.dead(), age.isNegative() ? Duration.ZERO : age);
    }

    /** Counters since start: published, failed, dead-lettered, last batch duration, last error. */
    public RelayCounters.Snapshot counters() {
        return counters.snapshot();
    }

    @Override
    public String toString() {
        return "OutboxRelay[" + config.name() + (isRunning() ? ", running" : ", stopped") + (paused ? ", paused" : "") + "]";
    }

    /** Builds a relay; {@code config}, {@code executor}, {@code publisher} and a data source (or a store) are required. */
    public static final class Builder {
        private RelayConfig config;
        private DataSource dataSource;
        private OutboxStore store;
        private ScheduledExecutorService executor;
        private Clock clock;
        private Publisher publisher;
        private RelayListener listener;
        private BackoffPolicy backoff;
        private ThreadFactory threadFactory;
        private NotifyListener.ConnectionSource notifyConnections;
        private LongSupplier nanoTime;
        private boolean pipelined = true;

        private Builder() {
        }

        /**
         * Whether batch N may be completed on a second connection while batch N+1 is claimed and
         * published (default true). The completion runs on the executor; the relay then uses two
         * connections while it drains. Either way, a full batch that was published whole (with
         * pipelining: in under 2 ms, so there is nothing to overlap) is completed by the next claim's
         * own statement instead, one transaction and one commit per batch.
         */
        public Builder pipelined(boolean pipelined) {
            this.pipelined = pipelined;
            return this;
        }

        public Builder config(RelayConfig config) {
            this.config = config;
            return this;
        }

        /** A non-JTA data source whose connections autocommit. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        /** Replaces the JDBC store (tests). */
        public Builder store(OutboxStore store) {
            this.store = store;
            return this;
        }

        /** Runs drains, the poll and the cleanup; the relay never shuts it down. */
        public Builder executor(ScheduledExecutorService executor) {
            this.executor = executor;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Builder publisher(Publisher publisher) {
            this.publisher = publisher;
            return this;
        }

        /** One listener; use {@link CompositeRelayListener} for several. */
        public Builder listener(RelayListener listener) {
            this.listener = listener;
            return this;
        }

        /** Default: exponential with the configured initial delay, factor, maximum and jitter. */
        public Builder backoff(BackoffPolicy backoff) {
            this.backoff = backoff;
            return this;
        }

        /** Makes the NOTIFY listener's long-running thread (in a server: a ManagedThreadFactory). */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        /**
         * Where the NOTIFY listener gets its connection. Default: {@link RelayConfig#notifyJdbcUrl()}
         * through DriverManager when set, else one connection of the data source, kept open.
         */
        public Builder notifyConnections(NotifyListener.ConnectionSource source) {
            this.notifyConnections = source;
            return this;
        }

        Builder nanoTime(LongSupplier nanoTime) {
            this.nanoTime = nanoTime;
            return this;
        }

        public OutboxRelay build() {
            return new OutboxRelay(this);
        }
    }
}
