package io.eeoutbox.relay.ee;

import io.eeoutbox.OutboxCommitted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Wakes the relay in this JVM when OutboxService reports a committed transaction with events: no
 * database round trip, no NOTIFY needed. The event is fired synchronously after the commit; this
 * observer only signals the relay (coalesced) and returns at once.
 */
@ApplicationScoped
public class CommitWakeup {

    @Inject
    OutboxRelayBootstrap bootstrap;

    void onCommitted(@Observes OutboxCommitted committed) {
        if (committed.events() > 0) {
            bootstrap.wakeUp();
        }
    }
}
