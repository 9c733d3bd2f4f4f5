package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxPendingByEventTypeRow;
import io.eeoutbox.jpa.generated.OutboxScheduledStatsRow;
import io.eeoutbox.jpa.generated.OutboxStatsRow;
import io.eeoutbox.jpa.generated.PromoteDueOutboxEventsParams;
import io.eeoutbox.jpa.generated.PromoteDueOutboxEventsRow;
import io.eeoutbox.relay.store.OperatorQueries.PendingOfType;
import io.eeoutbox.relay.store.OutboxStore.Promoted;
import io.eeoutbox.relay.store.OutboxStore.Stats;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The delayed events' statements (schema V14) for {@link JdbcOutboxStore}: the promotion of due rows and the
 * scheduled rows' gauges. Without V14 the gauges say none is scheduled; the promotion fails (SQLSTATE 42P01 or
 * 42883), and the relay says once that it promotes nothing. And the pending age, which counts a promoted row from its
 * promotion (schema V17's promoted_at); without V17 (SQLSTATE 42703) from its write, as relays did before V17
 * (docs/operations.md, "Delayed events"): the caller's flag remembers a schema without V17, until the relay restarts.
 */
public final class ScheduledStatements {

    /** undefined_table: no outbox_scheduled (a schema before V14). */
    static final String UNDEFINED_TABLE = "42P01";
    /** undefined_function: no outbox_promote_due (a schema before V14). */
    static final String UNDEFINED_FUNCTION = "42883";
    /** undefined_column: no outbox_events.promoted_at (a schema before V17). */
    static final String UNDEFINED_COLUMN = "42703";

    private ScheduledStatements() {
    }

    /** One autocommit statement, PromoteDueOutboxEvents, committed with the relay's synchronous_commit. */
    static Promoted promote(Connection c, String synchronousCommit, Instant statementNow, int maxRows)
            throws SQLException {
        PromoteDueOutboxEventsRow row = new OutboxEventJdbc(c).promoteDueOutboxEvents(
                new PromoteDueOutboxEventsParams(synchronousCommit, statementNow, maxRows))
                .orElseThrow(() -> new SQLException("PromoteDueOutboxEvents returned no row"));
        int moved = row.promoted() == null ? 0 : row.promoted();
        return new Promoted(moved, row.nextDueMs() == null ? null : Duration.ofMillis(Math.max(0, row.nextDueMs())));
    }

    /**
     * OutboxStats with the scheduled rows' gauges, in autocommit on {@code c}; on a schema without V17 OutboxStats'
     * statement of before V17, which counts a promoted delayed event from its write.
     */
    static Stats stats(Connection c, AtomicBoolean beforeV17) throws SQLException {
        OutboxEventJdbc dao = new OutboxEventJdbc(c);
        Optional<OutboxStatsRow> row;
        try {
            row = beforeV17.get() ? dao.outboxStatsBeforeV17() : dao.outboxStats();
        } catch (SQLException e) {
            if (!UNDEFINED_COLUMN.equals(e.getSQLState())) {
                throw e;
            }
            beforeV17.set(true); // asked once: no failing statement in PostgreSQL's log at every refresh
            row = dao.outboxStatsBeforeV17(); // the same columns: the generator gives both one row record
        }
        OutboxStatsRow r = row.orElseThrow(() -> new SQLException("OutboxStats returned no row"));
        return withScheduled(c, new Stats(r.pending(), r.dead(), r.oldestPendingSince()));
    }

    /** OutboxPendingByEventType in autocommit on {@code c}; without V17 its statement of before V17, as {@link #stats}. */
    static List<PendingOfType> pendingByEventType(Connection c, int maxTypes, AtomicBoolean beforeV17)
            throws SQLException {
        OutboxEventJdbc dao = new OutboxEventJdbc(c);
        List<OutboxPendingByEventTypeRow> rows;
        try {
            rows = beforeV17.get() ? dao.outboxPendingByEventTypeBeforeV17(maxTypes) : dao.outboxPendingByEventType(maxTypes);
        } catch (SQLException e) {
            if (!UNDEFINED_COLUMN.equals(e.getSQLState())) {
                throw e;
            }
            beforeV17.set(true);
            rows = dao.outboxPendingByEventTypeBeforeV17(maxTypes);
        }
        return rows.stream().map(r -> new PendingOfType(r.eventType(), r.pending(), r.oldestPendingSince())).toList();
    }

    /** {@code stats} with the scheduled rows' count and next due time; unchanged without schema V14. */
    static Stats withScheduled(Connection c, Stats stats) throws SQLException {
        try {
            OutboxScheduledStatsRow row = new OutboxEventJdbc(c).outboxScheduledStats()
                    .orElseThrow(() -> new SQLException("OutboxScheduledStats returned no row"));
            return stats.withScheduled(row.scheduled(), row.nextDueAt());
        } catch (SQLException e) {
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                return stats;
            }
            throw e;
        }
    }

    /** Whether {@code e} says the schema has no V14. */
    public static boolean noSchemaV14(SQLException e) {
        return UNDEFINED_TABLE.equals(e.getSQLState()) || UNDEFINED_FUNCTION.equals(e.getSQLState());
    }
}
