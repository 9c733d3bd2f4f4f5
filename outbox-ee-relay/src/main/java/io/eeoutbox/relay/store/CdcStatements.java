package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.DeleteExpiredCdcOutboxEventsParams;
import io.eeoutbox.jpa.generated.OutboxCdcSlotRow;
import io.eeoutbox.jpa.generated.OutboxCdcStatsRow;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * CDC mode's statements (docs/cdc.md, "Cleaning the table: cdc mode"; decision 0023): the cleanup of rows older than
 * {@code outbox.relay.cdc.retention}, the connector's replication slot as the gauges show it in place of pending, and
 * the gauges' counts read without the rows kept for the retention.
 */
public final class CdcStatements {

    private CdcStatements() {
    }

    /**
     * The connector's replication slot as {@code pg_replication_slots} shows it now.
     *
     * @param present          whether the slot exists
     * @param active           whether a connector is connected to it
     * @param lagBytes         WAL bytes between the current position and the one the connector confirmed; -1 when absent
     * @param retainedWalBytes WAL bytes the slot holds back from removal; -1 when absent
     * @param walStatus        PostgreSQL's {@code wal_status} (reserved, extended, unreserved, lost); empty when absent
     */
    public record Slot(String name, boolean present, boolean active, long lagBytes, long retainedWalBytes,
                       String walStatus) {
    }

    /** One maintenance statement, DeleteExpiredCdcOutboxEvents, in the caller's transaction; returns how many it deleted. */
    static int deleteExpired(Connection c, Instant statementNow, Duration retention, int batchSize) throws SQLException {
        return new OutboxEventJdbc(c).deleteExpiredCdcOutboxEvents(
                new DeleteExpiredCdcOutboxEventsParams(batchSize, statementNow, retention.toMillis())).orElse(0);
    }

    /** {@link OutboxStore#cdcStats()}: OutboxCdcStats and the scheduled rows' gauges, in autocommit. */
    static OutboxStore.Stats stats(DataSource dataSource) throws SQLException {
        try (Connection c = JdbcOutboxStore.autocommit(dataSource.getConnection())) {
            OutboxCdcStatsRow row = new OutboxEventJdbc(c).outboxCdcStats()
                    .orElseThrow(() -> new SQLException("OutboxCdcStats returned no row"));
            return ScheduledStatements.withScheduled(c, new OutboxStore.Stats(row.keptEstimate(), row.dead(), null));
        }
    }

    /** Reads the slot {@code slotName} (a validated identifier, passed as a parameter) in autocommit. */
    public static Slot slot(DataSource dataSource, String slotName) throws SQLException {
        Objects.requireNonNull(slotName, "slotName");
        try (Connection c = JdbcOutboxStore.autocommit(dataSource.getConnection())) {
            OutboxCdcSlotRow row = new OutboxEventJdbc(c).outboxCdcSlot(slotName)
                    .orElseThrow(() -> new SQLException("OutboxCdcSlot returned no row"));
            return new Slot(slotName, row.present(), row.active(), row.lagBytes(), row.retainedWalBytes(),
                    row.walStatus());
        }
    }
}
