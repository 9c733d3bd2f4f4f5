package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.BeatOutboxRelayParams;
import io.eeoutbox.jpa.generated.BeatOutboxRelayRow;
import io.eeoutbox.jpa.generated.ListOutboxRelaysRow;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxFleetControlRow;
import io.eeoutbox.jpa.generated.SetOutboxFleetPausedParams;
import io.eeoutbox.jpa.generated.SetOutboxFleetPausedRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The fleet's statements (schema V13): a relay's heartbeat, the list of every relay of the outbox, and pause all /
 * resume all. The generated statements of {@code sql/queries/outbox_events.sql}, each in autocommit on the relay's
 * (non-JTA) data source. See docs/operations.md, "Every relay of the outbox".
 */
public final class FleetStore {

    /** How many relays a read of the fleet returns at most. */
    public static final int MAX_MEMBERS = 200;
    /** The longest last error a heartbeat carries (the column's length). */
    static final int MAX_ERROR = 200;

    private final DataSource dataSource;

    public FleetStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Who a relay is in the fleet: its server (host and node), its application and its name, and this start. */
    public record Identity(String server, String application, String relayName, UUID instance) {
        public Identity {
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(relayName, "relayName");
            Objects.requireNonNull(instance, "instance");
        }
    }

    /** A relay's counters since its start, and its last error (or null). */
    public record Tally(long published, long failed, long deadLettered, String lastError) {
    }

    /** What a heartbeat reports besides the identity. */
    public record Report(Duration interval, String state, boolean pausedLocally, Tally tally, long epochApplied) {
    }

    /**
     * When a relay started and was last seen (the database's clock), how long ago that was, its heartbeat interval,
     * and whether it is missing: unseen for three intervals and not stopped cleanly.
     */
    public record Seen(Instant startedAt, Instant lastSeen, Duration ago, Duration interval, boolean missing) {
    }

    /** The fleet's control row: whether every relay is paused, its epoch, who changed it last and when. */
    public record Control(boolean paused, long epoch, String changedBy, Instant changedAt) {
    }

    /** One relay of the fleet as its last heartbeat left it; ages by the database's clock. */
    public record Member(Identity who, Seen seen, String state, boolean pausedLocally, Tally tally, long epochApplied) {
    }

    /** What a heartbeat read: the control row and every relay of the outbox, this one as just written. */
    public record Beat(Control control, List<Member> members) {
    }

    /**
     * Writes this relay's row and reads the control row and the fleet, in one statement. The fleet is as it was
     * before the statement, with this relay's row replaced by what it wrote (or added, on its first heartbeat).
     */
    public Beat beat(Identity who, Report r) throws SQLException {
        Tally t = r.tally();
        String error = t.lastError() == null || t.lastError().length() <= MAX_ERROR ? t.lastError()
                : t.lastError().substring(0, MAX_ERROR - 1) + "…";
        List<BeatOutboxRelayRow> rows;
        try (Connection c = autocommit()) {
            rows = new OutboxEventJdbc(c).beatOutboxRelay(new BeatOutboxRelayParams(who.server(), who.application(),
                    who.relayName(), who.instance(), Math.max(1, r.interval().toMillis()), r.state(), r.pausedLocally(),
                    t.published(), t.failed(), t.deadLettered(), error, r.epochApplied(), MAX_MEMBERS));
        }
        if (rows.isEmpty()) {
            throw new SQLException("BeatOutboxRelay returned no row: outbox_fleet_control has no row 1 (schema V13"
                    + " inserts it)");
        }
        BeatOutboxRelayRow first = rows.get(0);
        Instant now = first.dbNow();
        List<Member> members = new ArrayList<>();
        members.add(new Member(who, new Seen(first.ownStartedAt(), now, Duration.ZERO, r.interval(), false), r.state(),
                r.pausedLocally(), new Tally(t.published(), t.failed(), t.deadLettered(), error), r.epochApplied()));
        for (BeatOutboxRelayRow m : rows) {
            if (m.server() == null || (m.server().equals(who.server()) && m.application().equals(who.application())
                    && m.relayName().equals(who.relayName()))) {
                continue;
            }
            Duration ago = Duration.between(m.lastSeen(), now);
            ago = ago.isNegative() ? Duration.ZERO : ago;
            Duration interval = Duration.ofMillis(m.intervalMs());
            members.add(new Member(new Identity(m.server(), m.application(), m.relayName(), m.instance()),
                    new Seen(m.startedAt(), m.lastSeen(), ago, interval, missing(m.state(), ago, interval)), m.state(),
                    m.pausedLocal(), new Tally(m.published(), m.failed(), m.deadLettered(), m.lastError()),
                    m.fleetEpochSeen()));
        }
        members.sort(Comparator.comparing((Member m) -> m.who().server()).thenComparing(m -> m.who().application())
                .thenComparing(m -> m.who().relayName()));
        return new Beat(new Control(Boolean.TRUE.equals(first.fleetPaused()), first.fleetEpoch(), first.changedBy(),
                first.changedAt()), List.copyOf(members));
    }

    /** The rule ListOutboxRelays applies in SQL: not seen for three of its intervals and not stopped cleanly. */
    static boolean missing(String state, Duration seenAgo, Duration interval) {
        return !"stopped".equals(state) && seenAgo.compareTo(interval.multipliedBy(3)) > 0;
    }

    /** Every relay of the outbox (at most {@link #MAX_MEMBERS}), by server, application and name. */
    public List<Member> members() throws SQLException {
        try (Connection c = autocommit()) {
            List<Member> out = new ArrayList<>();
            for (ListOutboxRelaysRow m : new OutboxEventJdbc(c).listOutboxRelays(MAX_MEMBERS)) {
                out.add(new Member(new Identity(m.server(), m.application(), m.relayName(), m.instance()),
                        new Seen(m.startedAt(), m.lastSeen(), Duration.ofMillis(m.seenMsAgo()),
                                Duration.ofMillis(m.intervalMs()), Boolean.TRUE.equals(m.missing())),
                        m.state(), m.pausedLocal(), new Tally(m.published(), m.failed(), m.deadLettered(), m.lastError()),
                        m.fleetEpochSeen()));
            }
            return out;
        }
    }

    public Control control() throws SQLException {
        try (Connection c = autocommit()) {
            OutboxFleetControlRow row = new OutboxEventJdbc(c).outboxFleetControl()
                    .orElseThrow(() -> new SQLException("outbox_fleet_control has no row 1 (schema V13 inserts it)"));
            return new Control(row.paused(), row.epoch(), row.changedBy(), row.changedAt());
        }
    }

    /** Pauses (true) or resumes (false) every relay of the outbox; the new epoch, which relays acknowledge. */
    public Control setPaused(boolean paused, String by) throws SQLException {
        try (Connection c = autocommit()) {
            SetOutboxFleetPausedRow row = new OutboxEventJdbc(c).setOutboxFleetPaused(
                            new SetOutboxFleetPausedParams(paused, Objects.requireNonNull(by, "by")))
                    .orElseThrow(() -> new SQLException("outbox_fleet_control has no row 1 (schema V13 inserts it)"));
            return new Control(paused, row.epoch(), by, row.changedAt());
        }
    }

    /** Deletes (some of) the rows of relays unseen for longer than {@code retention}; how many. */
    public int deleteGone(Duration retention) throws SQLException {
        try (Connection c = autocommit()) {
            return new OutboxEventJdbc(c).deleteGoneOutboxRelays(retention.toMillis());
        }
    }

    private Connection autocommit() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }
}
