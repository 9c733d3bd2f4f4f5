package io.eeoutbox.spi;

import io.eeoutbox.OutboxMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Sends outbox messages to a broker. The relay calls it with batches of claimed events, outside
 * any database transaction.
 *
 * <p>Delivery is at least once: a message may be sent again after a crash between the send and
 * the relay's completion, so every message must carry {@link OutboxMessage#id()} for consumers to
 * deduplicate. Within one call the batch holds at most one event per aggregate when the relay
 * runs in ordered mode, so a publisher may send a batch's messages in any order or in parallel.
 */
public interface Publisher {

    /**
     * Sends one message. Returns normally only when the broker has accepted it (for a durable
     * broker: persisted it); throws otherwise.
     */
    void publish(OutboxMessage message) throws Exception;

    /**
     * Sends a batch and reports which messages failed. The default sends them one by one;
     * implementations override it to send a batch in one broker transaction or in parallel.
     * It must not throw for a single message's failure: that message goes into the result and the
     * rest of the batch goes on.
     */
    default PublishResult publishAll(List<OutboxMessage> batch) {
        Map<UUID, Throwable> failures = new LinkedHashMap<>();
        for (OutboxMessage message : batch) {
            try {
                publish(message);
            } catch (Exception e) {
                failures.put(message.id(), e);
            }
        }
        return PublishResult.of(failures);
    }

    /**
     * The destination {@code message} goes to, named as this publisher names it in a
     * {@link DestinationUnavailableException}, or null when it does not say (the default). While a destination
     * cannot take messages the relay hands this publisher none of its messages but one every so often, to see
     * whether it can again, and keeps sending the others; a publisher that says nothing here is held off as a whole
     * instead. Must be quick and must not throw.
     */
    default String destinationOf(OutboxMessage message) {
        return null;
    }

    /** A short name for logs and the MBean, for example {@code "jms:java:/queue/orders"}. */
    default String describe() {
        return getClass().getSimpleName();
    }
}
