package io.eeoutbox.sample.infrastructure.messaging;

/**
 * The application's JMS destinations, under portable {@code java:app} names. They are defined with
 * {@code @JMSDestinationDefinition} on {@link ProbeEventListener}; the physical queue names must exist
 * on Open Liberty's embedded messaging engine (server.xml), while WildFly creates them in Artemis.
 */
public final class ProbeDestinations {

    /** The queue the outbox relay publishes to, consumed by {@link ProbeEventListener}. */
    public static final String OUTBOX_EVENTS = "java:app/jms/OutboxEvents";
    /** A queue nobody consumes: tests inspect what arrived there (batches, duplicates). */
    public static final String INSPECTION = "java:app/jms/ProbeInspection";

    /** The server's default connection factory (Jakarta EE default resource). */
    public static final String CONNECTION_FACTORY = "java:comp/DefaultJMSConnectionFactory";

    private ProbeDestinations() {
    }
}
