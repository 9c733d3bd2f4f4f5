package io.eeoutbox.relay;

import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ordered mode and the schema option that drops its index (sql/options; docs/schema.md, "Schema options").
 *
 * <p>An outbox whose relays all run unordered may drop {@code idx_outbox_aggregate_pending}: every insert pays its entry
 * and only ordered claims read it. An ordered relay without it would still claim correctly, but every claim would read
 * the whole table, so it claims nothing instead and says why (log, last error, console) until the index is valid; it
 * looks again at every drain, a catalog lookup, and goes on by itself then. Once seen, the index is trusted for
 * {@link #RECHECK}, so a running relay pays one lookup a minute. An unordered relay looks once, at its first drain, and,
 * finding the index, says once that it could be dropped.
 */
final class OrderedIndexGuard {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());
    static final String INDEX = "idx_outbox_aggregate_pending";
    static final Duration RECHECK = Duration.ofMinutes(1);

    private final OutboxStore store;
    private final String relay;
    private final boolean ordered;
    private final RelayCounters counters;
    private final Clock clock;
    private volatile Instant readyUntil; // null: look at the catalog at the next drain
    private volatile boolean missingReported;
    private volatile boolean hinted;

    OrderedIndexGuard(OutboxStore store, String relay, boolean ordered, RelayCounters counters, Clock clock) {
        this.store = store;
        this.relay = relay;
        this.ordered = ordered;
        this.counters = counters;
        this.clock = clock;
    }

    /**
     * Whether this relay must not claim now: ordered, and the index is missing or invalid (reported to the log at the
     * first drain of a streak, fine-logged after, and as the relay's last error at each).
     *
     * @throws SQLException when the database could not be asked (the drain's database backoff handles it)
     */
    boolean blocked() throws SQLException {
        if (!ordered) {
            hintIfUnused();
            return false;
        }
        Instant now = clock.instant();
        Instant until = readyUntil;
        if (until != null && now.isBefore(until)) {
            return false;
        }
        if (store.orderedIndexReady()) {
            readyUntil = now.plus(RECHECK);
            if (missingReported) {
                missingReported = false;
                LOG.info(() -> "relay " + relay + ": ordered mode's index " + INDEX + " is there and valid: claiming again");
            }
            return false;
        }
        readyUntil = null;
        String why = "relay " + relay + " runs in ordered mode (outbox.relay.ordered=true), but outbox_events has no valid"
                + " index " + INDEX + " (dropped by sql/options/unordered-only.sql, or a CREATE INDEX CONCURRENTLY that"
                + " failed): it publishes nothing until sql/options/ordered-mode.sql is applied, and goes on by itself then";
        LOG.log(missingReported ? Level.FINE : Level.SEVERE, why);
        missingReported = true;
        counters.error(why, now);
        return true;
    }

    private void hintIfUnused() {
        if (hinted) {
            return;
        }
        hinted = true;
        try {
            if (store.orderedIndexReady()) {
                LOG.info(() -> "relay " + relay + " runs unordered; index " + INDEX + " serves ordered mode only and every"
                        + " insert pays for it. If no relay of this outbox runs ordered, sql/options/unordered-only.sql drops"
                        + " it (docs/schema.md, \"Schema options\")");
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "relay " + relay + ": could not look for " + INDEX, e);
        }
    }
}
