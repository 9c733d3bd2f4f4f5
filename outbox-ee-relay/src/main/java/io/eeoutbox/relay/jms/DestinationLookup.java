package io.eeoutbox.relay.jms;

import jakarta.jms.Destination;

/**
 * Finds the destination bound at a name: a JNDI lookup in a server. The publisher calls it on the thread that sends
 * a batch (in a server, the relay's managed executor's, where {@code java:app} names resolve), once per name it
 * resolves: a destination found is kept for the publisher's life.
 */
@FunctionalInterface
public interface DestinationLookup {

    /** The destination at {@code name}; throws when nothing usable is bound there. */
    Destination lookup(String name) throws Exception;
}
