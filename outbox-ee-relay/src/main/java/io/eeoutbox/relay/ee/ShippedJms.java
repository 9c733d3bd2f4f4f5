package io.eeoutbox.relay.ee;

import io.eeoutbox.relay.jms.DestinationRule;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.relay.jms.LocalOrJtaBatch;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The shipped JMS publisher as the relay's start builds it: the connection factory and the {@code UserTransaction}
 * looked up at start; one destination looked up at start too (an unbound name fails the deployment), or, with
 * {@value DestinationRule#PATTERN}, each event's destination looked up the first time its name comes up, on the
 * relay's managed executor thread, where the application's {@code java:app} names resolve (a JMX or other unmanaged
 * thread could not); a name bound to nothing fails its events alone (docs/jms.md).
 */
final class ShippedJms {

    static final String USER_TRANSACTION = "java:comp/UserTransaction";

    private ShippedJms() {
    }

    /** @param lease the relay's lease: the send bound is a sixth of it (decision 0015) */
    static JmsPublisher create(InitialContext jndi, ResourceNames names, Duration lease) {
        ConnectionFactory cf = OutboxRelayBootstrap.lookup(jndi, names.jmsConnectionFactory(), ConnectionFactory.class,
                ResourceNames.JMS_CONNECTION_FACTORY.key());
        UserTransaction ut = OutboxRelayBootstrap.lookup(jndi, USER_TRANSACTION, UserTransaction.class, "(the server's UserTransaction)");
        LocalOrJtaBatch batches = new LocalOrJtaBatch(cf, names.jmsConnectionFactory(), ut);
        DestinationRule rule = names.jmsDestinations();
        if (rule.isFixed()) {
            Destination destination = OutboxRelayBootstrap.lookup(jndi, names.jmsDestination(), Destination.class,
                    ResourceNames.JMS_DESTINATION.key());
            return new JmsPublisher(cf, destination, names.jmsDestination(), batches, lease.dividedBy(6));
        }
        return new JmsPublisher(cf, rule, ShippedJms::lookup, batches, lease.dividedBy(6));
    }

    /** What the start checks before choosing the shipped JMS publisher: what it looks up at start. */
    static void check(InitialContext jndi, ResourceNames names) {
        if (names.jmsDestinations().isFixed()) {
            OutboxRelayBootstrap.lookup(jndi, names.jmsDestination(), Destination.class, ResourceNames.JMS_DESTINATION.key());
        }
        OutboxRelayBootstrap.lookup(jndi, names.jmsConnectionFactory(), ConnectionFactory.class, ResourceNames.JMS_CONNECTION_FACTORY.key());
        OutboxRelayBootstrap.lookup(jndi, USER_TRANSACTION, UserTransaction.class, "(the server's UserTransaction)");
    }

    /** On the sending thread: a new context there, so that the thread's own naming context applies. */
    private static Destination lookup(String name) throws NamingException {
        Object found = new InitialContext().lookup(name);
        if (!(found instanceof Destination)) {
            throw new NamingException(name + " is " + (found == null ? "null" : "a " + found.getClass().getName())
                    + ", not a " + Destination.class.getName());
        }
        return (Destination) found;
    }
}
