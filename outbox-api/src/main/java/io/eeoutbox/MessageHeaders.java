package io.eeoutbox;

/**
 * The names of the message properties the relay sets on every event it publishes: the contract between
 * the relay and a consumer. A consumer reads them with this module alone, without the relay.
 *
 * <p>The message body is the event's JSON payload and {@code JMSType} is the event type. Consumers
 * deduplicate by {@link #EVENT_ID}: delivery is at least once.
 */
public final class MessageHeaders {

    /** The event id, a UUID as text: the consumers' deduplication key. Always set. */
    public static final String EVENT_ID = "outbox_event_id";

    /** The event's type, such as {@code order.created}. Always set. */
    public static final String EVENT_TYPE = "outbox_event_type";

    /** The aggregate's kind, such as {@code order}; absent when the event has none. */
    public static final String AGGREGATE_TYPE = "outbox_aggregate_type";

    /** The aggregate's id; absent when the event has none. */
    public static final String AGGREGATE_ID = "outbox_aggregate_id";

    /** When the event was written (its transaction's start), ISO-8601 text; absent when unknown. */
    public static final String CREATED_AT = "outbox_created_at";

    /** This publish attempt, an int property, 1 for the first. Always set. */
    public static final String ATTEMPT = "outbox_attempt";

    /**
     * The JMS message group ({@code JMSXGroupID}), set to the aggregate id, so brokers with message groups
     * deliver an aggregate's messages to one consumer in order.
     */
    public static final String GROUP_ID = "JMSXGroupID";

    /**
     * ActiveMQ Artemis's duplicate-detection id ({@code _AMQ_DUPL_ID}), set to the event id on a message sent
     * on its own (never on a batch), so Artemis drops a repeat it has already stored; other brokers ignore it.
     */
    public static final String ARTEMIS_DUPLICATE_ID = "_AMQ_DUPL_ID";

    /**
     * The W3C {@code traceparent} of the code that recorded the event (see {@link TraceContext}), or, when the relay
     * runs with OpenTelemetry, of the relay's PRODUCER span for the send, a child of it: the same trace either way.
     * Absent when no OpenTelemetry span was active when the event was recorded. A consumer continues the trace
     * from it.
     */
    public static final String TRACEPARENT = "traceparent";

    /** The W3C {@code tracestate} that came with {@link #TRACEPARENT}; absent when there was none. */
    public static final String TRACESTATE = "tracestate";

    private MessageHeaders() {
    }
}
