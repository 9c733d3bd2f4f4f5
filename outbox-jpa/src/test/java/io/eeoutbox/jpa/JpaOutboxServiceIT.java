package io.eeoutbox.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.ExportedEvent;
import io.eeoutbox.InvalidEventException;
import io.eeoutbox.NoActiveTransactionException;
import io.eeoutbox.OutboxCommitted;
import io.eeoutbox.OutboxService;
import io.eeoutbox.testing.JtaTestEnvironment;
import io.eeoutbox.testing.TestDatabase;
import io.eeoutbox.testing.TestOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OutboxService against a real PostgreSQL, with Hibernate ORM in a JTA persistence unit under
 * Narayana: the event row joins the caller's transaction, and bad input rolls back all of it.
 */
class JpaOutboxServiceIT {

    private static TestDatabase.Db db;
    private static JtaTestEnvironment env;
    private static TransactionManager tm;
    private static OutboxService outbox;

    @BeforeAll
    static void start() {
        db = TestDatabase.get().createDatabase("outbox_service_it", true);
        db.execute(TestOrder.DDL);
        env = JtaTestEnvironment.start(db, JtaResources.class, JpaOutboxService.class, ExportedEventObserver.class,
                Inbox.class, CommitWatcher.class);
        tm = env.transactionManager();
        outbox = env.bean(OutboxService.class);
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
    }

    @BeforeEach
    void clean() {
        db.execute("TRUNCATE outbox_events, outbox_scheduled, processed_events, test_orders");
        env.bean(CommitWatcher.class).seen().clear();
    }

    /** Collects the after-commit hints, as a relay in the same JVM would receive them. */
    @ApplicationScoped
    public static class CommitWatcher {
        private final List<OutboxCommitted> seen = new CopyOnWriteArrayList<>();

        void on(@Observes OutboxCommitted committed) {
            seen.add(committed);
        }

        /** What was observed so far (a method: the bean is reached through a client proxy). */
        public List<OutboxCommitted> seen() {
            return seen;
        }
    }

    private static EntityManager em() {
        return env.bean(EntityManager.class);
    }

    private static long count(String table) {
        return db.queryLong("SELECT count(*) FROM " + table);
    }

    @Test
    void commitStoresTheBusinessRowAndTheEvent() throws Exception {
        UUID id = env.inTransaction(() -> {
            em().persist(new TestOrder("o-1", "c-7", new BigDecimal("12.50")));
            return outbox.record("order", "o-1", "order.created", Map.of("orderId", "o-1", "total", 12.5));
        });

        assertThat(count("test_orders")).isEqualTo(1);
        try (Connection c = db.connect();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT aggregate_type, aggregate_id, event_type, payload->>'orderId', attempts, processed_at "
                             + "FROM outbox_events WHERE id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("event row with the returned id").isTrue();
                assertThat(rs.getString(1)).isEqualTo("order");
                assertThat(rs.getString(2)).isEqualTo("o-1");
                assertThat(rs.getString(3)).isEqualTo("order.created");
                assertThat(rs.getString(4)).isEqualTo("o-1");
                assertThat(rs.getInt(5)).isZero();
                assertThat(rs.getObject(6)).isNull();
            }
        }
        assertThat(id.version()).isEqualTo(7);
    }

    @Test
    void rollbackStoresNeither() throws Exception {
        tm.begin();
        em().persist(new TestOrder("o-2", "c-7", BigDecimal.TEN));
        outbox.record("order", "o-2", "order.created", "{\"orderId\":\"o-2\"}");
        tm.rollback();

        assertThat(count("test_orders")).isZero();
        assertThat(count("outbox_events")).isZero();
        assertThat(env.bean(CommitWatcher.class).seen()).as("no wake-up after a rollback").isEmpty();
    }

    @Test
    void noTransactionIsAClearErrorAndWritesNothing() {
        assertThatThrownBy(() -> outbox.record("order", "o-3", "order.created", "{}"))
                .isInstanceOf(NoActiveTransactionException.class)
                .hasMessageContaining("needs an active JTA transaction")
                .hasMessageContaining("nothing was written");
        assertThat(count("outbox_events")).isZero();
    }

    @Test
    void wakesTheLocalRelayOnceAfterCommit() throws Exception {
        env.inTransaction(() -> {
            outbox.record("order", "o-4", "order.created", "{}");
            outbox.record("order", "o-4", "order.status-changed", "{}");
            assertThat(env.bean(CommitWatcher.class).seen()).as("not before the commit").isEmpty();
            return null;
        });
        assertThat(env.bean(CommitWatcher.class).seen()).containsExactly(new OutboxCommitted(2));
    }

    /** A payload type as an application would write one (public, so JSON-B can read it). */
    public record Created(String orderId, BigDecimal total) {
    }

    @Test
    void acceptsJsonTextJsonValuesAndObjects() throws Exception {
        env.inTransaction(() -> {
            outbox.record("order", "a", "t", "[1,2,3]");
            outbox.record("order", "b", "t", Json.createObjectBuilder().add("k", "v").build());
            outbox.record("order", "c", "t", new Created("c", new BigDecimal("1.25")));
            return null;
        });
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = 'a' AND payload = '[1,2,3]'::jsonb")).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = 'b' AND payload = '{\"k\":\"v\"}'::jsonb")).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = 'c' AND payload = '{\"orderId\":\"c\",\"total\":1.25}'::jsonb")).isEqualTo(1);
    }

    public static final class Unserializable {
        public String getValue() {
            throw new IllegalStateException("cannot read value");
        }
    }

    static Stream<Arguments> badEvents() {
        String hundredOne = "x".repeat(101);
        String tooBig = "\"" + "a".repeat(EventValidator.DEFAULT_MAX_PAYLOAD_BYTES) + "\"";
        return Stream.of(
                Arguments.of("aggregateType", "must not be null", (Supplier<ExportedEvent>) () -> ExportedEvent.of(null, "1", "t", "{}")),
                Arguments.of("aggregateType", "must not be blank", (Supplier<ExportedEvent>) () -> ExportedEvent.of(" ", "1", "t", "{}")),
                Arguments.of("aggregateId", "must not be null", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", null, "t", "{}")),
                Arguments.of("aggregateId", "must not be blank", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "", "t", "{}")),
                Arguments.of("eventType", "must not be null", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", null, "{}")),
                Arguments.of("aggregateType", "limit is 100", (Supplier<ExportedEvent>) () -> ExportedEvent.of(hundredOne, "1", "t", "{}")),
                Arguments.of("aggregateId", "limit is 100", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", hundredOne, "t", "{}")),
                Arguments.of("eventType", "limit is 100", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", hundredOne, "{}")),
                Arguments.of("aggregateId", "NUL", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1\u00002", "t", "{}")),
                Arguments.of("payload", "not valid JSON", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", "t", "{\"total\": 12.5")),
                Arguments.of("payload", "must not be null", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", "t", null)),
                Arguments.of("payload", "cannot be serialized", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", "t", new Unserializable())),
                Arguments.of("payload", "limit is 1048576 bytes", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", "t", tooBig)),
                Arguments.of("payload", "\\u0000", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", "t", "{\"a\":\"\\u0000\"}")),
                Arguments.of("notBefore", "limit of 366 days", (Supplier<ExportedEvent>) () -> ExportedEvent.of("order", "1", "t", "{}")
                        .withNotBefore(Instant.now().plus(Duration.ofDays(367)))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badEvents")
    void badInputIsRefusedAndRollsBackTheWholeTransaction(String field, String problem, Supplier<ExportedEvent> event)
            throws Exception {
        tm.begin();
        try {
            em().persist(new TestOrder("o-bad", "c-1", BigDecimal.ONE));
            outbox.record("order", "o-bad", "order.created", "{}"); // a good event before the bad one
            assertThatThrownBy(() -> outbox.record(event.get()))
                    .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                        assertThat(e.field()).isEqualTo(field);
                        assertThat(e.getMessage()).contains(field).contains(problem);
                    });
            assertThat(tm.getStatus()).as("caller's transaction marked rollback-only").isEqualTo(Status.STATUS_MARKED_ROLLBACK);
        } finally {
            // The caller swallows the exception and tries to commit anyway: it must not succeed.
            assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        }
        assertThat(count("test_orders")).isZero();
        assertThat(count("outbox_events")).isZero();
        assertThat(count("outbox_scheduled")).isZero();
    }

    /** A delayed event (schema V14) waits in outbox_scheduled; a past notBefore is now; a rollback writes neither. */
    @Test
    void aDelayedEventIsScheduledWithTheCallersTransactionAndAPastOneIsDueAtOnce() throws Exception {
        Instant later = Instant.now().plus(Duration.ofHours(1));
        Event<ExportedEvent> events = env.container().select(new TypeLiteral<Event<ExportedEvent>>() { }).get();
        UUID delayed = env.inTransaction(() -> {
            em().persist(new TestOrder("o-d", "c-1", BigDecimal.ONE));
            events.fire(ExportedEvent.of("order", "o-d", "order.reminder", "{}").withNotBefore(later));
            return outbox.record("order", "o-d", "order.payment-overdue", "{}", later.plusSeconds(60));
        });
        UUID past = env.inTransaction(() -> outbox.record("order", "o-d", "order.noted", "{}",
                Instant.now().minusSeconds(60)));
        assertThat(db.queryLong("SELECT count(*) FROM outbox_scheduled WHERE id = '" + delayed + "' AND not_before = '"
                + later.plusSeconds(60) + "'::timestamptz")).isEqualTo(1);
        assertThat(count("outbox_scheduled")).isEqualTo(2);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE id = '" + past + "'")).isEqualTo(1);
        assertThat(count("outbox_events")).as("only the past one is pending").isEqualTo(1);

        tm.begin();
        outbox.record("order", "o-r", "order.reminder", "{}", later);
        tm.rollback();
        assertThat(count("outbox_scheduled")).isEqualTo(2);
    }

    @Test
    void cdiEventPathRecordsInTheCallersTransaction() throws Exception {
        Event<ExportedEvent> events = env.container().select(new TypeLiteral<Event<ExportedEvent>>() { }).get();
        env.inTransaction(() -> {
            em().persist(new TestOrder("o-5", "c-1", BigDecimal.ONE));
            events.fire(ExportedEvent.of("order", "o-5", "order.created", "{\"orderId\":\"o-5\"}"));
            return null;
        });
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = 'o-5'")).isEqualTo(1);

        tm.begin();
        em().persist(new TestOrder("o-6", "c-1", BigDecimal.ONE));
        events.fire(ExportedEvent.of("order", "o-6", "order.created", "{}"));
        tm.rollback();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = 'o-6'")).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM test_orders WHERE id = 'o-6'")).isZero();

        tm.begin();
        try {
            assertThatThrownBy(() -> events.fire(ExportedEvent.of("order", "o-7", "", "{}")))
                    .isInstanceOf(InvalidEventException.class).hasMessageContaining("eventType");
        } finally {
            assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        }
    }

    @Test
    void inboxSaysNewOnceAndDuplicateAfterwards() throws Exception {
        Inbox inbox = env.bean(Inbox.class);
        UUID eventId = UUID.randomUUID();

        tm.begin();
        assertThat(inbox.firstDelivery("projection", eventId)).isTrue();
        tm.rollback();
        assertThat(env.inTransaction(() -> inbox.firstDelivery("projection", eventId)))
                .as("a rolled-back delivery does not count").isTrue();
        assertThat(env.inTransaction(() -> inbox.firstDelivery("projection", eventId))).isFalse();
        assertThat(env.inTransaction(() -> inbox.firstDelivery("projection", eventId))).isFalse();
        assertThat(env.inTransaction(() -> inbox.firstDelivery("billing", eventId)))
                .as("another consumer has its own record").isTrue();
        assertThatThrownBy(() -> inbox.firstDelivery("projection", UUID.randomUUID()))
                .isInstanceOf(NoActiveTransactionException.class);
        assertThat(count("processed_events")).isEqualTo(2);
    }

    @Test
    void aConsumerForgetsInboxRecordsOlderThanTheRetentionInItsOwnTransaction() throws Exception {
        Inbox inbox = env.bean(Inbox.class);
        db.execute("INSERT INTO processed_events (consumer, event_id, processed_at) VALUES "
                + "('projection', gen_random_uuid(), now() - interval '40 days'), "
                + "('billing', gen_random_uuid(), now() - interval '31 days'), "
                + "('projection', gen_random_uuid(), now() - interval '29 days'), "
                + "('projection', gen_random_uuid(), now())");

        tm.begin();
        assertThat(inbox.forgetOlderThan(Duration.ofDays(30), 10)).isEqualTo(2);
        tm.rollback();
        assertThat(count("processed_events")).as("a rolled-back cleanup deletes nothing").isEqualTo(4);

        assertThat(env.inTransaction(() -> inbox.forgetOlderThan(Duration.ofDays(30), 1))).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM processed_events WHERE processed_at < now() - interval '35 days'"))
                .as("oldest first").isZero();
        assertThat(env.inTransaction(() -> inbox.forgetOlderThan(Duration.ofDays(30), 1))).isEqualTo(1);
        assertThat(env.inTransaction(() -> inbox.forgetOlderThan(Duration.ofDays(30), 1))).as("nothing more is due").isZero();
        assertThat(count("processed_events")).as("the records within 30 days stay").isEqualTo(2);

        assertThatThrownBy(() -> inbox.forgetOlderThan(Duration.ofDays(30), 1)).isInstanceOf(NoActiveTransactionException.class);
    }

    @Test
    void forgettingRefusesARetentionOrBatchOutsideItsLimitsNamingIt() throws Exception {
        Inbox inbox = env.bean(Inbox.class);
        db.execute("INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('projection', gen_random_uuid(), now() - interval '2 hours')");
        for (Duration bad : new Duration[] {null, Duration.ofMinutes(59), Duration.ofDays(36_501)}) {
            assertThatThrownBy(() -> env.inTransaction(() -> inbox.forgetOlderThan(bad, 10)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retention")
                    .hasMessageContaining("PT1H").hasMessageContaining("P36500D");
        }
        for (int bad : new int[] {0, -1, 100_001}) {
            assertThatThrownBy(() -> env.inTransaction(() -> inbox.forgetOlderThan(Duration.ofHours(1), bad)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batchSize").hasMessageContaining("100000");
        }
        assertThat(count("processed_events")).as("nothing deleted").isEqualTo(1);
        assertThat(env.inTransaction(() -> inbox.forgetOlderThan(Duration.ofDays(36_500), 100_000))).as("the limits themselves").isZero();
        assertThatThrownBy(() -> inbox.forgetOlderThan(Duration.ofMinutes(1), 10)).as("refused before it needs a transaction")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retention");
    }
}
