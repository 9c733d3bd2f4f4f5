package io.eeoutbox.relay.drain;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.RelayListener;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Calls one or several listeners in turn; each may throw without stopping the others or costing a row its
 * completion. A listener (a metrics
 * sink, a test latch) runs between the publish and the statement that marks the rows: an exception or an
 * {@link Error} escaping it there would end the drain with the rows published but still leased, to be published
 * again at every lease. What a listener throws is logged (the first time at WARNING, then at FINE) and dropped; only
 * an out-of-memory or internal JVM error is left to go on (as in {@code BatchPublisher}), after the completion.
 */
public final class GuardedListener implements RelayListener {

    private static final Logger LOG = Logger.getLogger(GuardedListener.class.getName());

    private final List<RelayListener> delegates;
    private final AtomicBoolean warned = new AtomicBoolean();

    private GuardedListener(List<RelayListener> delegates) {
        this.delegates = delegates;
    }

    public static RelayListener of(RelayListener listener) {
        Objects.requireNonNull(listener, "listener");
        return listener instanceof GuardedListener ? listener : new GuardedListener(List.of(listener));
    }

    /** Several listeners, called in the order given. */
    public static RelayListener of(List<? extends RelayListener> listeners) {
        return new GuardedListener(List.copyOf(listeners));
    }

    private void call(String what, Consumer<RelayListener> call) {
        VirtualMachineError fatal = null;
        for (RelayListener l : delegates) {
            try {
                call.accept(l);
            } catch (Throwable e) {
                if (e instanceof VirtualMachineError vm && !(e instanceof StackOverflowError)) {
                    fatal = fatal == null ? vm : fatal; // the other listeners are still called first
                    continue;
                }
                LOG.log(warned.compareAndSet(false, true) ? Level.WARNING : Level.FINE, e,
                        () -> "relay listener " + l.getClass().getName() + "." + what + " threw " + e
                                + "; ignored (the relay goes on; further such failures are logged at FINE)");
            }
        }
        if (fatal != null) {
            throw fatal;
        }
    }

    @Override
    public void published(OutboxMessage message) {
        call("published", l -> l.published(message));
    }

    @Override
    public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
        call("failed", l -> l.failed(message, cause, retryAfter));
    }

    @Override
    public void deadLettered(OutboxMessage message, Throwable cause) {
        call("deadLettered", l -> l.deadLettered(message, cause));
    }

    @Override
    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
        call("batchCompleted", l -> l.batchCompleted(claimed, published, failed, elapsed));
    }

    @Override
    public void relayError(Throwable cause) {
        call("relayError", l -> l.relayError(cause));
    }

    @Override
    public void loopRan(Instant at) {
        call("loopRan", l -> l.loopRan(at));
    }
}
