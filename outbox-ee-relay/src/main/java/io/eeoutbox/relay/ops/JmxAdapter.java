package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.ops.OperatorInput.BadInput;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The JMX surface: {@link RelayAdminMXBean} over one {@link RelayOperations}, with nothing of its own but the
 * translation. Arguments are parsed by {@link OperatorInput}; nothing but JDK types crosses the JMX boundary (a
 * remote client has no server classes), so a bad argument becomes a plain {@link IllegalArgumentException} and a
 * database failure an {@link IllegalStateException}, each carrying the message only. Row counts are read at most
 * once a second (JMX consoles poll every attribute).
 */
public final class JmxAdapter implements RelayAdminMXBean {

    private static final Duration STATS_MAX_AGE = Duration.ofSeconds(1);

    private final RelayOperations operations;
    private final Clock clock;
    private final Supplier<GaugeRefresher.Gauges> gauges;
    private final String application;
    private RelayStats cachedStats;
    private Instant cachedAt;

    /** Without background gauges: the {@code Refreshed...} attributes stay unknown (-1). */
    public JmxAdapter(RelayOperations operations, Clock clock) {
        this(operations, clock, () -> GaugeRefresher.Gauges.UNKNOWN);
    }

    /** With the gauges of a {@link GaugeRefresher} ({@code refresher::latest}) for the {@code Refreshed...} attributes. */
    public JmxAdapter(RelayOperations operations, Clock clock, Supplier<GaugeRefresher.Gauges> gauges) {
        this(operations, clock, gauges, null);
    }

    /** ... and the name of the application the relay runs in (null when unknown). */
    public JmxAdapter(RelayOperations operations, Clock clock, Supplier<GaugeRefresher.Gauges> gauges, String application) {
        this.operations = Objects.requireNonNull(operations, "operations");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.gauges = Objects.requireNonNull(gauges, "gauges");
        this.application = application;
    }

    /** The service this MBean calls. */
    public RelayOperations operations() {
        return operations;
    }

    @Override
    public String getName() {
        return operations.name();
    }

    @Override
    public boolean isRunning() {
        return operations.isRunning();
    }

    @Override
    public String getState() {
        return operations.relay().state();
    }

    @Override
    public String getApplication() {
        return application;
    }

    @Override
    public Map<String, String> getSettings() {
        return operations.settings();
    }

    @Override
    public boolean isPaused() {
        return operations.isPaused();
    }

    @Override
    public boolean isListening() {
        return operations.isListening();
    }

    @Override
    public String getPublisher() {
        return operations.publisher();
    }

    @Override
    public String getPollInterval() {
        return operations.pollInterval().toString();
    }

    @Override
    public long getPending() {
        RelayStats s = stats();
        return s.cdc() ? -1 : s.pending();
    }

    @Override
    public long getDeadLetters() {
        return stats().dead();
    }

    @Override
    public long getOldestPendingAgeSeconds() {
        RelayStats s = stats();
        return s.cdc() ? -1 : s.oldestPendingAge().getSeconds();
    }

    @Override
    public String getMode() {
        return operations.mode();
    }

    @Override
    public Map<String, String> getCdcSlot() {
        return CdcSlotView.of(gauges.get());
    }

    @Override
    public long getScheduled() {
        return stats().scheduled();
    }

    @Override
    public String getNextScheduledDueAt() {
        return text(stats().nextScheduledDueAt());
    }

    @Override
    public long getRefreshedPending() {
        return whole(gauges.get().pending());
    }

    @Override
    public long getRefreshedDeadLetters() {
        return whole(gauges.get().dead());
    }

    @Override
    public long getRefreshedOldestPendingAgeSeconds() {
        return whole(gauges.get().oldestPendingAgeSeconds());
    }

    @Override
    public long getRefreshedScheduled() {
        return whole(gauges.get().scheduled());
    }

    @Override
    public String getGaugesRefreshedAt() {
        return text(gauges.get().refreshedAt());
    }

    /** A gauge as a whole number; -1 when unknown (NaN before the first refresh). */
    private static long whole(double gauge) {
        return Double.isNaN(gauge) ? -1 : (long) gauge;
    }

    @Override
    public long getPublishedSinceStart() {
        return operations.counters().published();
    }

    @Override
    public long getFailedSinceStart() {
        return operations.counters().failed();
    }

    @Override
    public long getDeadLetteredSinceStart() {
        return operations.counters().deadLettered();
    }

    @Override
    public long getBatchesSinceStart() {
        return operations.counters().batches();
    }

    @Override
    public long getLastBatchDurationMillis() {
        Duration d = operations.counters().lastBatchDuration();
        return d == null ? -1 : d.toMillis();
    }

    @Override
    public String[] getHeldDestinations() {
        return operations.heldDestinations().toArray(String[]::new);
    }

    @Override
    public String getLastError() {
        return operations.counters().lastError();
    }

    @Override
    public String getLastErrorAt() {
        return text(operations.counters().lastErrorAt());
    }

    @Override
    public String getLastLoopAt() {
        return text(operations.counters().lastLoopAt());
    }

    @Override
    public void pause() {
        operations.pause();
    }

    @Override
    public void resume() {
        operations.resume();
    }

    @Override
    public void runNow() {
        operations.runNow();
    }

    @Override
    public boolean retryDeadLetter(String eventId) {
        UUID id = parsed(() -> OperatorInput.id("eventId", eventId));
        try {
            boolean retried = operations.retryDeadLetter(id);
            invalidate();
            return retried;
        } catch (SQLException e) {
            throw databaseFailed("retryDeadLetter", e);
        }
    }

    @Override
    public int retryDeadLetters(String eventType, String aggregateType, String createdFrom, String createdTo) {
        return retryDeadLetters(eventType, aggregateType, null, null, createdFrom, createdTo);
    }

    @Override
    public int retryDeadLetters(String eventType, String aggregateType, String aggregateId, String errorText,
                                String createdFrom, String createdTo) {
        Map<String, String> given = new java.util.HashMap<>();
        given.put("eventType", eventType);
        given.put("aggregateType", aggregateType);
        given.put("aggregateId", aggregateId);
        given.put("errorText", errorText);
        given.put("createdFrom", createdFrom);
        given.put("createdTo", createdTo);
        var filter = parsed(() -> OperatorInput.filter(given::get));
        try {
            int retried = operations.retryDeadLetters(filter);
            invalidate();
            return retried;
        } catch (SQLException e) {
            throw databaseFailed("retryDeadLetters", e);
        }
    }

    @Override
    public long purge(String olderThan) {
        return purge(parsed(() -> OperatorInput.olderThan(olderThan)));
    }

    @Override
    public long purgeProcessedOlderThan(int days) {
        return purge(parsed(() -> OperatorInput.days("days", days)));
    }

    private long purge(Duration age) {
        try {
            return operations.purgeProcessedOlderThan(age);
        } catch (SQLException e) {
            throw databaseFailed("purgeProcessedOlderThan", e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage()); // without a cause: plain JDK types only
        }
    }

    @Override
    public java.util.List<Map<String, String>> getFleet() {
        java.util.List<Map<String, String>> out = new java.util.ArrayList<>();
        for (RelayOperations.FleetRelay r : operations.fleet().relays()) {
            var member = r.member();
            Map<String, String> m = new java.util.LinkedHashMap<>();
            m.put("server", member.who().server());
            m.put("application", member.who().application());
            m.put("relay", r.name());
            m.put("local", String.valueOf(r.local()));
            m.put("self", String.valueOf(r.self()));
            m.put("state", r.shownState());
            m.put("last-seen", text(member.seen().lastSeen()));
            m.put("started-at", text(member.seen().startedAt()));
            m.put("published", String.valueOf(member.tally().published()));
            m.put("failed", String.valueOf(member.tally().failed()));
            m.put("dead-lettered", String.valueOf(member.tally().deadLettered()));
            m.put("last-error", member.tally().lastError() == null ? "" : member.tally().lastError());
            m.put("epoch-applied", String.valueOf(member.epochApplied()));
            out.add(m);
        }
        return out;
    }

    @Override
    public boolean isFleetPaused() {
        return operations.fleet().paused();
    }

    @Override
    public String getFleetChangedBy() {
        return operations.fleet().changedBy();
    }

    @Override
    public String pauseAll(String requestedBy) {
        return fleetChange(true, requestedBy);
    }

    @Override
    public String resumeAll(String requestedBy) {
        return fleetChange(false, requestedBy);
    }

    private String fleetChange(boolean pause, String requestedBy) {
        String by = parsed(() -> OperatorInput.requestedBy(requestedBy));
        try {
            RelayOperations.FleetChange c = pause ? operations.pauseAll(by) : operations.resumeAll(by);
            return "fleet " + (pause ? "paused" : "resumed") + " (epoch " + c.epoch() + ", by " + c.by()
                    + "); acknowledged by " + c.acknowledged() + (c.lagging().isEmpty() ? ""
                    : "; not acknowledged in time by " + c.lagging());
        } catch (SQLException e) {
            throw databaseFailed(pause ? "pauseAll" : "resumeAll", e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    private synchronized RelayStats stats() {
        Instant now = clock.instant();
        if (cachedStats != null && Duration.between(cachedAt, now).compareTo(STATS_MAX_AGE) < 0) {
            return cachedStats;
        }
        try {
            cachedStats = operations.stats();
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

    private interface Parse<T> {
        T get() throws BadInput;
    }

    /** The parsed value; a refusal as a plain IllegalArgumentException (a JMX client knows no BadInput). */
    private static <T> T parsed(Parse<T> parse) {
        try {
            return parse.get();
        } catch (BadInput e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
