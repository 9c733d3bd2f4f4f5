package io.eeoutbox.relay;

import io.eeoutbox.relay.drain.GuardedListener;
import io.eeoutbox.spi.RelayListener;
import java.util.List;

/**
 * Several listeners as one: each is called in turn, and one that throws (an {@link Error} too) is logged and stops
 * neither the others nor the relay ({@link GuardedListener}).
 */
public final class CompositeRelayListener {

    private CompositeRelayListener() {
    }

    public static RelayListener of(List<? extends RelayListener> listeners) {
        return GuardedListener.of(listeners);
    }

    public static RelayListener of(RelayListener... listeners) {
        return of(List.of(listeners));
    }
}
