package io.eeoutbox.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.RelayIt;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.OperatorQueries;
import io.eeoutbox.relay.store.OperatorQueries.DeadLetter;
import io.eeoutbox.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operations service over PostgreSQL, as the console uses it: the pending rows per event type, the dead letters
 * page by page, one dead letter, the count and the retry by the full filter, through {@link OperatorQueries}; and
 * the retry by the MBean's filter through the relay's store, changing the same rows.
 */
class RelayOperationsIT {

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private TestDatabase.Db db;
    private RelayOperations ops;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get().createDatabase("relay_operations_it", false);
        OutboxRelay relay = OutboxRelay.builder().config(RelayIt.config("ops").build()).dataSource(db.dataSource())
                .executor(executor).publisher(message -> { }).build(); // never started: nothing is claimed
        ops = new RelayOperations(relay, new OperatorQueries(db.dataSource()), List::of, Map.of("extra.key", "x"),
                Clock.systemUTC(), null);
    }

    @AfterEach
    void tearDown() {
        executor.shutdownNow();
    }

    private void dead(List<UUID> ids, String error) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement("UPDATE outbox_events SET attempts"
                + " = 10, dead_at = now(), last_error = ? WHERE id = ANY (?)")) {
            s.setString(1, error);
            s.setArray(2, c.createArrayOf("uuid", ids.toArray()));
            assertThat(s.executeUpdate()).isEqualTo(ids.size());
        }
    }

    @Test
    void theConsolesReadsAndRetriesGoThroughTheStore() throws Exception {
        List<UUID> orders = RelayIt.write(db, List.of(new RelayIt.Event("order", "o1", "order.created"),
                new RelayIt.Event("order", "o2", "order.created"), new RelayIt.Event("order", "o3", "order.created"),
                new RelayIt.Event("order", "o4", "order.paid")), true);
        RelayIt.write(db, List.of(new RelayIt.Event("invoice", "i1", "invoice.sent")), true);
        dead(orders.subList(0, 2), "broker refused: queue full");
        dead(orders.subList(2, 3), "serializer failed");

        RelayOperations.Backlog backlog = ops.backlog(10);
        assertThat(backlog.pending()).isEqualTo(2);
        assertThat(backlog.dead()).isEqualTo(3);
        assertThat(backlog.byType()).extracting(RelayOperations.PendingType::eventType)
                .containsExactly("invoice.sent", "order.paid");

        RelayOperations.DeadLetterPage first = ops.deadLetters(DeadLetterFilter.ALL, 0, 2, 3);
        assertThat(first.items()).extracting(DeadLetter::id).containsExactly(orders.get(0), orders.get(1));
        assertThat(first.items().get(0).payload()).isEqualTo("{\"n");
        assertThat(first.items().get(0).payloadCut()).isTrue();
        RelayOperations.DeadLetterPage second = ops.deadLetters(DeadLetterFilter.ALL, first.nextAfterSeq(), 2, 3);
        assertThat(second.items()).extracting(DeadLetter::id).containsExactly(orders.get(2));
        assertThat(second.nextAfterSeq()).isNull();

        assertThat(ops.deadLetter(orders.get(2))).get().satisfies(d -> {
            assertThat(d.event().aggregateId()).isEqualTo("o3");
            assertThat(d.outcome().lastError()).isEqualTo("serializer failed");
            assertThat(d.payload()).isEqualTo("{\"n\": 2}");
        });
        assertThat(ops.deadLetter(orders.get(3))).as("pending, no dead letter").isEmpty();

        DeadLetterFilter queueFull = new DeadLetterFilter("order.created", null, "o2", null, null, "QUEUE FULL");
        assertThat(ops.countDeadLetters(queueFull)).isEqualTo(1);
        assertThat(ops.retryDeadLetters(queueFull)).isEqualTo(1);
        assertThat(ops.countDeadLetters(DeadLetterFilter.ALL)).isEqualTo(2);

        DeadLetterFilter byType = new DeadLetterFilter("order.created", "order", null, null, null, null);
        assertThat(ops.retryDeadLetters(byType)).as("through the relay's store").isEqualTo(2);
        assertThat(ops.stats().dead()).isZero();
        assertThat(ops.stats().pending()).isEqualTo(5);
        assertThat(ops.settings()).containsEntry("extra.key", "x").containsKey("outbox.relay.name");
        assertThat(ops.purgeProcessedOlderThan(Duration.ZERO)).isZero();
    }
}
