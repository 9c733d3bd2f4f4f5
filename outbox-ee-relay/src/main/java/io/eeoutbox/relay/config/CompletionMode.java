package io.eeoutbox.relay.config;

/** What the relay does with a row once its event is published. */
public enum CompletionMode {

    /** Keep the row with {@code processed_at} set; the cleanup job deletes it after the retention period. */
    MARK,

    /**
     * Delete the row at once (delete-on-publish): no processed rows are kept, which is the fastest
     * option and keeps the table small, but leaves no record of what was published.
     */
    DELETE
}
