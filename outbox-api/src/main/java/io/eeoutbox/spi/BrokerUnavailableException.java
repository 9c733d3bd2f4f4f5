package io.eeoutbox.spi;

/**
 * The broker could not be reached at all: nothing is wrong with the message itself. A
 * {@link Publisher} reports it as a message's failure cause (in {@link PublishResult}) when, for
 * example, no connection to the broker can be opened.
 *
 * <p>The relay retries such messages after a short backoff <em>without counting the attempt</em>
 * towards {@code outbox.relay.max-attempts}: a broker outage of any length turns no event into a
 * dead letter, and the backlog drains by itself when the broker is back. Any other failure cause
 * counts as an attempt.
 */
public class BrokerUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public BrokerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
