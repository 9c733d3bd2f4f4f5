package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.jpa.generated.OutboxScheduledStatsRow;
import io.eeoutbox.jpa.generated.PromoteDueOutboxEventsParams;
import io.eeoutbox.jpa.generated.PromoteDueOutboxEventsRow;
import io.eeoutbox.relay.store.OutboxStore.Promoted;
import io.eeoutbox.relay.store.OutboxStore.Stats;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * The delayed events' statements (schema V14) for {@link JdbcOutboxStore}: the promotion of due rows and the
 * scheduled rows' gauges. Without V14 the gauges say none is scheduled; the promotion fails (SQLSTATE 42P01 or
 * 42883), and the relay says once that it promotes nothing.
 */
public final class ScheduledStatements {

    /** undefined_table: no outbox_scheduled (a schema before V14). */
    static final String UNDEFINED_TABLE = "42P01";
    /** undefined_function: no outbox_promote_due (a schema before V14). */
    static final String UNDEFINED_FUNCTION = "42883";

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
