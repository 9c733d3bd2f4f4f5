package io.eeoutbox.relay.ops;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.CompletionMode;
import io.eeoutbox.relay.store.DeadLetterFilter;
import io.eeoutbox.relay.store.OutboxStore;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * A minimal in-memory {@link OutboxStore} for the ops tests, held to the JDBC store's behaviour by the
 * {@code OutboxStoreContract} ({@link TinyStoreTest}): leases that end, the byte budget, ordered claims, deferral,
 * delete-on-publish and batched cleanup as sql/queries does them.
 */
final class TinyStore implements OutboxStore {

    static final class Row {
        final OutboxMessage message;
        int attempts;
        Instant dueAt;
        /** A promoted delayed event's promotion (schema V17's promoted_at); null for a row written directly. */
        Instant promotedAt;
        Instant deadAt;
        Instant processedAt;
        UUID token;
        Instant lockedUntil;
        String lastError;

        Row(OutboxMessage message) {
            this.message = message;
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private long seq;
    volatile boolean failAll;

    synchronized UUID insert(String aggregateType, String aggregateId, String eventType, String payload, Instant createdAt) {
        UUID id = UUID.randomUUID();
        rows.add(new Row(new OutboxMessage(id, ++seq, eventType, payload,
                new OutboxMessage.Aggregate(aggregateType, aggregateId), OutboxMessage.Delivery.of(createdAt, 0))));
        return id;
    }

    /** Delayed events (schema V14) waiting for their time: the message as it will be, and when it falls due. */
    private final List<Row> scheduled = new ArrayList<>();

    /** Like InsertOutboxEventAt: scheduled when notBefore is after the store's clock, else an outbox row at once. */
    synchronized UUID insertAt(String aggregateType, String aggregateId, String eventType, String payload,
                               Instant notBefore) {
        Instant now = Instant.now();
        if (!notBefore.isAfter(now)) {
            return insert(aggregateType, aggregateId, eventType, payload, now);
        }
        UUID id = UUID.randomUUID();
        Row r = new Row(new OutboxMessage(id, 0, eventType, payload,
                new OutboxMessage.Aggregate(aggregateType, aggregateId), OutboxMessage.Delivery.of(now, 0)));
        r.dueAt = notBefore;
        scheduled.add(r);
        return id;
    }

    /** Like outbox_promote_due (V14): the earliest due first, each with a fresh seq; the next due time after now. */
    @Override
    public synchronized Promoted promoteDue(Instant now, int maxRows) throws SQLException {
        check();
        List<Row> due = scheduled.stream().filter(r -> !r.dueAt.isAfter(now))
                .sorted((a, b) -> a.dueAt.compareTo(b.dueAt)).limit(maxRows).toList();
        for (Row s : due) {
            OutboxMessage m = s.message;
            Row promoted = new Row(new OutboxMessage(m.id(), ++seq, m.eventType(), m.payload(), m.aggregate(),
                    OutboxMessage.Delivery.of(m.createdAt(), 0)));
            promoted.promotedAt = now;
            rows.add(promoted);
        }
        scheduled.removeAll(due);
        return new Promoted(due.size(), nextDue().map(next -> java.time.Duration.ofMillis(Math.max(0,
                Math.floorDiv(java.time.Duration.between(now, next).toNanos() + 999_999, 1_000_000)))).orElse(null));
    }

    private java.util.Optional<Instant> nextDue() {
        return scheduled.stream().map(r -> r.dueAt).min(Instant::compareTo);
    }

    synchronized void makeDead(UUID id, Instant at) {
        Row r = find(id);
        r.deadAt = at;
        r.attempts = 10;
    }

    synchronized Row find(UUID id) {
        return rows.stream().filter(r -> r.message.id().equals(id)).findFirst().orElseThrow();
    }

    /** The row, or null when there is none (deleted, or never written): the statements skip such ids. */
    private Row rowOrNull(UUID id) {
        return rows.stream().filter(r -> r.message.id().equals(id)).findFirst().orElse(null);
    }

    /** Due for this claim: pending, not dead, below max attempts, past its retry time, no lease or an ended one. */
    private boolean due(Row r, Claim c) {
        return r.processedAt == null && r.deadAt == null && r.attempts < c.maxAttempts()
                && (r.dueAt == null || !r.dueAt.isAfter(c.now()))
                && (r.token == null || r.lockedUntil == null || !r.lockedUntil.isAfter(c.now()));
    }

    /** Ordered mode: an earlier unpublished row of the same aggregate (leased, waiting or dead) holds this one back. */
    private boolean heldBack(Row r) {
        OutboxMessage m = r.message;
        return rows.stream().anyMatch(p -> p.processedAt == null && p.message.seq() < m.seq()
                && p.message.aggregate().equals(m.aggregate()));
    }

    private void check() throws SQLException {
        if (failAll) {
            throw new SQLException("connection refused (test)", "08001");
        }
    }

    @Override
    public Session open() throws SQLException {
        check();
        return new Session() {
            @Override
            public Claimed claim(Claim c) throws SQLException {
                check();
                synchronized (TinyStore.this) {
                    List<OutboxMessage> out = new ArrayList<>();
                    long bytes = 0;
                    for (Row r : rows) {
                        if (out.size() == c.batchSize() || bytes >= c.maxBytes()) {
                            break;
                        }
                        if (r.message.seq() >= c.minSeq() && due(r, c) && !(c.ordered() && heldBack(r))) {
                            r.token = c.token();
                            r.lockedUntil = c.lockedUntil();
                            OutboxMessage m = r.message;
                            bytes += m.payload().getBytes(StandardCharsets.UTF_8).length;
                            out.add(new OutboxMessage(m.id(), m.seq(), m.eventType(), m.payload(),
                                    new OutboxMessage.Aggregate(m.aggregateType(), m.aggregateId()),
                                    OutboxMessage.Delivery.of(m.createdAt(), r.attempts + 1)));
                        }
                    }
                    return new Claimed(out, out.size() >= c.batchSize() || (!out.isEmpty() && bytes >= c.maxBytes()));
                }
            }

            @Override
            public int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException {
                check();
                synchronized (TinyStore.this) {
                    int n = 0;
                    for (UUID id : ids) {
                        Row r = rowOrNull(id);
                        if (r != null && token.equals(r.token)) {
                            if (mode == CompletionMode.DELETE) {
                                rows.remove(r);
                            } else {
                                r.processedAt = now;
                            }
                            r.token = null;
                            r.lockedUntil = null;
                            n++;
                        }
                    }
                    return n;
                }
            }

            @Override
            public List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts, List<Failure> failures)
                    throws SQLException {
                check();
                synchronized (TinyStore.this) {
                    List<FailureOutcome> out = new ArrayList<>();
                    for (Failure f : failures) {
                        Row r = rowOrNull(f.id());
                        if (r == null || !token.equals(r.token)) {
                            continue;
                        }
                        r.token = null;
                        r.lockedUntil = null;
                        r.attempts++;
                        r.dueAt = f.retryAfter();
                        r.lastError = f.error();
                        if (r.attempts >= maxAttempts) {
                            r.deadAt = now;
                        }
                        out.add(new FailureOutcome(r.message.id(), r.attempts, r.deadAt));
                    }
                    return out;
                }
            }

            @Override
            public int release(List<UUID> ids, UUID token) throws SQLException {
                check();
                synchronized (TinyStore.this) {
                    int n = 0;
                    for (UUID id : ids) {
                        Row r = rowOrNull(id);
                        if (r != null && token.equals(r.token) && r.processedAt == null) {
                            r.token = null;
                            r.lockedUntil = null;
                            n++;
                        }
                    }
                    return n;
                }
            }

            @Override
            public int defer(List<UUID> ids, UUID token, Instant now, Instant retryAfter, String error)
                    throws SQLException {
                check();
                synchronized (TinyStore.this) {
                    int n = 0;
                    for (UUID id : ids) {
                        Row r = rowOrNull(id);
                        if (r != null && token.equals(r.token) && r.processedAt == null) {
                            r.token = null;
                            r.lockedUntil = null;
                            r.dueAt = retryAfter;
                            n++;
                        }
                    }
                    return n;
                }
            }

            @Override
            public Promoted promoteDue(Instant now, int maxRows) throws SQLException {
                return TinyStore.this.promoteDue(now, maxRows);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public synchronized Stats stats() throws SQLException {
        check();
        long pending = 0;
        long dead = 0;
        Instant oldest = null;
        for (Row r : rows) {
            if (r.processedAt != null) {
                continue;
            }
            if (r.deadAt != null) {
                dead++;
            } else {
                pending++;
                Instant since = r.promotedAt != null ? r.promotedAt : r.message.createdAt();
                if (oldest == null || since.isBefore(oldest)) {
                    oldest = since;
                }
            }
        }
        return new Stats(pending, dead, oldest).withScheduled(scheduled.size(), nextDue().orElse(null));
    }

    @Override
    public synchronized boolean retryDeadLetter(UUID id) throws SQLException {
        check();
        for (Row r : rows) {
            if (r.message.id().equals(id) && r.deadAt != null && r.processedAt == null) {
                r.deadAt = null;
                r.attempts = 0;
                r.dueAt = null;
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized int retryDeadLetters(DeadLetterFilter filter) throws SQLException {
        check();
        int n = 0;
        for (Row r : rows) {
            OutboxMessage m = r.message;
            if (r.deadAt != null && r.processedAt == null && filter.matches(m.eventType(), m.aggregateType(),
                    m.aggregateId(), m.createdAt(), r.lastError)) {
                r.deadAt = null;
                r.attempts = 0;
                r.dueAt = null;
                n++;
            }
        }
        return n;
    }

    @Override
    public OptionalInt cleanupBatch(long lockKey, Instant now, java.time.Duration retention, int batchSize) throws SQLException {
        Instant processedBefore = now.minus(retention);
        check();
        synchronized (this) {
            List<Row> expired = rows.stream().filter(r -> r.processedAt != null && r.processedAt.isBefore(processedBefore))
                    .limit(batchSize).toList();
            rows.removeAll(expired);
            return OptionalInt.of(expired.size());
        }
    }
}
