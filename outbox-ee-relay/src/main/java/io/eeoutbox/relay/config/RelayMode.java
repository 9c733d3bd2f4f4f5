package io.eeoutbox.relay.config;

/** Who moves the outbox's events to the broker: the relay, or a change data capture connector (docs/cdc.md). */
public enum RelayMode {

    /** The relay claims and publishes events (the default). */
    RELAY,

    /**
     * A CDC connector (Debezium) reads each insert from the write-ahead log: the relay never claims or publishes, and
     * needs no publisher. It still promotes delayed events as they fall due (their insert is what the connector
     * reads), deletes rows older than {@code outbox.relay.cdc.retention}, beats in the fleet and refreshes the gauges,
     * where the replication slot's lag replaces pending (docs/cdc.md, "Cleaning the table: cdc mode"; decision 0023).
     */
    CDC
}
