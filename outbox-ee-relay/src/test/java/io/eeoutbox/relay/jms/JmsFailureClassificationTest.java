package io.eeoutbox.relay.jms;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import org.junit.jupiter.api.Test;

/**
 * Which failures the JMS publisher reports as "broker unavailable" (deferred, not counted as an
 * attempt) and which as the message's own failure. The Artemis exceptions are stood in for by
 * classes of the same simple name: the publisher recognises them by name, so that it needs no
 * Artemis classes at run time.
 */
class JmsFailureClassificationTest {

    /** As Artemis names it: a blocking call cut short because the connection failed. */
    static final class ActiveMQUnBlockedException extends Exception {
        ActiveMQUnBlockedException() {
            super("AMQ219016: Connection failure detected. Unblocking a blocking call that will never get a response");
        }
    }

    static final class ActiveMQConnectionTimedOutException extends Exception {
        ActiveMQConnectionTimedOutException() {
            super("AMQ219014: Timed out after waiting 5000 ms for response when sending packet 71");
        }
    }

    private static RuntimeException wrapped(Exception cause) {
        JMSException jms = new JMSException(cause.getMessage());
        jms.initCause(cause);
        return new JMSRuntimeException(cause.getMessage(), null, jms);
    }

    @Test
    void aCallCutShortOrTimedOutByTheConnectionIsTheBrokerNotTheMessage() {
        assertThat(JmsFailures.isBrokerUnreachable(wrapped(new ActiveMQUnBlockedException()))).isTrue();
        assertThat(JmsFailures.isBrokerUnreachable(wrapped(new ActiveMQConnectionTimedOutException()))).isTrue();
        assertThat(JmsFailures.isBrokerUnreachable(wrapped(new java.net.ConnectException("refused")))).isTrue();
        assertThat(JmsFailures.isConnectionFailure(wrapped(new ActiveMQUnBlockedException()))).isTrue();
    }

    @Test
    void aClosedSessionCountsForOneMessageButDoesNotCondemnAWholeBatch() {
        RuntimeException closed = new jakarta.jms.IllegalStateRuntimeException("Session is closed");
        assertThat(JmsFailures.isConnectionFailure(closed)).isTrue();
        assertThat(JmsFailures.isBrokerUnreachable(closed)).isFalse();
    }

    /** As Artemis names it: a send refused under the FAIL address policy. */
    static final class ActiveMQAddressFullException extends Exception {
        ActiveMQAddressFullException() {
            super("AMQ229102: Address \"outbox.events\" is full.");
        }
    }

    @Test
    void aFullDestinationIsAnOutageNotTheMessagesFault() {
        assertThat(JmsFailures.isDestinationFull(wrapped(new ActiveMQAddressFullException()))).isTrue();
        assertThat(JmsFailures.isDestinationFull(new jakarta.jms.ResourceAllocationRuntimeException("queue full")))
                .isTrue();
        assertThat(JmsFailures.isDestinationFull(wrapped(new IllegalArgumentException("AMQ229204: message too large"))))
                .isFalse();
    }

    @Test
    void aRefusedMessageIsTheMessagesOwnFailure() {
        RuntimeException refused = wrapped(new IllegalArgumentException("AMQ229204: message too large"));
        assertThat(JmsFailures.isConnectionFailure(refused)).isFalse();
        assertThat(JmsFailures.isBrokerUnreachable(refused)).isFalse();
    }
}
