package io.eeoutbox.relay;

/**
 * For tests outside this package (the benchmark): the relay's package-private states that say it has
 * settled, so that a test can wait for them instead of sleeping.
 */
public final class RelayStates {

    private RelayStates() {
    }

    /** {@link OutboxRelay#awaitingWakeUp()}: no drain running or asked for, and no delayed look pending. */
    public static boolean awaitingWakeUp(OutboxRelay relay) {
        return relay.awaitingWakeUp();
    }

    /** {@link OutboxRelay#waitingForNotifications()}: idle and registered as waiting for NOTIFY (schema V8). */
    public static boolean waitingForNotifications(OutboxRelay relay) {
        return relay.waitingForNotifications();
    }
}
