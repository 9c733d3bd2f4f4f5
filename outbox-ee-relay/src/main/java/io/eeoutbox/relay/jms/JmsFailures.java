package io.eeoutbox.relay.jms;

/**
 * What a JMS failure says about the broker: gone (an outage: deferred, no attempt counted), a destination full (that
 * destination's outage, docs/decisions/0015-a-full-destination-is-an-outage.md), or neither (the message is refused:
 * it counts an attempt, docs/decisions/0012-a-refused-message-counts-an-attempt.md).
 */
public final class JmsFailures {

    private JmsFailures() {
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
}
