package io.eeoutbox.relay.ops;

import java.time.Duration;

/**
 * Where {@link RelayMetrics} forwards each observation: one small adapter per metrics API
 * (MicroProfile Metrics, Micrometer) implements it. Calls come on the relay's threads and must be
 * quick; {@link #close()} removes what the adapter registered, so a redeployment starts clean.
 */
public interface MetricsSink extends AutoCloseable {

    /** One message was accepted by the broker. */
    void published();

    /** One publish attempt of an event of this type failed. */
    void failed(String eventType);

    /** One event was deferred because {@code destination} (or the broker: {@link MetricNames#BROKER_DESTINATION}) could not take it. */
    void deferred(String destination);

    /** A batch went through claim, publish and complete in {@code elapsed}. */
    void batchCompleted(Duration elapsed);

    /** Removes the adapter's meters from its registry. */
    @Override
    void close();
}
