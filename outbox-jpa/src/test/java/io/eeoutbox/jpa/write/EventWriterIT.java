package io.eeoutbox.jpa.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.jpa.JtaResources;
import io.eeoutbox.jpa.generated.InsertOutboxEventAtParams;
import io.eeoutbox.jpa.generated.InsertOutboxEventParams;
import io.eeoutbox.testing.JtaTestEnvironment;
import io.eeoutbox.testing.TestDatabase;
import io.eeoutbox.testing.TestOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.TransactionManager;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The route record() writes by, on Hibernate in a JTA persistence unit under Narayana against a real PostgreSQL:
 * the generated statement on the session's connection commits and rolls back with the caller's transaction, and a
 * row the database refuses is a PersistenceException.
 */
class EventWriterIT {

    private static TestDatabase.Db db;
    private static JtaTestEnvironment env;
    private static TransactionManager tm;
    private static final EventWriter WRITER = EventWriter.detect();

    @BeforeAll
    static void start() {
        db = TestDatabase.get().createDatabase("event_writer_it", true);
        db.execute(TestOrder.DDL);
        env = JtaTestEnvironment.start(db, JtaResources.class);
        tm = env.transactionManager();
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
    }

    @BeforeEach
    void clean() {
        db.execute("TRUNCATE outbox_events, outbox_scheduled, test_orders");
    }

    private static EntityManager em() {
        return env.bean(EntityManager.class);
    }

    private static InsertOutboxEventParams row(UUID id, String trace) {
        return new InsertOutboxEventParams(id, "order", "o-1", "order.created", "{\"orderId\":\"o-1\"}", trace);
    }

    @Test
    void onHibernateTheRowGoesThroughTheSessionsConnection() {
        assertThat(WRITER.route()).isEqualTo("Hibernate session connection (JDBC)");
    }

    @Test
    void theRowCommitsWithTheBusinessRow() throws Exception {
        UUID id = UUID.randomUUID();
        tm.begin();
        em().persist(new TestOrder("o-1", "c-1", BigDecimal.ONE));
        WRITER.insert(em(), row(id, "traceparent=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        tm.commit();

        assertThat(db.queryLong("SELECT count(*) FROM test_orders")).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE id = '" + id + "' AND payload->>'orderId' = 'o-1'"
                + " AND tracingspancontext LIKE 'traceparent=00-0af7%'")).isEqualTo(1);
    }

    @Test
    void aNullTraceContextIsStoredAsNull() throws Exception {
        UUID id = UUID.randomUUID();
        tm.begin();
        WRITER.insert(em(), row(id, null));
        tm.commit();

        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE id = '" + id + "' AND tracingspancontext IS NULL"))
                .isEqualTo(1);
    }

    @Test
    void theRowRollsBackWithTheCallersTransaction() throws Exception {
        tm.begin();
        em().persist(new TestOrder("o-2", "c-1", BigDecimal.ONE));
        WRITER.insert(em(), row(UUID.randomUUID(), null));
        em().flush();
        tm.rollback();

        assertThat(db.queryLong("SELECT count(*) FROM test_orders")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events")).isZero();
    }

    @Test
    void aRowTheDatabaseRefusesIsAPersistenceException() throws Exception {
        UUID id = UUID.randomUUID();
        tm.begin();
        try {
            WRITER.insert(em(), row(id, null));
            assertThatThrownBy(() -> WRITER.insert(em(), row(id, null)))
                    .isInstanceOf(PersistenceException.class)
                    .hasStackTraceContaining("outbox_events_pkey");
        } finally {
            tm.rollback();
        }
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events")).isZero();
    }

    /** A delayed row (schema V14) by both routes, the session's connection and the portable named native query. */
    @Test
    void aDelayedRowIsScheduledAndAPastOneIsDueByBothRoutes() throws Exception {
        for (EventWriter writer : new EventWriter[] {WRITER, new NativeQueryWriter()}) {
            UUID later = UUID.randomUUID();
            UUID past = UUID.randomUUID();
            tm.begin();
            writer.insertAt(em(), new InsertOutboxEventAtParams(later, "order", "o-1", "order.reminder", "{}", null,
                    Instant.now().plusSeconds(3600)));
            writer.insertAt(em(), new InsertOutboxEventAtParams(past, "order", "o-1", "order.reminder", "{}", null,
                    Instant.now().minusSeconds(60)));
            tm.commit();
            assertThat(db.queryLong("SELECT count(*) FROM outbox_scheduled WHERE id = '" + later + "'"))
                    .as(writer.route()).isEqualTo(1);
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE id = '" + past + "'"))
                    .as(writer.route()).isEqualTo(1);
        }
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events")).isEqualTo(2);
    }
}
