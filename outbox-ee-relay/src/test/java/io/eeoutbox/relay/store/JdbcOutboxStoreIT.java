package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.testing.TestDatabase;
import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.store.OutboxStore.Promoted;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link OutboxStore} contract on the real store: sql/queries on PostgreSQL (one database for the class). */
class JdbcOutboxStoreIT extends OutboxStoreContract {

    private static TestDatabase.Db db;
    private JdbcOutboxStore store;

    @BeforeAll
    static void database() {
        db = TestDatabase.get().createDatabase("store_contract_it", false);
    }

    @BeforeEach
    void emptyOutbox() {
        db.execute("TRUNCATE outbox_events, outbox_scheduled");
        store = JdbcOutboxStore.withStatementClock(db.dataSource());
    }

    @Override
    protected OutboxStore store() {
        return store;
    }

    @Override
    protected UUID insert(String aggregateType, String aggregateId, String eventType, String payload) throws Exception {
        UUID id = UUID.randomUUID();
        try (Connection c = db.connect()) {
            new OutboxEventJdbc(c).insertOutboxEvent(
                    new InsertOutboxEventParams(id, aggregateType, aggregateId, eventType, payload, null));
        }
        return id;
    }

    @Override
    protected UUID insertAt(String aggregateType, String aggregateId, String eventType, String payload, Instant notBefore)
            throws Exception {
        UUID id = UUID.randomUUID();
        try (Connection c = db.connect()) {
            new OutboxEventJdbc(c).insertOutboxEventAt(
                    new InsertOutboxEventAtParams(id, aggregateType, aggregateId, eventType, payload, null, notBefore));
        }
        return id;
    }

    /** The console's pending rows per event type count a promoted event from its promotion, as the gauges do (V17). */
    @Test
    void thePendingRowsPerEventTypeCountAPromotedEventFromItsPromotion() throws Exception {
        Instant due = Instant.now().truncatedTo(ChronoUnit.MICROS).plus(Duration.ofHours(1));
        insertAt("order", "a", "order.reminder", "{}", due);
        insert("order", "b", "order.created", "{}");
        assertThat(store.promoteDue(due.plusSeconds(5), 10)).isEqualTo(new Promoted(1, null));
        assertThat(new OperatorQueries(db.dataSource()).pendingByEventType(10))
                .filteredOn(t -> t.eventType().equals("order.reminder")).singleElement()
                .satisfies(t -> assertThat(t.oldestPendingSince()).isEqualTo(due.plusSeconds(5)));
    }

    /**
     * A relay of this version on a schema without V17 (no promoted_at): the gauges and the console's pending rows per
     * event type still answer, counting a promoted event from its write as before V17 (docs/operations.md, "Delayed
     * events").
     */
    @Test
    void withoutV17ThePendingAgeCountsAPromotedEventFromItsWrite() throws Exception {
        TestDatabase.Db old = TestDatabase.get().createDatabaseWithout("store_v16_it", "V17");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant due = now.plus(Duration.ofHours(1));
        try (Connection c = old.connect()) {
            new OutboxEventJdbc(c).insertOutboxEventAt(new InsertOutboxEventAtParams(UUID.randomUUID(), "order", "a",
                    "order.reminder", "{}", null, due));
        }
        JdbcOutboxStore v16 = JdbcOutboxStore.withStatementClock(old.dataSource());
        assertThat(v16.promoteDue(due.plusSeconds(5), 10)).isEqualTo(new Promoted(1, null));
        assertThat(v16.stats().oldestPendingSince()).as("its write").isBefore(due).isAfter(now.minusSeconds(60));
        assertThat(new OperatorQueries(old.dataSource()).pendingByEventType(10)).singleElement()
                .satisfies(t -> assertThat(t.oldestPendingSince()).isBefore(due));
    }
}
