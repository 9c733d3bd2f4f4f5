package io.eeoutbox.relay.console;

import io.eeoutbox.jpa.generated.CountOutboxDeadLettersMatchingParams;
import io.eeoutbox.jpa.generated.FindOutboxEventRow;
import io.eeoutbox.jpa.generated.ListOutboxDeadLettersMatchingParams;
import io.eeoutbox.jpa.generated.ListOutboxDeadLettersMatchingRow;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxPendingByEventTypeRow;
import io.eeoutbox.jpa.generated.RetryOutboxDeadLettersMatchingParams;
import io.eeoutbox.relay.backoff.DestinationHolds;
import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayStats;
import io.eeoutbox.relay.config.RelayConfig;
import io.eeoutbox.relay.config.RelaySettings;
import io.eeoutbox.relay.config.Setting;
import io.eeoutbox.relay.counters.RelayCounters;
import io.eeoutbox.relay.ee.ResourceNames;
import io.eeoutbox.relay.ops.RelayAdministration;
import java.sql.Connection;
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
import javax.sql.DataSource;

/**
 * {@link ConsoleOperations} over the relay: the MBean's operations go through {@link RelayAdministration},
 * the one implementation the MBean also calls; the console's own reads and its retry by the full filter
 * (aggregate id and error text, which the MBean's retry does not take) run the generated statements of
 * {@code sql/queries/outbox_events.sql} on the relay's (non-JTA) data source, each in autocommit.
 */
public final class RelayConsoleOperations implements ConsoleOperations {

    private static final Duration RATE_WINDOW = Duration.ofSeconds(30);

    private final OutboxRelay relay;
    private final RelayAdministration admin;
    private final ResourceNames resources;
    private final DataSource dataSource;
    private final Supplier<List<Failure>> failures;
    private final Clock clock;
    private final ArrayList<long[]> samples = new ArrayList<>(); // {epoch millis, published}

    public RelayConsoleOperations(OutboxRelay relay, ResourceNames resources, DataSource dataSource,
                                  Supplier<List<Failure>> failures, Clock clock) {
        this.relay = Objects.requireNonNull(relay, "relay");
        this.admin = new RelayAdministration(relay, clock);
        this.resources = Objects.requireNonNull(resources, "resources");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.failures = Objects.requireNonNull(failures, "failures");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public RelayView relay() {
        RelayCounters.Snapshot c = admin.counters();
        Instant held = relay.brokerHeldUntil();
        String state = !relay.isRunning() ? "stopped"
                : relay.isPaused() ? "paused"
                : held != null && held.isAfter(clock.instant()) ? "waiting-for-broker" : "running";
        Duration last = c.lastBatchDuration();
        return new RelayView(relay.config().name(), state, relay.publisher().describe(), relay.isListening(),
                new Activity(c.lastLoopAt(), last == null ? null : last.toMillis(), rate(c.published()),
                        relay.heldDestinations().stream().map(DestinationHolds.Held::describe).toList()),
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

    @Override
    public Backlog backlog(int maxTypes) throws SQLException {
        RelayStats stats = admin.stats();
        Instant now = clock.instant();
        List<PendingType> types = new ArrayList<>();
        try (Connection c = connection()) {
            for (OutboxPendingByEventTypeRow row : new OutboxEventJdbc(c).outboxPendingByEventType(maxTypes)) {
                Duration age = row.oldestCreatedAt() == null ? Duration.ZERO : Duration.between(row.oldestCreatedAt(), now);
                types.add(new PendingType(row.eventType(), row.pending(), age.isNegative() ? Duration.ZERO : age));
            }
        }
        return new Backlog(stats.pending(), stats.dead(), stats.oldestPendingAge(), types);
    }

    @Override
    public DeadLetterPage deadLetters(DeadLetterFilter f, long afterSeq, int limit, int payloadChars)
            throws SQLException {
        List<ListOutboxDeadLettersMatchingRow> rows;
        try (Connection c = connection()) {
            // one more than asked: whether a next page exists
            rows = new OutboxEventJdbc(c).listOutboxDeadLettersMatching(new ListOutboxDeadLettersMatchingParams(
                    payloadChars, f.eventType(), f.aggregateType(), f.aggregateId(), f.createdFrom(), f.createdTo(),
                    f.errorText(), afterSeq, limit + 1));
        }
        List<DeadLetter> items = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, rows.size()); i++) {
            ListOutboxDeadLettersMatchingRow r = rows.get(i);
            items.add(new DeadLetter(r.id(), r.seq(), new Event(r.aggregateType(), r.aggregateId(), r.eventType(),
                    r.createdAt()), new Outcome(r.attempts(), r.deadAt(), r.lastError()), r.payloadHead(),
                    Boolean.TRUE.equals(r.payloadCut())));
        }
        Long next = rows.size() > limit ? items.get(items.size() - 1).seq() : null;
        return new DeadLetterPage(items, next);
    }

    @Override
    public Optional<DeadLetter> deadLetter(UUID id) throws SQLException {
        Optional<FindOutboxEventRow> found;
        try (Connection c = connection()) {
            found = new OutboxEventJdbc(c).findOutboxEvent(id);
        }
        return found.filter(r -> r.deadAt() != null && r.processedAt() == null)
                .map(r -> new DeadLetter(r.id(), r.seq(), new Event(r.aggregateType(), r.aggregateId(), r.eventType(),
                        r.createdAt()), new Outcome(r.attempts(), r.deadAt(), r.lastError()), r.payload(), false));
    }

    @Override
    public long countDeadLetters(DeadLetterFilter f) throws SQLException {
        try (Connection c = connection()) {
            return new OutboxEventJdbc(c).countOutboxDeadLettersMatching(new CountOutboxDeadLettersMatchingParams(
                    f.eventType(), f.aggregateType(), f.aggregateId(), f.createdFrom(), f.createdTo(), f.errorText()))
                    .orElse(0L);
        }
    }

    @Override
    public boolean retryDeadLetter(UUID id) throws SQLException {
        return admin.retryDeadLetter(id);
    }

    @Override
    public int retryDeadLetters(DeadLetterFilter f) throws SQLException {
        if (f.aggregateId() == null && f.errorText() == null) {
            return admin.retryDeadLetters(f.eventType(), f.aggregateType(), f.createdFrom(), f.createdTo());
        }
        int retried;
        try (Connection c = connection()) {
            retried = new OutboxEventJdbc(c).retryOutboxDeadLettersMatching(new RetryOutboxDeadLettersMatchingParams(
                    f.eventType(), f.aggregateType(), f.aggregateId(), f.createdFrom(), f.createdTo(), f.errorText()));
        }
        if (retried > 0) {
            relay.wakeUp();
        }
        return retried;
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
    public long purgeProcessedOlderThan(Duration age) throws SQLException {
        return admin.purgeProcessedOlderThan(age);
    }

    @Override
    public List<Failure> recentFailures() {
        return failures.get();
    }

    @Override
    public Map<String, String> settings() {
        RelayConfig c = relay.config();
        Map<String, String> m = new LinkedHashMap<>();
        for (Setting<?> s : RelaySettings.ALL) {
            m.put(s.key(), shown(s, c));
        }
        m.put(RelaySettings.POLL_INTERVAL.key(), relay.currentPollInterval().toString()); // the one in force now
        m.put(ResourceNames.DATASOURCE.key(), resources.dataSource());
        m.put(ResourceNames.EXECUTOR.key(), resources.executor());
        m.put(ResourceNames.THREAD_FACTORY.key(), resources.threadFactory());
        m.put(ResourceNames.JMS_CONNECTION_FACTORY.key(), resources.jmsConnectionFactory());
        m.put(ResourceNames.JMS_DESTINATION.key(), resources.jmsDestination());
        return m;
    }

    /** The value in effect as configuration writes it, secrets masked, a JDBC URL without its query. */
    private static <T> String shown(Setting<T> s, RelayConfig c) {
        T value = c.get(s);
        return value == null ? "" : s.show(value);
    }

    private Connection connection() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            c.setAutoCommit(true);
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }
}
