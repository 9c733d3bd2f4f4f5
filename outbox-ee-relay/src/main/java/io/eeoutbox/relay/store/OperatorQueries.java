package io.eeoutbox.relay.store;

import io.eeoutbox.jpa.generated.CountOutboxDeadLettersMatchingParams;
import io.eeoutbox.jpa.generated.FindOutboxEventRow;
import io.eeoutbox.jpa.generated.ListOutboxDeadLettersMatchingParams;
import io.eeoutbox.jpa.generated.ListOutboxDeadLettersMatchingRow;
import io.eeoutbox.jpa.generated.OutboxEventJdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The statements only an operator runs, beside the relay's own {@link OutboxStore}: the pending rows per event
 * type, and the dead letters by a {@link DeadLetterFilter} (list, count, one by id; the retry is the store's). They are the
 * generated statements of {@code sql/queries/outbox_events.sql}, each in autocommit on the relay's (non-JTA) data
 * source; nothing from a request reaches them except as a parameter. Called by {@code ops.RelayOperations} only.
 */
public final class OperatorQueries {

    private final DataSource dataSource;
    /** Set once the schema answered that it has no V17 (docs/operations.md, "Delayed events"). */
    private final java.util.concurrent.atomic.AtomicBoolean beforeV17 = new java.util.concurrent.atomic.AtomicBoolean();

    public OperatorQueries(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Pending rows (dead letters not included) of one event type, and since when the oldest has been pending: its
     * creation, or its promotion for a delayed event (schema V17).
     */
    public record PendingOfType(String eventType, long pending, Instant oldestPendingSince) {
    }

    /** A dead letter; {@code payload} may be cut (then {@code payloadCut}). */
    public record DeadLetter(UUID id, long seq, Event event, Outcome outcome, String payload, boolean payloadCut) {
    }

    /** What an event is about. */
    public record Event(String aggregateType, String aggregateId, String eventType, Instant createdAt) {
    }

    /** How a dead letter's publishing ended. */
    public record Outcome(int attempts, Instant deadAt, String lastError) {
    }

    /** Cdc mode: the connector's replication slot {@code slotName} (docs/cdc.md, "What to watch"). */
    public CdcStatements.Slot cdcSlot(String slotName) throws SQLException {
        return CdcStatements.slot(dataSource, slotName);
    }

    /** Pending rows per event type, the largest first, at most {@code maxTypes} types. */
    public List<PendingOfType> pendingByEventType(int maxTypes) throws SQLException {
        try (Connection c = connection()) {
            return ScheduledStatements.pendingByEventType(c, maxTypes, beforeV17);
        }
    }

    /**
     * Up to {@code maxRows} dead letters matching {@code f} in write order after the cursor {@code afterSeq}, their
     * payloads cut to {@code payloadChars} characters.
     */
    public List<DeadLetter> deadLetters(DeadLetterFilter f, long afterSeq, int maxRows, int payloadChars)
            throws SQLException {
        List<ListOutboxDeadLettersMatchingRow> rows;
        try (Connection c = connection()) {
            rows = new OutboxEventJdbc(c).listOutboxDeadLettersMatching(new ListOutboxDeadLettersMatchingParams(
                    payloadChars, f.eventType(), f.aggregateType(), f.aggregateId(), f.createdFrom(), f.createdTo(),
                    f.errorText(), afterSeq, maxRows));
        }
        List<DeadLetter> out = new ArrayList<>();
        for (ListOutboxDeadLettersMatchingRow r : rows) {
            out.add(new DeadLetter(r.id(), r.seq(), new Event(r.aggregateType(), r.aggregateId(), r.eventType(),
                    r.createdAt()), new Outcome(r.attempts(), r.deadAt(), r.lastError()), r.payloadHead(),
                    Boolean.TRUE.equals(r.payloadCut())));
        }
        return out;
    }

    /** One dead letter with its whole payload; empty when {@code id} is no dead letter. */
    public Optional<DeadLetter> deadLetter(UUID id) throws SQLException {
        Optional<FindOutboxEventRow> found;
        try (Connection c = connection()) {
            found = new OutboxEventJdbc(c).findOutboxEvent(id);
        }
        return found.filter(r -> r.deadAt() != null && r.processedAt() == null)
                .map(r -> new DeadLetter(r.id(), r.seq(), new Event(r.aggregateType(), r.aggregateId(), r.eventType(),
                        r.createdAt()), new Outcome(r.attempts(), r.deadAt(), r.lastError()), r.payload(), false));
    }

    /** How many dead letters match {@code f} now. */
    public long countDeadLetters(DeadLetterFilter f) throws SQLException {
        try (Connection c = connection()) {
            return new OutboxEventJdbc(c).countOutboxDeadLettersMatching(new CountOutboxDeadLettersMatchingParams(
                    f.eventType(), f.aggregateType(), f.aggregateId(), f.createdFrom(), f.createdTo(), f.errorText()))
                    .orElse(0L);
        }
    }

    private Connection connection() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            c.setAutoCommit(true);
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }
}
