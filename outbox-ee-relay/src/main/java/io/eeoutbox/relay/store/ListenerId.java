package io.eeoutbox.relay.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A relay's LISTEN connection as PostgreSQL's {@code pg_stat_activity} names its backend: the pid and
 * the backend's start time (together unique, also when the operating system reuses a pid).
 */
public record ListenerId(int pid, Instant start) {
    public ListenerId {
        Objects.requireNonNull(start, "start");
    }
}
