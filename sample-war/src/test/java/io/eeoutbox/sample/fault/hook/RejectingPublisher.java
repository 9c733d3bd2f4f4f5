package io.eeoutbox.sample.fault.hook;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.jms.JmsPublisher;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The poison scenario's publisher: ee-outbox's own JMS publisher to the same queue, except that
 * events whose type is listed in the system property {@value #PROPERTY} (comma-separated, read at
 * every batch) fail, as a destination that refuses them would. The suite clears the property through
 * the server's management API: that is "the fix".
 */
@ApplicationScoped
public class RejectingPublisher implements Publisher {

    public static final String PROPERTY = "fault.reject-event-types";

    private ConnectionFactory connectionFactory;
    private UserTransaction transaction;
    private JmsPublisher delegate;

    /** The same resources the relay's own publisher would use, under the relay's configured names. */
    @PostConstruct
    void init() {
        String cfName = System.getProperty("outbox.relay.jms.connection-factory", "java:comp/DefaultJMSConnectionFactory");
        String destinationName = System.getProperty("outbox.relay.jms.destination", "java:app/jms/OutboxEvents");
        try {
            InitialContext jndi = new InitialContext();
            connectionFactory = (ConnectionFactory) jndi.lookup(cfName);
            transaction = (UserTransaction) jndi.lookup("java:comp/UserTransaction");
            Destination destination = (Destination) jndi.lookup(destinationName);
            delegate = new JmsPublisher(connectionFactory, destination, destinationName, this::inTransaction);
        } catch (NamingException e) {
            throw new IllegalStateException("fault suite: cannot look up the relay's JMS resources: " + e, e);
        }
    }

    /** One batch's sends in one JTA transaction, as the relay's own publisher does in a server. */
    private void inTransaction(JmsPublisher.BatchWork work) throws Exception {
        transaction.begin();
        try {
            try (JMSContext context = connectionFactory.createContext()) {
                work.sendAll(context);
            }
            transaction.commit();
        } catch (Exception | Error e) {
            int status = transaction.getStatus();
            if (status != Status.STATUS_NO_TRANSACTION && status != Status.STATUS_COMMITTED
                    && status != Status.STATUS_ROLLEDBACK) {
                transaction.rollback();
            }
            throw e;
        }
    }

    private static Set<String> rejected() {
        String value = System.getProperty(PROPERTY, "");
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
    }

    private static IllegalStateException poison(OutboxMessage m) {
        return new IllegalStateException("the destination refuses events of type " + m.eventType()
                + " (fault suite, " + PROPERTY + ")");
    }

    @Override
    public void publish(OutboxMessage message) throws Exception {
        if (rejected().contains(message.eventType())) {
            throw poison(message);
        }
        delegate.publish(message);
    }

    @Override
    public PublishResult publishAll(List<OutboxMessage> batch) {
        Set<String> rejected = rejected();
        Map<UUID, Throwable> failures = new LinkedHashMap<>();
        List<OutboxMessage> rest = new ArrayList<>();
        for (OutboxMessage m : batch) {
            if (rejected.contains(m.eventType())) {
                failures.put(m.id(), poison(m));
            } else {
                rest.add(m);
            }
        }
        if (!rest.isEmpty()) {
            failures.putAll(delegate.publishAll(rest).failures());
        }
        return PublishResult.of(failures);
    }

    @Override
    public String describe() {
        return "fault-rejecting(" + delegate.describe() + ")";
    }
}
