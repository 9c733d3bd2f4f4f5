package io.eeoutbox.relay;

import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.fleet.FleetMembership;
import io.eeoutbox.relay.store.FleetStore;

/** What a relay's fleet heartbeat asks of it ({@link FleetMembership.Relay}), answered by the relay. */
final class FleetCallbacks implements FleetMembership.Relay {

    private final OutboxRelay relay;

    FleetCallbacks(OutboxRelay relay) {
        this.relay = relay;
    }

    @Override
    public String state() {
        return relay.state();
    }

    @Override
    public boolean pausedLocally() {
        return relay.isPaused();
    }

    @Override
    public FleetStore.Tally counts() {
        RelayCounters.Snapshot c = relay.counters();
        return new FleetStore.Tally(c.published(), c.failed(), c.deadLettered(), c.lastError());
    }

    @Override
    public boolean idle() {
        return relay.awaitingWakeUp(); // no drain, so nothing is being published
    }

    @Override
    public void wakeUp() {
        relay.wakeUp();
    }
}
