package io.eeoutbox;

/**
 * Fired as a synchronous CDI event after a transaction that recorded outbox events has
 * <em>committed</em> (never after a rollback). A relay in the same JVM observes it and wakes up
 * at once, without a database round trip. It is a hint: a relay that misses it still finds the
 * events by NOTIFY or by its fallback poll.
 *
 * @param events how many events the transaction recorded
 */
public record OutboxCommitted(int events) {
}
