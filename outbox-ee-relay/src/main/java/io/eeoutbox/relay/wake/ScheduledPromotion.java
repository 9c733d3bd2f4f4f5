package io.eeoutbox.relay.wake;

import io.eeoutbox.relay.store.OutboxStore;
import io.eeoutbox.relay.store.ScheduledStatements;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delayed events (schema V14): moves scheduled rows into the outbox when they fall due. The relay holds one
 * instant, when the earliest scheduled row falls due, as the database answered it at the last promotion (a delay
 * from the database's now, so no clock skew between this server and the database matters), and a timer on the
 * relay's executor for it; nothing per row. A promotion runs in a drain, before its claim, when one was asked for:
 * at start, when that timer fires, when the relay is woken (a notification: V14's trigger wakes an idle relay for
 * a delayed write, as V8's does for any write; a commit in this JVM; an operator), at the fallback poll, and at
 * least once per poll interval while the relay is busy. Not because of the busy poll's own looks: scheduled rows
 * never make the relay look more often. A paused relay runs no drain, so it promotes nothing
 * (docs/operations.md, "Delayed events").
 *
 * <p>A failed promotion never fails the drain: it is logged once a streak and tried again at the next look. Without
 * V14 the relay says so once and tries again after {@link #NO_SCHEMA_RECHECK}.
 */
public final class ScheduledPromotion {

    private static final Logger LOG = Logger.getLogger(ScheduledPromotion.class.getName());
    /** The most rows one promotion moves; more due at once are moved by the next, at once. */
    public static final int MAX_ROWS = 1000;
    /** A row due already that this promotion did not move is being moved by another relay: look again soon. */
    static final Duration LOCKED_RECHECK = Duration.ofMillis(10);
    static final Duration NO_SCHEMA_RECHECK = Duration.ofMinutes(1);

    private final String relayName;
    private final ScheduledExecutorService executor;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final Runnable wake;
    private final AtomicBoolean asked = new AtomicBoolean(true); // the first drain promotes
    private ScheduledFuture<?> timer; // guarded by this: the one pending due time
    private volatile Instant nextDueAt; // on this server's clock, for operators; null: none known
    private volatile long lastRunNanos;
    private volatile boolean ranOnce;
    private volatile long unsupportedUntilNanos;
    private volatile boolean unsupported;
    private volatile boolean errorLogged;
    private volatile boolean stopped;

    /** @param wake asks the relay for a drain (a no-op while it is paused or stopping) */
    public ScheduledPromotion(String relayName, ScheduledExecutorService executor, Clock clock, LongSupplier nanoTime,
                              Runnable wake) {
        this.relayName = relayName;
        this.executor = executor;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.wake = wake;
    }

    /**
     * After a drain: one that claimed nothing asks for a promotion at the next look, since the look after registering
     * for notifications (V8's) must see a delayed write that did not notify, as it sees any other.
     */
    public void drained(int claimed) {
        if (claimed == 0) {
            ask();
        }
    }

    /** Asks for a promotion at the next drain: cheap, from any thread. */
    public void ask() {
        asked.set(true);
    }

    /** When the earliest scheduled row falls due (this server's clock), as of the last promotion; null when none. */
    public Instant nextDueAt() {
        return nextDueAt;
    }

    /**
     * In a drain, on its session before its first claim: promotes when asked, or when the last promotion is older
     * than {@code pollInterval}, and sets the timer to the next due time. Never throws.
     */
    public void beforeDrain(OutboxStore.Session session, Duration pollInterval) {
        long now = nanoTime.getAsLong();
        boolean wanted = asked.getAndSet(false) || !ranOnce || now - lastRunNanos >= pollInterval.toNanos();
        if (!wanted || stopped || (unsupported && now - unsupportedUntilNanos < 0)) {
            return;
        }
        lastRunNanos = now;
        ranOnce = true;
        OutboxStore.Promoted promoted;
        try {
            promoted = session.promoteDue(clock.instant(), MAX_ROWS);
        } catch (SQLException | RuntimeException e) {
            failed(e, now);
            return;
        }
        if (unsupported || errorLogged) {
            LOG.info(() -> "relay " + relayName + ": delayed events are promoted again");
        }
        unsupported = false;
        errorLogged = false;
        if (promoted.moved() > 0) {
            LOG.fine(() -> "relay " + relayName + ": " + promoted.moved() + " delayed events fell due");
        }
        setTimer(promoted);
    }

    private void failed(Exception e, long now) {
        if (e instanceof SQLException sql && ScheduledStatements.noSchemaV14(sql)) {
            unsupportedUntilNanos = now + NO_SCHEMA_RECHECK.toNanos();
            if (!unsupported) {
                LOG.info(() -> "relay " + relayName + ": the schema has no V14 (outbox_scheduled), so no delayed"
                        + " event is promoted; looking again every " + NO_SCHEMA_RECHECK + " (" + e.getMessage() + ")");
            }
            unsupported = true;
            return;
        }
        LOG.log(errorLogged ? Level.FINE : Level.WARNING, e,
                () -> "relay " + relayName + ": promoting the delayed events that fell due failed; tried again at"
                        + " the next look: " + e);
        errorLogged = true;
    }

    private synchronized void setTimer(OutboxStore.Promoted promoted) {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        Duration in = promoted.nextDueIn();
        if (in == null || stopped) {
            nextDueAt = null;
            return;
        }
        if (in.isZero() && promoted.moved() == 0) {
            in = LOCKED_RECHECK;
        }
        nextDueAt = clock.instant().plus(in);
        try {
            timer = executor.schedule(this::due, in.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            timer = null; // shutting down; the poll or the next wake-up covers it
        }
    }

    private void due() {
        asked.set(true);
        wake.run();
    }

    /** Cancels the timer: the relay is stopping. */
    public synchronized void cancel() {
        stopped = true;
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
