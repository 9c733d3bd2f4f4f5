package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.fleet.FleetMembership;
import io.eeoutbox.relay.store.FleetStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The fleet's reads and actions (schema V13) for {@link RelayOperations}: every relay of the outbox as the last
 * heartbeat of this relay read it, and pause all / resume all through the database, which wait for the relays'
 * acknowledgements. See docs/operations.md, "Every relay of the outbox".
 */
final class FleetActions {

    private static final Logger LOG = Logger.getLogger(RelayOperations.class.getName());
    /** Beyond two heartbeats: the batch in flight of a relay that is pausing. */
    static final Duration ACK_MARGIN = Duration.ofSeconds(5);
    private static final long ACK_POLL_MILLIS = 100;

    private final String relayName;
    private final Supplier<FleetMembership> membership;

    FleetActions(String relayName, Supplier<FleetMembership> membership) {
        this.relayName = relayName;
        this.membership = membership;
    }

    RelayOperations.FleetView view() {
        FleetMembership m = membership.get();
        FleetStore.Beat read = m == null ? null : m.lastRead();
        if (m == null || !m.member() || read == null) {
            return new RelayOperations.FleetView(m != null && m.member(), false, 0, null, null, List.of());
        }
        FleetStore.Identity self = m.identity();
        List<RelayOperations.FleetRelay> relays = new ArrayList<>();
        for (FleetStore.Member r : read.members()) {
            relays.add(new RelayOperations.FleetRelay(r, r.who().server().equals(self.server()),
                    r.who().instance().equals(self.instance())));
        }
        FleetStore.Control c = read.control();
        return new RelayOperations.FleetView(true, c.paused(), c.epoch(), c.changedBy(), c.changedAt(), relays);
    }

    /**
     * Pauses or resumes every relay of the outbox, and waits (at most two heartbeats and {@link #ACK_MARGIN}) until
     * every relay that is not missing or stopped has acknowledged: after a pause, once its batch in flight is done.
     */
    RelayOperations.FleetChange change(boolean paused, String by) throws SQLException {
        String who = java.util.Objects.requireNonNull(by, "by");
        FleetMembership m = membership.get();
        if (m == null || !m.member()) {
            throw new IllegalStateException("relay " + relayName + " is not part of a fleet (it needs schema V13 and"
                    + " the right to write outbox_relays): pause all and resume all are not available here");
        }
        FleetStore.Control c = m.store().setPaused(paused, who);
        LOG.info(() -> "fleet " + (paused ? "paused" : "resumed") + " by " + who + " through relay " + relayName
                + " (epoch " + c.epoch() + ")");
        m.beatNow(); // this relay applies it at once
        long deadline = System.nanoTime() + m.interval().multipliedBy(2).plus(ACK_MARGIN).toNanos();
        List<String> acknowledged;
        List<String> lagging;
        while (true) {
            acknowledged = new ArrayList<>();
            lagging = new ArrayList<>();
            for (FleetStore.Member r : m.store().members()) {
                if (r.seen().missing() || "stopped".equals(r.state())) {
                    continue;
                }
                (r.epochApplied() >= c.epoch() ? acknowledged : lagging).add(label(r));
            }
            if (lagging.isEmpty() || System.nanoTime() - deadline > 0) {
                break;
            }
            try {
                Thread.sleep(ACK_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        RelayOperations.FleetChange change = new RelayOperations.FleetChange(paused, c.epoch(), who, c.changedAt(),
                List.copyOf(acknowledged), List.copyOf(lagging));
        LOG.info(() -> "fleet " + (paused ? "pause" : "resume") + " (epoch " + c.epoch() + ", by " + who + ")"
                + " acknowledged by " + change.acknowledged() + (change.lagging().isEmpty() ? ""
                : "; not acknowledged in time by " + change.lagging()));
        return change;
    }

    /** How the fleet's answers name a relay: server/application/relay. */
    static String label(FleetStore.Member r) {
        return r.who().server() + "/" + r.who().application() + "/" + r.who().relayName();
    }
}
