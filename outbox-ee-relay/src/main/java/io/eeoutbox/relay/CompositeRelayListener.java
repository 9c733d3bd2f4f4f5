package io.eeoutbox.relay;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.RelayListener;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Calls several listeners in turn; one that throws is logged and does not stop the others or the relay. */
public final class CompositeRelayListener implements RelayListener {

    private static final Logger LOG = Logger.getLogger(CompositeRelayListener.class.getName());

    private final List<RelayListener> listeners;

    private CompositeRelayListener(List<RelayListener> listeners) {
        this.listeners = listeners;
    }

    public static RelayListener of(List<? extends RelayListener> listeners) {
        return new CompositeRelayListener(List.copyOf(listeners));
    }

    public static RelayListener of(RelayListener... listeners) {
        return of(List.of(listeners));
    }

    private void each(String what, Consumer<RelayListener> call) {
        for (RelayListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "relay listener " + l.getClass().getName() + "." + what + " threw; ignored");
            }
        }
    }

    @Override
    public void published(OutboxMessage message) {
        each("published", l -> l.published(message));
    }

    @Override
    public void failed(OutboxMessage message, Throwable cause, Instant retryAfter) {
        each("failed", l -> l.failed(message, cause, retryAfter));
    }

    @Override
    public void deadLettered(OutboxMessage message, Throwable cause) {
        each("deadLettered", l -> l.deadLettered(message, cause));
    }

    @Override
    public void batchCompleted(int claimed, int published, int failed, Duration elapsed) {
        each("batchCompleted", l -> l.batchCompleted(claimed, published, failed, elapsed));
    }

    @Override
    public void relayError(Throwable cause) {
        each("relayError", l -> l.relayError(cause));
    }

    @Override
    public void loopRan(Instant at) {
        each("loopRan", l -> l.loopRan(at));
    }
}
