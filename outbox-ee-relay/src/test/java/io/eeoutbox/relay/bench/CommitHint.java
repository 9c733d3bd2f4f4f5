package io.eeoutbox.relay.bench;

import io.eeoutbox.OutboxCommitted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Passes OutboxService's after-commit hint to the relay in this JVM, as the EE layer's
 * {@code CommitWakeup} does in a server: no database round trip, no NOTIFY. A scenario sets the
 * target; {@code null} means no relay listens to the hint (it then stands for a relay elsewhere).
 */
@ApplicationScoped
public class CommitHint {

    private static volatile Runnable target;

    static void target(Runnable relayWakeUp) {
        target = relayWakeUp;
    }

    void onCommitted(@Observes OutboxCommitted committed) {
        Runnable t = target;
        if (t != null && committed.events() > 0) {
            t.run();
        }
    }
}
