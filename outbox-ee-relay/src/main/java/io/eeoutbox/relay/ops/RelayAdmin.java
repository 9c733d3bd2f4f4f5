package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayStats;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.UUID;

/**
 * The {@link RelayAdminMXBean} of one relay: attribute reads and operations go to the one
 * {@link RelayAdministration} service. Nothing but JDK types crosses the JMX boundary (a remote client has no driver classes),
 * so database failures become {@link IllegalStateException}s carrying the message only.
 */
public final class RelayAdmin implements RelayAdminMXBean {

    private static final Duration STATS_MAX_AGE = Duration.ofSeconds(1);

    private final OutboxRelay relay;
    private final RelayAdministration admin;
    private final Clock clock;
    private RelayStats cachedStats;
    private Instant cachedAt;

    public RelayAdmin(OutboxRelay relay, Clock clock) {
        this.relay = Objects.requireNonNull(relay, "relay");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.admin = new RelayAdministration(relay, clock);
    }

    @Override
    public String getName() {
        return relay.config().name();
    }

    @Override
    public boolean isRunning() {
        return relay.isRunning();
    }

    @Override
    public boolean isPaused() {
        return relay.isPaused();
    }

    @Override
    public boolean isListening() {
        return relay.isListening();
    }

    @Override
    public String getPublisher() {
        return relay.publisher().describe();
    }

    @Override
    public String getPollInterval() {
        return relay.currentPollInterval().toString();
    }

    @Override
    public long getPending() {
        return stats().pending();
    }

    @Override
    public long getDeadLetters() {
        return stats().dead();
    }

    @Override
    public long getOldestPendingAgeSeconds() {
        return stats().oldestPendingAge().getSeconds();
    }

    @Override
    public long getPublishedSinceStart() {
        return relay.counters().published();
    }

    @Override
    public long getFailedSinceStart() {
        return relay.counters().failed();
    }

    @Override
    public long getDeadLetteredSinceStart() {
        return relay.counters().deadLettered();
    }

    @Override
    public long getBatchesSinceStart() {
        return relay.counters().batches();
    }

    @Override
    public long getLastBatchDurationMillis() {
        Duration d = relay.counters().lastBatchDuration();
        return d == null ? -1 : d.toMillis();
    }

    @Override
    public String[] getHeldDestinations() {
        return relay.heldDestinations().stream().map(DestinationHolds.Held::describe).toArray(String[]::new);
    }

    @Override
    public String getLastError() {
        return relay.counters().lastError();
    }

    @Override
    public String getLastErrorAt() {
        return text(relay.counters().lastErrorAt());
    }

    @Override
    public String getLastLoopAt() {
        return text(relay.counters().lastLoopAt());
    }

    @Override
    public void pause() {
        admin.pause();
    }

    @Override
    public void resume() {
        admin.resume();
    }

    @Override
    public void runNow() {
        admin.runNow();
    }

    @Override
    public boolean retryDeadLetter(String eventId) {
        UUID id;
        try {
            id = UUID.fromString(required(eventId, "eventId"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("eventId must be an event's UUID, was '" + eventId + "'");
        }
        try {
            boolean retried = admin.retryDeadLetter(id);
            invalidate();
            return retried;
        } catch (SQLException e) {
            throw databaseFailed("retryDeadLetter", e);
        }
    }

    @Override
    public int retryDeadLetters(String eventType, String aggregateType, String createdFrom, String createdTo) {
        Instant from = instant(createdFrom, "createdFrom");
        Instant to = instant(createdTo, "createdTo");
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("createdFrom (" + from + ") must be before createdTo (" + to + ")");
        }
        try {
            int retried = admin.retryDeadLetters(blankToNull(eventType), blankToNull(aggregateType), from, to);
            invalidate();
            return retried;
        } catch (SQLException e) {
            throw databaseFailed("retryDeadLetters", e);
        }
    }

    @Override
    public long purgeProcessedOlderThan(int days) {
        if (days < 0) {
            throw new IllegalArgumentException("days must be 0 or more, was " + days);
        }
        try {
            return admin.purgeProcessedOlderThan(Duration.ofDays(days));
        } catch (SQLException e) {
            throw databaseFailed("purgeProcessedOlderThan", e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage()); // without a cause: plain JDK types only
        }
    }

    private synchronized RelayStats stats() {
        Instant now = clock.instant();
        if (cachedStats != null && Duration.between(cachedAt, now).compareTo(STATS_MAX_AGE) < 0) {
            return cachedStats;
        }
        try {
            cachedStats = admin.stats();
            cachedAt = now;
            return cachedStats;
        } catch (SQLException e) {
            throw databaseFailed("reading the outbox's counts", e);
        }
    }

    private synchronized void invalidate() {
        cachedStats = null;
    }

    private IllegalStateException databaseFailed(String what, SQLException e) {
        return new IllegalStateException("relay " + getName() + ": " + what + " failed, the database answered: "
                + RelayHealth.describe(e));
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String required(String s, String name) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return s.strip();
    }

    /** An ISO-8601 instant, an offset date-time, or a date (midnight UTC); blank means none. */
    static Instant instant(String text, String name) {
        String s = blankToNull(text);
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException notInstant) {
            try {
                return OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeParseException notOffset) {
                try {
                    return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
                } catch (DateTimeParseException notDate) {
                    throw new IllegalArgumentException(name + " must be an ISO-8601 instant such as 2026-03-01T12:00:00Z"
                            + " or a date such as 2026-03-01, was '" + text + "'");
                }
            }
        }
    }
}
