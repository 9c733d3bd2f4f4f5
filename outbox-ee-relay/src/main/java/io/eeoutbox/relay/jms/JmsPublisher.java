package io.eeoutbox.relay.jms;

import io.eeoutbox.MessageHeaders;
import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.jms.Destinations.Target;
import io.eeoutbox.spi.BrokerUnavailableException;
import io.eeoutbox.spi.DestinationUnavailableException;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import java.time.Duration;
import java.util.HashMap;
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
 * <h2>Destinations</h2>
 * One destination for every event, or one per event by a {@link DestinationRule} over its aggregate type and event
 * type ({@code outbox.relay.jms.destination-pattern}), each looked up once by its name and kept ({@link Destinations}).
 * An event whose destination cannot be named or found fails alone and counts an attempt. A destination that is full
 * holds only its own events: the batch's other destinations' events are still sent (decision 0015), and
 * {@link #destinationOf} names each event's destination so that the relay holds it on its own.
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
    private final Destinations destinations;
    private final BatchTransaction batchTransaction;
    private final SendWatchdog watchdog;
    private final OneByOne oneByOne;

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
     * Every event to {@code destination}.
     *
     * @param sendBound how long sends may go without progress (a send blocked by the broker's flow control) before
     *                  the batch's unsent messages count as their destination's outage; keep it well under the
     *                  relay's lease
     */
    public JmsPublisher(ConnectionFactory connectionFactory, Destination destination, String destinationName,
                        BatchTransaction batchTransaction, Duration sendBound) {
        this(connectionFactory, DestinationRule.fixed(destinationName != null ? destinationName
                : String.valueOf(Objects.requireNonNull(destination, "destination"))),
                name -> Objects.requireNonNull(destination, "destination"), batchTransaction, sendBound);
    }

    /**
     * Each event to the destination {@code rule} names for it, found by {@code lookup} on the sending thread the
     * first time that name comes up.
     */
    public JmsPublisher(ConnectionFactory connectionFactory, DestinationRule rule, DestinationLookup lookup,
                        BatchTransaction batchTransaction, Duration sendBound) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.destinations = new Destinations(rule, lookup);
        this.batchTransaction = Objects.requireNonNull(batchTransaction, "batchTransaction");
        this.watchdog = new SendWatchdog(sendBound);
        this.oneByOne = new OneByOne(connectionFactory, watchdog);
    }

    /** Outside a server: batches in a {@code SESSION_TRANSACTED} context. */
    public static JmsPublisher standalone(ConnectionFactory connectionFactory, Destination destination) {
        return new JmsPublisher(connectionFactory, destination, null,
                BatchTransaction.sessionTransacted(connectionFactory));
    }

    /** Sends one message in a send of its own; returns when the broker has stored it. */
    @Override
    public void publish(OutboxMessage message) throws JMSException {
        Target target = destinations.target(message);
        SendWatchdog.Guard guard = watchdog.watch();
        try (JMSContext context = connectionFactory.createContext()) {
            JmsMessages.send(context, JmsMessages.producer(context), target.destination(), message, true);
        } catch (JMSException | RuntimeException e) {
            if (guard.fired()) {
                throw Outages.blocked(target.name(), watchdog.bound(), e);
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
        Map<UUID, Throwable> failures = new LinkedHashMap<>();
        List<Target> targets = destinations.route(batch, failures);
        Map<String, BrokerUnavailableException> held = new HashMap<>();
        if (targets.size() > 1) {
            SendWatchdog.Guard guard = watchdog.watch();
            String[] sending = new String[1];
            try {
                batchTransaction.run(context -> {
                    JMSProducer producer = JmsMessages.producer(context);
                    for (Target t : targets) {
                        sending[0] = t.name();
                        JmsMessages.send(context, producer, t.destination(), t.message(), false);
                        guard.progress();
                    }
                    sending[0] = null;
                });
                return PublishResult.of(failures);
            } catch (Exception e) {
                if (guard.fired() && sending[0] == null) {
                    // held at the commit: every destination of the batch may be the one (the batch was not committed)
                    return Outages.of(targets, 0, Outages.blocked(describe(), watchdog.bound(), e), failures, held);
                }
                if (guard.fired()) {
                    // blocked by flow control: that destination's messages would block again one by one; the batch
                    // was not committed, and the other destinations' messages go one by one
                    held.put(sending[0], Outages.of(sending[0], Outages.blocked(sending[0], watchdog.bound(), e)));
                } else if (JmsFailures.isBrokerUnreachable(e)) {
                    // The broker is gone: sending one by one would only wait out the same timeout
                    // again, and no message of the batch is at fault.
                    return Outages.of(targets, 0, e, failures, held);
                } else {
                    // A full destination is found out one by one too: what still fits goes (a batch may be larger
                    // than the room left, or than the whole destination), and its first refusal defers the rest of
                    // its messages.
                    LOG.log(Level.FINE, e, () -> "batch of " + targets.size() + " to " + destinations.rule()
                            + " failed as a whole; sending its messages one by one");
                }
            } finally {
                guard.close(); // clears the watchdog's interrupt before the one-by-one pass
            }
        }
        oneByOne.send(targets, failures, held);
        return PublishResult.of(failures);
    }

    /** The JNDI name of the message's destination, or null when the rule names none for it (it then fails alone). */
    @Override
    public String destinationOf(OutboxMessage message) {
        return destinations.nameOf(message);
    }

    @Override
    public String describe() {
        return "jms:" + destinations.rule();
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
