package io.eeoutbox.relay.ee;

import java.util.List;
import java.util.Optional;

/**
 * Decides which publisher the relay uses: the application's one {@code Publisher} CDI bean; with
 * none, the shipped publisher {@value #PUBLISHER} names: JMS (the default) when the configured destination can be
 * looked up, or Kafka; otherwise the deployment fails with a message that says what was found.
 */
final class PublisherSelection {

    private PublisherSelection() {
    }

    /** Which shipped publisher the relay uses when the application has no Publisher bean: jms (default) or kafka. */
    static final String PUBLISHER = ResourceNames.PUBLISHER.key();

    enum Choice { APPLICATION_BEAN, SHIPPED_JMS, SHIPPED_KAFKA }

    /**
     * As {@link #choose(List, String, java.util.function.Supplier)}, for the shipped publisher {@code shipped}
     * (the value of {@value #PUBLISHER}: {@code jms} or {@code kafka}).
     */
    static Choice choose(List<String> beans, String shipped, String jmsDestination,
                         java.util.function.Supplier<Optional<String>> jmsLookupProblem) {
        if (!shipped.equals("jms") && !shipped.equals("kafka")) {
            throw new IllegalArgumentException("invalid configuration: " + PUBLISHER + "=" + shipped
                    + "; accepted: jms (the default) or kafka");
        }
        if (beans.isEmpty() && shipped.equals("kafka")) {
            return Choice.SHIPPED_KAFKA;
        }
        return choose(beans, jmsDestination, jmsLookupProblem);
    }

    /**
     * @param beans             descriptions of the active Publisher beans found
     * @param jmsDestination    the configured destination's JNDI name, or its pattern
     * @param jmsLookupProblem  empty when the destination and connection factory were looked up,
     *                          else why not (only asked for when there is no bean)
     * @throws IllegalStateException with the deployment error
     */
    static Choice choose(List<String> beans, String jmsDestination, java.util.function.Supplier<Optional<String>> jmsLookupProblem) {
        if (beans.size() == 1) {
            return Choice.APPLICATION_BEAN;
        }
        if (beans.size() > 1) {
            throw new IllegalStateException("ee-outbox relay: found " + beans.size()
                    + " active io.eeoutbox.spi.Publisher beans, expected exactly one: " + String.join(", ", beans)
                    + ". Keep one (for example with @Alternative/@Priority or @Vetoed), or turn the relay off with"
                    + " outbox.relay.enabled=false.");
        }
        Optional<String> problem = jmsLookupProblem.get();
        if (problem.isEmpty()) {
            return Choice.SHIPPED_JMS;
        }
        throw new IllegalStateException("ee-outbox relay: found no active io.eeoutbox.spi.Publisher bean, and the"
                + " shipped JMS publisher cannot be used: " + problem.get() + ". Provide exactly one CDI bean that"
                + " implements io.eeoutbox.spi.Publisher, or configure outbox.relay.jms.destination or"
                + " outbox.relay.jms.destination-pattern (now "
                + jmsDestination + ") and outbox.relay.jms.connection-factory, or turn the relay off with"
                + " outbox.relay.enabled=false.");
    }
}
