package io.eeoutbox.relay;

import io.eeoutbox.relay.backoff.DatabaseBackoff;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.backoff.RetryPlanner;
import io.eeoutbox.relay.cleanup.DeadLetterStrandedRows;
import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.drain.DrainLoop;
import io.eeoutbox.relay.fleet.FleetMembership;
import io.eeoutbox.relay.store.ErrorTexts;
import io.eeoutbox.relay.drain.GuardedListener;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.JdbcOutboxStore;
import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.relay.wake.CoalescingTrigger;
import io.eeoutbox.relay.wake.NotifyListener;
import io.eeoutbox.relay.wake.ScheduledPromotion;
import io.eeoutbox.relay.wake.WaiterRegistration;
import io.eeoutbox.relay.wake.WakeSchedule;
import io.eeoutbox.spi.BackoffPolicy;
import io.eeoutbox.spi.Publisher;
import io.eeoutbox.spi.RelayListener;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The relay: moves committed outbox events to a {@link Publisher}, at least once, without holding a database
 * transaction across broker calls; container-free, its steps in packages of their own. Drains ({@link DrainLoop}) run
 * on the executor one at a time, started by {@link #wakeUp()} (a local commit, a NOTIFY) and the fallback poll;
 * wake-ups during a drain coalesce into one more. A drain that claimed events is followed by another after the busy
 * poll until one finds nothing ({@link WaiterRegistration}: then producers notify); due delayed events are promoted
 * first ({@link ScheduledPromotion}). A failed drain is logged once a streak and tried again at the next poll. Step
 * by step: docs/development.md, "How the relay works inside". {@link #stop(Duration)} never half-marks a batch.
 */
public final class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());

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
    private final DeadLetterStrandedRows exhausted;
    private final NotifyListener notifyListener; // null when notify is off
    private final WaiterRegistration waiters;
    private final WakeSchedule schedule;
    private final ScheduledPromotion promotion;
    private final DatabaseBackoff databaseBackoff = new DatabaseBackoff();
    private final OrderedIndexGuard orderedIndex; // ordered mode claims nothing without its index (sql/options)
    private final FleetMembership fleet; // null without a fleet identity (a relay built in plain Java, tests)
    private final LongSupplier nanoTime;

    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean forceNext = new AtomicBoolean();
    /** Set by {@link #runNow()}: the next drain runs even while the relay waits out a broker outage. */
    private final AtomicBoolean ignoreBrokerHold = new AtomicBoolean();
    private volatile boolean stopping;
    private volatile boolean paused;
    private volatile boolean errorLogged; // an Error of the current streak of failed drains was logged
    private volatile long lastDrainEndNanos;
    private final Housekeeping housekeeping;

    OutboxRelay(RelayBuilder b) {
        this.config = Objects.requireNonNull(b.config, "config");
        this.executor = Objects.requireNonNull(b.executor, "executor");
        this.publisher = Objects.requireNonNull(b.publisher, "publisher");
        this.clock = b.clock != null ? b.clock : Clock.systemUTC();
        this.listener = GuardedListener.of(b.listener != null ? b.listener : new RelayListener() { });
        this.nanoTime = b.nanoTime != null ? b.nanoTime : System::nanoTime;
        this.store = b.store != null ? b.store : new JdbcOutboxStore(
                Objects.requireNonNull(b.dataSource, "dataSource (or store)"), config.synchronousCommit());
        BackoffPolicy backoff = b.backoff != null ? b.backoff
                : RetryPlanner.policyFor(config, () -> ThreadLocalRandom.current().nextDouble());
        this.promotion = new ScheduledPromotion(config.name(), executor, clock, nanoTime, this::wakeUp);
        this.drainLoop = DrainLoop.builder().store(store).publisher(publisher).listener(listener).backoff(backoff)
                .config(config).clock(clock).counters(counters).mayClaim(() -> !stopping && !held() && !config.cdc())
                .stopping(() -> stopping).nanoTime(nanoTime).completionExecutor(b.pipelined ? executor : null)
                .fused(true).onSession(s -> promotion.beforeDrain(s, currentPollInterval())).build();
        this.orderedIndex = new OrderedIndexGuard(store, config.name(), config.ordered() && !config.cdc(), counters, clock);
        this.exhausted = new DeadLetterStrandedRows(store, clock, config.name(), config.maxAttempts());
        this.cleaner = b.cleaner(store, clock, () -> !stopping);
        this.housekeeping = new Housekeeping(executor, config.cleanupInterval(), () -> stopping);
        this.trigger = new CoalescingTrigger(config.name(), executor, this::drainOnce);
        this.notifyListener = config.notifyEnabled() ? b.notifyListener(this::wakeUp, this::runNow) : null;
        this.waiters = new WaiterRegistration(store, config.name(),
                () -> notifyListener == null ? null : notifyListener.identity(), config.busyPollInterval(),
                this::currentPollInterval, nanoTime);
        this.schedule = new WakeSchedule(config.name(), executor, nanoTime, new ScheduleCallbacks());
        this.fleet = b.fleetMembership(new FleetCallbacks(this));
    }

    /** Starts building a relay: see {@link RelayBuilder}. */
    public static RelayBuilder builder() {
        return new RelayBuilder();
    }

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
        runOnce(exhausted::run, "the start-up look for stranded rows");
        if (notifyListener != null) {
            runOnce(waiters::deleteStale, "the start-up cleanup of registrations");
        }
        schedule.startPoll();
        housekeeping.start(() -> {
            exhausted.run();
            cleaner.runScheduled(config.retention(), config.inboxRetention());
            waiters.deleteStale();
            waiters.renewAtNextDrain();
        });
        if (fleet != null) {
            fleet.start(); // its first heartbeat wakes the relay, unless the fleet is paused
        } else {
            wakeUp();
        }
    }

    private void runOnce(Runnable task, String what) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.FINE, "relay " + config.name() + ": the executor refused " + what, e);
        }
    }

    /**
     * Stops: claims nothing new, stops listening and polling, and waits up to {@code grace} for the drain in flight
     * to complete its batch (published rows marked, unpublished released); true if no drain runs any more then.
     */
    public boolean stop(Duration grace) {
        if (!started.get() || stopping) {
            return trigger.isIdle();
        }
        stopping = true;
        schedule.cancel();
        promotion.cancel();
        housekeeping.cancel();
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
        if (fleet != null) {
            fleet.stop(Duration.ofSeconds(2));
        }
        if (idle) {
            LOG.info(() -> "relay " + config.name() + " stopped");
        } else {
            LOG.warning(() -> "relay " + config.name() + " stopped while a batch was still being published after "
                    + grace + "; its rows are completed when the publisher returns, or taken by another relay when"
                    + " their lease of " + config.lease() + " ends");
        }
        return idle;
    }

    /** Asks for a drain soon, which promotes due delayed events first; cheap, from any thread (coalesced). */
    public void wakeUp() {
        promotion.ask(); // a notification or a commit may be a delayed event due sooner than the one known
        if (isRunning() && !held()) {
            request();
        }
    }

    /** Drains now, even during the back-off after a database error or a broker outage; not while paused or stopped. */
    public void runNow() {
        if (isRunning() && !held()) {
            forceNext.set(true);
            ignoreBrokerHold.set(true);
            request();
        }
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

    /** Whether this relay was paused by {@link #pause()}; see {@link #state()} for the fleet's pause. */
    public boolean isPaused() {
        return paused;
    }

    private boolean held() {
        return paused || (fleet != null && fleet.holds());
    }

    /** Its membership of the outbox's fleet (schema V13), or null when it has none. */
    public FleetMembership fleet() {
        return fleet;
    }

    /** One of running, paused, fleet-paused, starting (the fleet's state not read yet), waiting-for-broker, stopped. */
    public String state() {
        Instant held = brokerHeldUntil();
        return !isRunning() ? "stopped" : paused ? "paused" : fleet != null && fleet.fleetPaused() ? "fleet-paused"
                : fleet != null && fleet.holds() ? "starting"
                : held != null && held.isAfter(clock.instant()) ? "waiting-for-broker" : "running";
    }

    /** Whether the NOTIFY listener is connected now. */
    public boolean isListening() {
        return notifyListener != null && notifyListener.isListening();
    }

    /** The fallback poll interval in force now (it depends on whether the NOTIFY listener is connected). */
    public Duration currentPollInterval() {
        return config.pollInterval(isListening());
    }

    /** Whether no drain runs or is asked for and no delayed look (busy poll, quiesce, broker hold) is pending. */
    boolean awaitingWakeUp() {
        // Read first: a look that has fired has already asked the trigger for its drain.
        return !schedule.followUpPending() && trigger.isIdle();
    }

    /** Whether the relay is registered as waiting for notifications (schema V8) and {@link #awaitingWakeUp()}. */
    boolean waitingForNotifications() {
        return waiters.waiting() && awaitingWakeUp();
    }

    /** When the relay stops waiting out a broker outage (shown on this server's clock), or null when it is not waiting. */
    public Instant brokerHeldUntil() {
        Duration left = drainLoop.brokerHoldLeft();
        return left == null ? null : clock.instant().plus(left);
    }

    /** The destinations held now because they cannot take messages (docs/decisions/0015-a-full-destination-is-an-outage.md). */
    public List<DestinationHolds.Held> heldDestinations() {
        return drainLoop.heldDestinations();
    }

    public RelayConfig config() {
        return config;
    }

    public Publisher publisher() {
        return publisher;
    }

    /** The store this relay claims from: for the operations service ({@code ops.RelayOperations}). */
    public OutboxStore store() {
        return store;
    }

    /** This relay's cleaner: for the operations service's purge. */
    public OutboxCleaner cleaner() {
        return cleaner;
    }

    /** Counters since start: published, failed, dead-lettered, last batch duration, last error. */
    public RelayCounters.Snapshot counters() {
        return counters.snapshot();
    }

    /** The lease end of the batch being published now, or null when none is (liveness, see RelayHealth). */
    public Instant publishingUntil() {
        Duration left = counters.publishingLeft(nanoTime.getAsLong());
        return left == null ? null : clock.instant().plus(left);
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

    private void drainOnce() {
        boolean forced = forceNext.getAndSet(false);
        boolean ignoreHold = ignoreBrokerHold.getAndSet(false);
        if (stopping || held()) {
            return;
        }
        if (!forced && databaseBackoff.waiting(nanoTime.getAsLong())) {
            return; // backing off after a database error; the poll retries
        }
        Instant at = clock.instant();
        counters.loopRan(at); // also while waiting out a broker outage: the loop is alive (liveness)
        listener.loopRan(at);
        Duration held = ignoreHold ? null : drainLoop.brokerHoldLeft();
        if (held != null) { // look again when it ends: a relay busy when the broker failed is not registered (V8)
            schedule.followUp(held.plusMillis(1));
            return;
        }
        try {
            int claimed = orderedIndex.blocked() ? 0 : drainLoop.drain(); // due delayed events first: onSession
            promotion.drained(claimed);
            Duration next = waiters.afterDrain(claimed);
            if (next != null) {
                schedule.followUp(next);
            }
            databaseBackoff.succeeded(config.name());
            errorLogged = false;
        } catch (SQLException | RuntimeException | Error e) {
            if (e instanceof Exception databaseError) {
                databaseBackoff.failed(config.name(), databaseError, nanoTime.getAsLong(), currentPollInterval());
            } else { // an Error: seen (log once a streak, health, console); its claimed rows are claimed after their lease
                LOG.log(errorLogged ? Level.FINE : Level.SEVERE, e,
                        () -> "relay " + config.name() + ": a drain failed with " + e);
                errorLogged = true;
            }
            counters.error(ErrorTexts.describe(e), clock.instant());
            listener.relayError(e);
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
        } finally {
            lastDrainEndNanos = nanoTime.getAsLong();
        }
    }

    /** What the {@link WakeSchedule} asks of this relay. */
    private final class ScheduleCallbacks implements WakeSchedule.Callbacks {
        @Override
        public Duration pollInterval() {
            return currentPollInterval();
        }

        @Override
        public long lastDrainEndNanos() {
            return lastDrainEndNanos;
        }

        @Override
        public boolean stopping() {
            return stopping;
        }

        @Override
        public void wakeUp() {
            request(); // the busy poll's looks promote nothing; a drain while paused or stopping does nothing
        }

        @Override
        public void drainSoon() {
            request();
        }

        @Override
        public void pollDue() {
            if (!held()) {
                promotion.ask();
                forceNext.set(true);
                request();
            }
        }
    }

    @Override
    public String toString() {
        return "OutboxRelay[" + config.name() + (isRunning() ? ", running" : ", stopped") + (paused ? ", paused" : "") + "]";
    }
}
