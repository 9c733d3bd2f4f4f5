package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.cleanup.OutboxCleaner;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.config.Setting;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.FleetStore;
import io.eeoutbox.relay.store.CdcStatements;
import io.eeoutbox.relay.store.OperatorQueries;
import io.eeoutbox.relay.store.OperatorQueries.DeadLetter;
import io.eeoutbox.relay.store.OutboxStore;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The relay's operations service: every action and read an operator has, in one place. Each surface is a thin
 * adapter over one instance of it and implements nothing itself: the MBean ({@link JmxAdapter}), the web console
 * and its JSON API ({@code console.ConsoleApi}), and a server's management model (a WildFly subsystem's operation
 * handlers, to come). Arguments typed by an operator are parsed by {@link OperatorInput}, the one parser of
 * filters, instants and ids.
 *
 * <p>Entry point: in a server, {@code ops.ee.OpsBootstrap#operations()} hands out the instance of the relay running
 * in the application (the MBean and the console get theirs there); with a relay built in plain Java,
 * {@code new RelayOperations(relay, clock)} (no console reads, no history) or the six-argument constructor.
 *
 * <p>The statements go through {@code store/}: the relay's {@link OutboxStore} (counts, retries by id and by event
 * type, aggregate type and time) and {@link OperatorQueries} (the pending rows per event type and the dead letters
 * by the full filter). Actions are logged here, once, whichever surface asked. Not final so that a test can watch
 * which calls reach it; see docs/operations.md, "One service, many surfaces".
 */
public class RelayOperations {

    private static final Logger LOG = Logger.getLogger(RelayOperations.class.getName());
    private static final Duration RATE_WINDOW = Duration.ofSeconds(30);

    private final OutboxRelay relay;
    private final OperatorQueries queries;
    private final Supplier<List<Failure>> failures;
    private final Map<String, String> resources;
    private final Clock clock;
    private final History history;
    private final ArrayList<long[]> samples = new ArrayList<>(); // {epoch millis, published}
    private final FleetActions fleet;

    /**
     * @param queries   the operator's statements on the relay's data source; null: the dead-letter reads and the
     *                  retry by aggregate id or error text are not available (they throw IllegalStateException)
     * @param failures  the relay's last failed attempts ({@link RecentFailures#list})
     * @param resources further settings to show (a server's resource names), after the relay's own
     * @param history   the last hour for the console's chart, kept by whoever samples it (it outlives a relay
     *                  restarted within the deployment); null: none is kept
     */
    public RelayOperations(OutboxRelay relay, OperatorQueries queries, Supplier<List<Failure>> failures,
                           Map<String, String> resources, Clock clock, History history) {
        this.relay = Objects.requireNonNull(relay, "relay");
        this.queries = queries;
        this.failures = Objects.requireNonNull(failures, "failures");
        this.resources = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(resources));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.history = history != null ? history : History.none(clock);
        this.fleet = new FleetActions(relay.config().name(), relay::fleet);
    }

    /** Over a relay built in plain Java: no operator statements, no recent failures, no further settings. */
    public RelayOperations(OutboxRelay relay, Clock clock) {
        this(relay, null, List::of, Map.of(), clock, null);
    }

    public RelayOperations(OutboxRelay relay) {
        this(relay, Clock.systemUTC());
    }

    /** Whether this is the service of {@code r} (a relay restarted within a deployment is a new one). */
    public boolean serves(OutboxRelay r) {
        return relay == r;
    }

    // --- the relay now ------------------------------------------------------------------------

    /** The relay's name ({@code outbox.relay.name}). */
    public String name() {
        return relay.config().name();
    }

    public boolean isRunning() {
        return relay.isRunning();
    }

    public boolean isPaused() {
        return relay.isPaused();
    }

    /** Whether the relay listens for the insert trigger's NOTIFY now. */
    public boolean isListening() {
        return relay.isListening();
    }

    /** The publisher, for example {@code jms:java:app/jms/OutboxEvents}. */
    public String publisher() {
        return relay.publisher().describe();
    }

    /** The fallback poll interval in force now. */
    public Duration pollInterval() {
        return relay.currentPollInterval();
    }

    /** Counters since start: published, failed, dead-lettered, last batch duration, last error. */
    public RelayCounters.Snapshot counters() {
        return relay.counters();
    }

    /** The destinations that cannot take messages now, one line each (see {@link DestinationHolds.Held#describe}). */
    public List<String> heldDestinations() {
        return relay.heldDestinations().stream().map(DestinationHolds.Held::describe).toList();
    }

    /**
     * One of running, paused, fleet-paused (pause all), starting (the fleet's state not read yet), waiting-for-broker
     * (every destination held back), stopped.
     */
    public String state() {
        return relay.state();
    }

    /** The relay's state, activity and counters; each call also samples the published rate. */
    public RelayView relay() {
        RelayCounters.Snapshot c = counters();
        Duration last = c.lastBatchDuration();
        return new RelayView(name(), state(), publisher(), isListening(),
                new Activity(c.lastLoopAt(), last == null ? null : last.toMillis(), rate(c.published()),
                        heldDestinations()),
                new Counters(c.published(), c.failed(), c.deadLettered(), c.batches(), c.lastError(), c.lastErrorAt()));
    }

    /** Events per second over about the last {@link #RATE_WINDOW}, from the published counter. */
    private synchronized double rate(long published) {
        long now = clock.millis();
        samples.add(new long[] {now, published});
        while (samples.size() > 2 && now - samples.get(1)[0] >= RATE_WINDOW.toMillis()) {
            samples.remove(0);
        }
        long[] first = samples.get(0);
        long elapsed = now - first[0];
        return elapsed <= 0 ? 0.0 : (published - first[1]) * 1000.0 / elapsed;
    }

    /** The last hour: pending and published per second, one point every {@link History#STEP} (the console's chart). */
    public History.Series history() {
        return history.series();
    }

    /** The last failed publish attempts seen by this relay, the newest first. */
    public List<Failure> recentFailures() {
        return failures.get();
    }

    /** The settings in effect as configuration writes them, secrets masked, in a stable order. */
    public Map<String, String> settings() {
        RelayConfig c = relay.config();
        Map<String, String> m = new LinkedHashMap<>();
        for (Setting<?> s : RelaySettings.ALL) {
            m.put(s.key(), shown(s, c));
        }
        m.put(RelaySettings.POLL_INTERVAL.key(), relay.currentPollInterval().toString()); // the one in force now
        m.putAll(resources);
        return m;
    }

    private static <T> String shown(Setting<T> s, RelayConfig c) {
        T value = c.get(s);
        return value == null ? "" : s.show(value);
    }

    /** Every relay of the outbox (schema V13) as this relay's last heartbeat read it; no SQL runs here. */
    public FleetView fleet() {
        return fleet.view();
    }

    // --- the outbox ---------------------------------------------------------------------------

    /** Pending rows, dead letters, how long the oldest pending row has waited, and the delayed events not yet due. */
    public RelayStats stats() throws SQLException { // cdc mode: a statement that reads no kept row (docs/cdc.md)
        OutboxStore.Stats s = relay.config().cdc() ? relay.store().cdcStats() : relay.store().stats();
        CdcStatements.Slot slot = cdcSlot();
        return new RelayStats(s.pending(), s.dead(), age(s.oldestPendingSince()), s.scheduled(), s.nextDueAt(), slot);
    }

    /** {@code relay} or {@code cdc} ({@code outbox.relay.mode}). */
    public String mode() {
        return relay.config().mode().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Cdc mode: the connector's replication slot now, what replaces pending there; null in relay mode. */
    public CdcStatements.Slot cdcSlot() throws SQLException {
        return relay.config().cdc() ? queries().cdcSlot(relay.config().cdcSlot()) : null;
    }

    /** {@link #stats()} with the pending rows per event type, at most {@code maxTypes} types (none in cdc mode). */
    public Backlog backlog(int maxTypes) throws SQLException {
        RelayStats stats = stats();
        List<PendingType> types = new ArrayList<>();
        for (OperatorQueries.PendingOfType t : stats.cdc() ? List.<OperatorQueries.PendingOfType>of()
                : queries().pendingByEventType(maxTypes)) {
            types.add(new PendingType(t.eventType(), t.pending(), age(t.oldestPendingSince())));
        }
        return new Backlog(stats.pending(), stats.dead(), stats.oldestPendingAge(), types, stats.scheduled(),
                stats.nextScheduledDueAt());
    }

    /** One page of the dead letters that match {@code filter}, in write order after the cursor {@code afterSeq}. */
    public DeadLetterPage deadLetters(DeadLetterFilter filter, long afterSeq, int limit, int payloadChars)
            throws SQLException {
        // one more than asked: whether a next page exists
        List<DeadLetter> rows = queries().deadLetters(filter, afterSeq, limit + 1, payloadChars);
        List<DeadLetter> items = List.copyOf(rows.subList(0, Math.min(limit, rows.size())));
        Long next = rows.size() > limit ? items.get(items.size() - 1).seq() : null;
        return new DeadLetterPage(items, next);
    }

    /** One dead letter, with its whole payload; empty when {@code id} is no dead letter. */
    public Optional<DeadLetter> deadLetter(UUID id) throws SQLException {
        return queries().deadLetter(Objects.requireNonNull(id, "id"));
    }

    /** How many dead letters match {@code filter} now. */
    public long countDeadLetters(DeadLetterFilter filter) throws SQLException {
        return queries().countDeadLetters(filter);
    }

    // --- actions ------------------------------------------------------------------------------

    /** Claims no new batches until {@link #resume()}; the batch in flight completes. */
    public void pause() {
        relay.pause();
    }

    public void resume() {
        relay.resume();
    }

    /** Looks for work now (also during the back-off after a database error). */
    public void runNow() {
        relay.runNow();
    }

    /** Makes one dead letter due again with a fresh retry budget; false when {@code id} is no dead letter. */
    public boolean retryDeadLetter(UUID id) throws SQLException {
        boolean retried = relay.store().retryDeadLetter(Objects.requireNonNull(id, "id"));
        if (retried) {
            LOG.info(() -> "relay " + name() + ": dead letter event_id=" + id + " retried on request");
            relay.wakeUp();
        }
        return retried;
    }

    /** Makes every dead letter matching {@code filter} due again with a fresh retry budget, through the relay's store; how many. */
    public int retryDeadLetters(DeadLetterFilter filter) throws SQLException {
        DeadLetterFilter f = Objects.requireNonNull(filter, "filter");
        int retried = relay.store().retryDeadLetters(f);
        LOG.info(() -> "relay " + name() + ": " + retried + " dead letters retried on request (filter=" + f + ")");
        if (retried > 0) {
            relay.wakeUp();
        }
        return retried;
    }

    /**
     * Deletes published rows processed more than {@code age} ago, now, in bounded batches.
     *
     * @return how many rows were deleted
     * @throws IllegalStateException when another relay holds the maintenance lock (it is cleaning now)
     */
    public long purgeProcessedOlderThan(Duration age) throws SQLException {
        if (Objects.requireNonNull(age, "age").isNegative()) {
            throw new IllegalArgumentException("age must not be negative, was " + age);
        }
        OutboxCleaner.Result r = relay.cleaner().clean(age);
        if (r.lockedElsewhere() && r.deleted() == 0) {
            throw new IllegalStateException("another relay holds the outbox maintenance lock; try again later");
        }
        LOG.info(() -> "relay " + name() + ": purged " + r.deleted() + " published rows older than " + age);
        return r.deleted();
    }

    /**
     * Pauses every relay of the outbox through the database, and waits until each has acknowledged (its batch in
     * flight done), at most two heartbeats and a few seconds; {@code by} is who asked (the audit).
     */
    public FleetChange pauseAll(String by) throws SQLException {
        return fleet.change(true, by);
    }

    /** Resumes every relay of the outbox (a relay paused on its own stays paused); as {@link #pauseAll}. */
    public FleetChange resumeAll(String by) throws SQLException {
        return fleet.change(false, by);
    }

    /** Runs the scheduled cleanup now (with the configured retention); logs instead of throwing. */
    public void cleanUpNow() {
        relay.cleaner().runScheduled(relay.config().retention(), relay.config().inboxRetention());
    }

    private OperatorQueries queries() {
        if (queries == null) {
            throw new IllegalStateException("relay " + name() + ": the dead letters cannot be browsed here (no data"
                    + " source was given to its operations)");
        }
        return queries;
    }

    private Duration age(Instant since) {
        Duration age = since == null ? Duration.ZERO : Duration.between(since, clock.instant());
        return age.isNegative() ? Duration.ZERO : age;
    }

    // --- what the reads answer ------------------------------------------------------------------

    /** The relay's state now. {@code state} is one of running, paused, waiting-for-broker, stopped. */
    public record RelayView(String name, String state, String publisher, boolean listening, Activity activity,
                            Counters counters) {
    }

    /**
     * When the relay's loop last ran, how long its last batch took (null before the first), events/s lately, and the
     * destinations it holds because they cannot take messages now (one line each).
     */
    public record Activity(Instant lastLoopAt, Long lastBatchMillis, double eventsPerSecond,
                           List<String> heldDestinations) {
    }

    /** Counters since the relay started. */
    public record Counters(long published, long failed, long deadLettered, long batches, String lastError,
                           Instant lastErrorAt) {
    }

    /**
     * Pending rows (dead letters not included), dead letters, pending rows per event type, and the delayed events
     * not yet due (schema V14), the earliest due at {@code nextScheduledDueAt} (null when none).
     */
    public record Backlog(long pending, long dead, Duration oldestPendingAge, List<PendingType> byType, long scheduled,
                          java.time.Instant nextScheduledDueAt) {
    }

    /** Pending rows of one event type. */
    public record PendingType(String eventType, long pending, Duration oldestAge) {
    }

    /** A page of dead letters; {@code nextAfterSeq} is the cursor of the next page, null on the last. */
    public record DeadLetterPage(List<DeadLetter> items, Long nextAfterSeq) {
    }

    /** The fleet: whether this relay is part of one (schema V13), whether it is paused, by whom, and its relays. */
    public record FleetView(boolean member, boolean paused, long epoch, String changedBy, Instant changedAt,
                            List<FleetRelay> relays) {
    }

    /** One relay of the fleet as its last heartbeat left it: local when on this server, self when this relay. */
    public record FleetRelay(FleetStore.Member member, boolean local, boolean self) {
        public String name() {
            return member.who().relayName();
        }

        /** Its state, or {@code missing} when unseen for three of its heartbeats. */
        public String shownState() {
            return member.seen().missing() ? "missing" : member.state();
        }
    }

    /** A pause all or resume all: its epoch, who asked, and which relays acknowledged it in time, which not. */
    public record FleetChange(boolean paused, long epoch, String by, Instant at, List<String> acknowledged,
                              List<String> lagging) {
    }

    /** A failed publish attempt. */
    public record Failure(Instant at, Attempt attempt, String error, boolean deadLettered) {
    }

    /** Which publish attempt of which event. */
    public record Attempt(UUID eventId, String eventType, String aggregateId, int number) {
    }
}
