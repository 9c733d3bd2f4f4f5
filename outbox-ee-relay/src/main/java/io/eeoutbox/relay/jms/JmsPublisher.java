package io.eeoutbox.relay.jms;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Publishes outbox events as persistent JMS text messages.
 *
 * <p>Each message's body is the event's JSON payload; its properties, named in {@link MessageHeaders}, are
 * {@value MessageHeaders#EVENT_ID} (the consumers' deduplication key), {@value MessageHeaders#EVENT_TYPE},
 * {@value MessageHeaders#AGGREGATE_TYPE}, {@value MessageHeaders#AGGREGATE_ID},
 * {@value MessageHeaders#CREATED_AT} (ISO-8601), {@value MessageHeaders#ATTEMPT}, and, when the event was
 * written inside an OpenTelemetry span, the writer's W3C {@value MessageHeaders#TRACEPARENT} and
 * {@value MessageHeaders#TRACESTATE} (none of the two otherwise); {@code JMSType} is the
 * event type; {@code JMSXGroupID} is the aggregate id, so brokers with message groups deliver an aggregate's
 * messages to one consumer in order; and, on a message sent on its own (not in a batch transaction),
 * {@value MessageHeaders#ARTEMIS_DUPLICATE_ID} is the event id, so ActiveMQ Artemis drops a message it has
 * already stored (other brokers ignore the property).
 *
 * <h2>Transactions and duplicates</h2>
 * {@link #publishAll} sends a whole batch in <em>one broker transaction</em>, supplied by a
 * {@link BatchTransaction}: a {@link JMSContext#SESSION_TRANSACTED} context that is committed after the
 * last send ({@link BatchTransaction#sessionTransacted(ConnectionFactory)}, or
 * {@link BatchTransaction#contextPerBatch(ConnectionFactory)} inside a server whose factory is not a plain
 * client's), outside a server and inside one whose
 * connection factory gives local transactions; with a container-managed factory, which refuses them, the
 * EE layer wraps the sends in a JTA {@code UserTransaction} instead (only the JMS resource takes part in it:
 * the relay's database connection is not enlisted). Either the broker stores the whole batch or none of it,
 * and a commit whose outcome is unknown counts as failed: the batch is sent again.
 * When the batch transaction fails, the messages are sent again one by one, each in a send of its
 * own, so that one message the broker refuses fails alone and its neighbours go through. When no
 * connection can be opened, or a send fails because the connection is gone, the remaining messages
 * fail with {@link BrokerUnavailableException}: the relay then retries them without counting an
 * attempt, so a broker outage creates no dead letters. So do the messages of a send refused because the
 * destination is full (Artemis' {@code FAIL} address policy, a JMS {@code ResourceAllocationException}) or held by
 * its flow control for longer than the send bound ({@code BLOCK} policy; {@link SendWatchdog}): they fail with
 * {@link DestinationUnavailableException}, and a consumer outage creates no dead letters either.
 *
 * <p>Delivery is at least once. A message is sent again when the relay dies, or loses its database
 * connection, after the broker committed the batch and before the rows were marked; and when a
 * commit fails in a way that leaves open whether it happened, the one-by-one sends that follow may
 * repeat messages of it. Artemis removes repeats sent on their own by
 * {@value MessageHeaders#ARTEMIS_DUPLICATE_ID} (within its duplicate-id cache); a batch carries no such id,
 * since Artemis refuses a whole transaction holding one repeat. Consumers deduplicate by
 * {@value MessageHeaders#EVENT_ID} in every case (see the inbox in outbox-jpa).
 *
 * <p>Known limit, seen with ActiveMQ Artemis 2.42: a message that a broker <em>plugin</em> refuses
 * inside a transacted session is dropped while the commit still succeeds (outside a transaction the
 * same refusal fails the send). Such a refusal cannot be told apart from success here; do not refuse
 * outbox messages with broker plugins.
 *
 * <p>Thread-safe: batches are sent one at a time.
 */
public final class JmsPublisher implements Publisher, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JmsPublisher.class.getName());

    private final ConnectionFactory connectionFactory;
    private final Destination destination;
    private final String destinationName;
    private final BatchTransaction batchTransaction;
    private final SendWatchdog watchdog;

    /** How long sends may go without progress (blocked by flow control) unless given: a sixth of the default lease. */
    public static final Duration DEFAULT_SEND_BOUND = Duration.ofSeconds(10);

    /**
     * @param destinationName how logs and {@link #describe()} name the destination (its JNDI name, say)
     */
    public JmsPublisher(ConnectionFactory connectionFactory, Destination destination, String destinationName,
                        BatchTransaction batchTransaction) {
        this(connectionFactory, destination, destinationName, batchTransaction, DEFAULT_SEND_BOUND);
    }

    /**
     * @param sendBound how long sends may go without progress (a send blocked by the broker's flow control) before
     *                  the batch's unsent messages count as their destination's outage; keep it well under the
     *                  relay's lease
     */
    public JmsPublisher(ConnectionFactory connectionFactory, Destination destination, String destinationName,
                        BatchTransaction batchTransaction, Duration sendBound) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.destination = Objects.requireNonNull(destination, "destination");
        this.destinationName = destinationName != null ? destinationName : String.valueOf(destination);
        this.batchTransaction = Objects.requireNonNull(batchTransaction, "batchTransaction");
        this.watchdog = new SendWatchdog(sendBound);
    }

    /** Outside a server: batches in a {@code SESSION_TRANSACTED} context. */
    public static JmsPublisher standalone(ConnectionFactory connectionFactory, Destination destination) {
        return new JmsPublisher(connectionFactory, destination, null,
                BatchTransaction.sessionTransacted(connectionFactory));
    }

    /** Sends one message in a send of its own; returns when the broker has stored it. */
    @Override
    public void publish(OutboxMessage message) throws JMSException {
        SendWatchdog.Guard guard = watchdog.watch();
        try (JMSContext context = connectionFactory.createContext()) {
            send(context, producer(context), message, true);
        } catch (JMSException | RuntimeException e) {
            if (guard.fired()) {
                throw blocked(e);
            }
            throw e;
        } finally {
            guard.close();
        }
    }

    /**
     * Sends the batch in one broker transaction; if that fails, sends its messages one by one and
     * reports those that failed. Never throws.
     */
    @Override
    public PublishResult publishAll(List<OutboxMessage> batch) {
        if (batch.isEmpty()) {
            return PublishResult.allPublished();
        }
        if (batch.size() > 1) {
            SendWatchdog.Guard guard = watchdog.watch();
            try {
                batchTransaction.run(context -> {
                    JMSProducer producer = producer(context);
                    for (OutboxMessage m : batch) {
                        send(context, producer, m, false);
                        guard.progress();
                    }
                });
                return PublishResult.allPublished();
            } catch (Exception e) {
                if (guard.fired()) {
                    // blocked by flow control: one by one would block again; the batch was not committed
                    return allUnavailable(batch, 0, blocked(e), new LinkedHashMap<>());
                }
                if (isBrokerUnreachable(e)) {
                    // The broker is gone: sending one by one would only wait out the same timeout
                    // again, and no message of the batch is at fault.
                    return allUnavailable(batch, 0, e, new LinkedHashMap<>());
                }
                // A full destination is found out one by one too: what still fits goes (a batch may be larger than
                // the room left, or than the whole destination), and the first refusal defers the rest.
                LOG.log(Level.FINE, e, () -> "batch of " + batch.size() + " to " + destinationName
                        + " failed as a whole; sending its messages one by one");
            } finally {
                guard.close();
            }
        }
        return oneByOne(batch);
    }

    private PublishResult oneByOne(List<OutboxMessage> batch) {
        Map<UUID, Throwable> failures = new LinkedHashMap<>();
        JMSContext context;
        JMSProducer producer;
        try {
            context = connectionFactory.createContext();
        } catch (RuntimeException e) {
            // No connection at all: none of the messages can go, and none of them is at fault.
            return allUnavailable(batch, 0, e, failures);
        }
        SendWatchdog.Guard guard = watchdog.watch();
        try {
            try {
                // A context creates its session and producer lazily: the broker can go away in between, and
                // then nothing was sent (docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md).
                producer = producer(context);
            } catch (RuntimeException e) {
                return notSent(batch, e, failures);
            }
            for (int i = 0; i < batch.size(); i++) {
                OutboxMessage m = batch.get(i);
                try {
                    send(context, producer, m, true);
                    guard.progress();
                } catch (JMSException | RuntimeException e) {
                    if (guard.fired()) {
                        return allUnavailable(batch, i, blocked(e), failures);
                    }
                    if (isConnectionFailure(e) || isDestinationFull(e)) {
                        return allUnavailable(batch, i, e, failures);
                    }
                    failures.put(m.id(), e);
                }
            }
            return PublishResult.of(failures);
        } finally {
            guard.close();
            try {
                context.close();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing the JMS context failed", e);
            }
        }
    }

    /** None of the messages was sent: "broker unavailable" when the connection is gone, else each fails with it. */
    private PublishResult notSent(List<OutboxMessage> batch, RuntimeException cause, Map<UUID, Throwable> failures) {
        if (isConnectionFailure(cause) || isDestinationFull(cause)) {
            return allUnavailable(batch, 0, cause, failures);
        }
        for (OutboxMessage m : batch) {
            failures.put(m.id(), cause);
        }
        return PublishResult.of(failures);
    }

    /**
     * Messages {@code from..end} fail as "broker unavailable" (or "destination full"), which the relay does not
     * count as attempts.
     */
    private PublishResult allUnavailable(List<OutboxMessage> batch, int from, Exception cause,
                                         Map<UUID, Throwable> failures) {
        BrokerUnavailableException unavailable = isDestinationFull(cause)
                ? new DestinationUnavailableException(destinationName, "the destination " + destinationName
                        + " is full and takes no messages now (its consumers are down or behind): " + cause, cause)
                : new BrokerUnavailableException("the broker behind " + destinationName + " cannot be reached: "
                        + cause, cause);
        for (OutboxMessage m : batch.subList(from, batch.size())) {
            failures.put(m.id(), unavailable);
        }
        return PublishResult.of(failures);
    }

    /**
     * Whether a send failed because the connection to the broker is gone rather than because of the
     * message: a JMS illegal-state error (closed connection or session) or a network error anywhere
     * in the cause chain, or a broker exception whose class name says so (Artemis: "not connected",
     * "connection timed out", "unblocked" for a call cut short by a connection failure).
     */
    static boolean isConnectionFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof jakarta.jms.IllegalStateException || t instanceof jakarta.jms.IllegalStateRuntimeException) {
                return true;
            }
        }
        return isBrokerUnreachable(failure);
    }

    /**
     * The narrower test used on a failed batch: a network error or a broker "connection" exception in
     * the cause chain. A JMS illegal-state error is left out here: in a batch it may come from the
     * transaction rather than the connection, and the one-by-one pass then tells the two apart.
     */
    public static boolean isBrokerUnreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.SocketException || t instanceof java.net.UnknownHostException) {
                return true;
            }
            String name = t.getClass().getSimpleName();
            if (name.contains("NotConnected") || name.contains("ConnectionTimedOut") || name.contains("UnBlocked")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the broker refused a send because the destination is full, not because of the message: a JMS
     * {@code ResourceAllocationException} or an exception whose class name says so (Artemis'
     * {@code ActiveMQAddressFullException}, "AMQ229102: Address ... is full", under the {@code FAIL} policy).
     */
    static boolean isDestinationFull(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof jakarta.jms.ResourceAllocationException
                    || t instanceof jakarta.jms.ResourceAllocationRuntimeException
                    || t.getClass().getSimpleName().contains("AddressFull")) {
                return true;
            }
        }
        return false;
    }

    /** A send the watchdog cut short: the destination's flow control held it (decision 0015). */
    private JMSException blocked(Exception cause) {
        jakarta.jms.ResourceAllocationException e = new jakarta.jms.ResourceAllocationException("the sends to "
                + destinationName + " made no progress for " + watchdog.bound() + ": the broker's flow control holds"
                + " them (a full address under a BLOCK policy, its consumers down or behind)");
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }

    private static JMSProducer producer(JMSContext context) {
        return context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT);
    }

    /**
     * @param duplicateId whether to set {@value MessageHeaders#ARTEMIS_DUPLICATE_ID}: only on a send of its own.
     *                    Artemis refuses a whole transaction that holds a message id it already has (rows sent
     *                    again after their lease ran out), and inside JTA that refusal is a failed one-phase
     *                    commit that the transaction manager keeps as a heuristic hazard; so batches go without
     *                    it and the consumers' inbox recognises a repeat by {@value MessageHeaders#EVENT_ID}
     *                    (docs/decisions/0008-relay-batches-in-a-local-jms-transaction.md)
     */
    private void send(JMSContext context, JMSProducer producer, OutboxMessage m, boolean duplicateId) throws JMSException {
        TextMessage message = context.createTextMessage(m.payload());
        String id = m.id().toString();
        message.setJMSType(m.eventType());
        message.setStringProperty(MessageHeaders.EVENT_ID, id);
        message.setStringProperty(MessageHeaders.EVENT_TYPE, m.eventType());
        if (m.aggregateType() != null) {
            message.setStringProperty(MessageHeaders.AGGREGATE_TYPE, m.aggregateType());
        }
        if (m.aggregateId() != null) {
            message.setStringProperty(MessageHeaders.AGGREGATE_ID, m.aggregateId());
            message.setStringProperty(MessageHeaders.GROUP_ID, m.aggregateId());
        }
        if (m.createdAt() != null) {
            message.setStringProperty(MessageHeaders.CREATED_AT, m.createdAt().toString());
        }
        message.setIntProperty(MessageHeaders.ATTEMPT, m.attempt());
        if (m.trace() != null) {
            message.setStringProperty(MessageHeaders.TRACEPARENT, m.trace().traceparent());
            if (m.trace().tracestate() != null) {
                message.setStringProperty(MessageHeaders.TRACESTATE, m.trace().tracestate());
            }
        }
        if (duplicateId) {
            message.setStringProperty(MessageHeaders.ARTEMIS_DUPLICATE_ID, id);
        }
        producer.send(destination, message);
    }

    @Override
    public String destinationOf(OutboxMessage message) {
        return destinationName;
    }

    @Override
    public String describe() {
        return "jms:" + destinationName;
    }

    /** Closes what the batch transaction keeps open (a standalone connection). */
    @Override
    public void close() {
        watchdog.close();
        batchTransaction.close();
    }

    /** The work of one batch: its sends, on the context the transaction provides. */
    @FunctionalInterface
    public interface BatchWork {
        void sendAll(JMSContext context) throws JMSException;
    }

    /**
     * Wraps one batch's sends in one broker transaction: the sends are stored together when
     * {@link #run} returns, and not at all when it throws.
     */
    public interface BatchTransaction extends AutoCloseable {

        void run(BatchWork work) throws Exception;

        @Override
        default void close() {
        }

        /**
         * One {@code SESSION_TRANSACTED} context, kept open between batches (a new one after any failure) and
         * committed after each batch: outside a server, and inside one for a plain Artemis client factory.
         */
        static BatchTransaction sessionTransacted(ConnectionFactory connectionFactory) {
            return new SessionTransacted(connectionFactory, true);
        }

        /**
         * A {@code SESSION_TRANSACTED} context for each batch, created when the batch starts and closed when it ends,
         * within the executor task that runs it: for a factory whose contexts may be the server's pooled handles
         * (Open Liberty's default factory), since such a handle belongs to the unit of work that got it
         * (docs/decisions/0013-a-context-per-batch-unless-a-plain-client-factory.md).
         */
        static BatchTransaction contextPerBatch(ConnectionFactory connectionFactory) {
            return new SessionTransacted(connectionFactory, false);
        }
    }
}
