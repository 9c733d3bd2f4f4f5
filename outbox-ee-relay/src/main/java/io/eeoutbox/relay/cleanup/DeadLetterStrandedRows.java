package io.eeoutbox.relay.cleanup;

import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns stranded rows into dead letters. A claim takes only rows with {@code attempts < max-attempts}, and a row
 * becomes a dead letter only when a failure reaches the limit. After {@code outbox.relay.max-attempts} was lowered (or
 * while relays run with different values) rows at or over the new limit would be neither claimed nor dead
 * letters: pending forever, invisible to the dead-letter view and to retries, and in ordered mode blocking
 * their aggregate. At start and at every cleanup interval this makes them dead letters (visible, retryable).
 * With relays of different values, the lowest one decides.
 */
public final class DeadLetterStrandedRows {

    private static final Logger LOG = Logger.getLogger(DeadLetterStrandedRows.class.getName());

    private final OutboxStore store;
    private final Clock clock;
    private final String relayName;
    private final int maxAttempts;
    private boolean failing;

    public DeadLetterStrandedRows(OutboxStore store, Clock clock, String relayName, int maxAttempts) {
        this.store = store;
        this.clock = clock;
        this.relayName = relayName;
        this.maxAttempts = maxAttempts;
    }

    /** Never throws; logs a failure once until it works again. */
    public synchronized void run() {
        try {
            int dead = store.deadLetterExhausted(maxAttempts, clock.instant());
            failing = false;
            if (dead > 0) {
                LOG.warning(() -> "relay " + relayName + ": " + dead + " pending events had already used "
                        + RelaySettings.MAX_ATTEMPTS.key() + "=" + maxAttempts + " attempts or more and are dead letters now"
                        + " (see outbox_dead_letters; retry them once the cause is fixed)");
            }
        } catch (SQLException | RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, e, () -> "relay " + relayName + ": the look for stranded rows failed"
                        + " (schema V9 applied?); retried at the next cleanup: " + e);
            }
        }
    }
}
