package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

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
}
