package io.eeoutbox.relay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eeoutbox.jpa.generated.OutboxEventSql;
import io.eeoutbox.jpa.generated.OutboxEventTestingSql;
import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The claim walks the partial index on an empty table without statistics and keeps doing so once
 * the table fills, even with the generic plan a prepared statement falls back to. The plans of the
 * statements inside the claim function are read with auto_explain (sent to the client as LOG
 * messages), as the relay's JDBC DAO runs the generated SQL.
 */
class ClaimPlanIT {

    @Test
    void theClaimUsesThePartialIndexOnAnEmptyTableAndAfterItFills() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_plan_it", false);
        try (Connection c = db.connect()) {
            assumeTrue(autoExplain(c), "auto_explain cannot be loaded on this server (superuser needed)");
            try (PreparedStatement claim = c.prepareStatement(OutboxEventTestingSql.CLAIM_OUTBOX_BATCH)) {
                for (int i = 0; i < 6; i++) { // past pgjdbc's prepare threshold and the server's custom-plan tries
                    assertThat(plan(claim)).contains("idx_outbox_unprocessed").doesNotContain("Seq Scan on outbox_events");
                }
                RelayIt.writeCommitted(db, 20_000, i -> new RelayIt.Event("order", "o" + i, "order.created"));
                String filled = plan(claim);
                System.out.println("[ClaimPlanIT] plans of one claim over 20,000 rows without ANALYZE:\n" + filled);
                assertThat(filled).contains("idx_outbox_unprocessed").doesNotContain("Seq Scan on outbox_events")
                        .doesNotContain("Sort Key: c.seq");
                // The one sort allowed: the byte budget's running sum (V7) over the rows the index walk
                // already limited to the batch, never over the pending rows.
                assertThat(occurrences(filled, "->  Sort")).isEqualTo(occurrences(filled, "Sort Key: d.seq"));
                assertThat(filled.indexOf("Sort Key: d.seq")).isLessThan(filled.indexOf("->  Limit"));
            }
        }
    }

    /**
     * Ordered mode's statement (V11, decision 0017) keeps generic plans: its successors are found by the aggregate
     * index and locked by primary key, its walk goes by the partial index, on an empty table and over 20,000 rows
     * without statistics; no statement reads the table whole.
     */
    @Test
    void theOrderedClaimProbesTheAggregateIndexAndLocksByIdWithoutStatistics() throws Exception {
        TestDatabase.Db db = TestDatabase.get().createDatabase("relay_plan_ordered_it", false);
        try (Connection c = db.connect()) {
            assumeTrue(autoExplain(c), "auto_explain cannot be loaded on this server (superuser needed)");
            try (PreparedStatement claim = c.prepareStatement(OutboxEventSql.COMPLETE_AND_CLAIM_OUTBOX_BATCH_ORDERED)) {
                for (int i = 0; i < 6; i++) {
                    assertThat(orderedPlan(claim, new UUID[0], null)).doesNotContain("Seq Scan on outbox_events");
                }
                RelayIt.writeCommitted(db, 20_000, i -> new RelayIt.Event("order", "o" + i % 500, "order.created"));
                UUID token = UUID.randomUUID();
                orderedPlan(claim, new UUID[0], token);
                UUID[] done = ids(c, token);
                assertThat(done).hasSize(100);
                String filled = orderedPlan(claim, done, token);
                System.out.println("[ClaimPlanIT] plans of one ordered claim over 20,000 rows without ANALYZE:\n" + filled);
                assertThat(filled).doesNotContain("Seq Scan on outbox_events").doesNotContain("Bitmap")
                        .contains("Index Scan using idx_outbox_aggregate_pending on outbox_events x")
                        .contains("Index Scan using outbox_events_pkey on outbox_events c")
                        .contains("Index Scan using idx_outbox_unprocessed on outbox_events c");
            }
        }
    }

    private static UUID[] ids(Connection c, UUID token) throws SQLException {
        try (Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT id FROM outbox_events WHERE claim_token = '" + token + "'")) {
            java.util.List<UUID> ids = new java.util.ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getObject(1, UUID.class));
            }
            return ids.toArray(new UUID[0]);
        }
    }

    /** Completes {@code done} (leased to {@code doneToken}) and claims up to 100 rows from seq 0, leased to a new token. */
    private static String orderedPlan(PreparedStatement claim, UUID[] done, UUID doneToken) throws SQLException {
        claim.setString(1, "off");
        claim.setBoolean(2, false);
        claim.setNull(3, java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
        claim.setArray(4, claim.getConnection().createArrayOf("uuid", done));
        claim.setObject(5, doneToken);
        claim.setObject(6, doneToken != null && done.length == 0 ? doneToken : UUID.randomUUID());
        claim.setLong(7, 60_000);
        claim.setInt(8, 10);
        claim.setInt(9, 100);
        claim.setInt(10, 4 << 20);
        claim.setLong(11, 0);
        return plans(claim);
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

    private static boolean autoExplain(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("LOAD 'auto_explain'");
            s.execute("SET auto_explain.log_min_duration = 0");
            s.execute("SET auto_explain.log_nested_statements = on");
            s.execute("SET plan_cache_mode = force_generic_plan");
            s.execute("SET client_min_messages = log");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** Runs the claim (it claims rows for a minute: fine for this test) and returns the plans auto_explain sent. */
    private static String plan(PreparedStatement claim) throws SQLException {
        Instant now = Instant.now();
        claim.setObject(1, UUID.randomUUID());
        claim.setTimestamp(2, Timestamp.from(now.plusSeconds(60)));
        claim.setInt(3, 10);
        claim.setTimestamp(4, Timestamp.from(now));
        claim.setInt(5, 100);
        claim.setInt(6, 4 << 20);
        return plans(claim);
    }

    /** Runs {@code claim} and returns the plans auto_explain sent. */
    private static String plans(PreparedStatement claim) throws SQLException {
        claim.clearWarnings();
        try (var rs = claim.executeQuery()) {
            while (rs.next()) {
                // read all rows
            }
        }
        StringBuilder plans = new StringBuilder();
        for (SQLWarning w = claim.getWarnings(); w != null; w = w.getNextWarning()) {
            plans.append(w.getMessage()).append('\n');
        }
        for (SQLWarning w = claim.getConnection().getWarnings(); w != null; w = w.getNextWarning()) {
            plans.append(w.getMessage()).append('\n');
        }
        claim.getConnection().clearWarnings();
        assertThat(plans).as("auto_explain sent the plans").contains("outbox_events");
        return plans.toString();
    }
}
