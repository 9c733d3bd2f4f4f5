package io.eeoutbox.relay.store;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.relay.config.CompletionMode;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** An in-memory outbox with the claim, complete, fail and release rules of sql/queries, for unit tests. */
public final class FakeOutboxStore implements OutboxStore {

    public static final class Row {
        public final UUID id;
        public final long seq;
        public final String aggregateType;
        public final String aggregateId;
        public final String eventType;
        /** When the row was written: the store's clock, as PostgreSQL's now() at insert. */
        public Instant createdAt = Instant.now();
        /** A promoted delayed event's promotion (schema V17's promoted_at): the promotion's now; null otherwise. */
        public Instant promotedAt;
        public String payload = "{}";
        public int attempts;
        public Instant retryAfter;
        public UUID claimToken;
        public Instant lockedUntil;
        public Instant deadAt;
        public Instant processedAt;
        public String lastError;
        public boolean deleted;

        Row(long seq, String aggregateType, String aggregateId, String eventType) {
            this(UUID.randomUUID(), seq, aggregateType, aggregateId, eventType);
        }

        Row(UUID id, long seq, String aggregateType, String aggregateId, String eventType) {
            this.id = id;
            this.seq = seq;
            this.aggregateType = aggregateType;
            this.aggregateId = aggregateId;
            this.eventType = eventType;
        }

        boolean pending() {
            return !deleted && processedAt == null;
        }
    }

    public final Map<UUID, Row> rows = new LinkedHashMap<>();
    public final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    public final AtomicInteger failNextStatements = new AtomicInteger();
    boolean reverseReturningOrder = true;
    private long nextSeq = 1;

    public synchronized Row insert(String aggregateType, String aggregateId, String eventType) {
        Row r = new Row(nextSeq++, aggregateType, aggregateId, eventType);
        rows.put(r.id, r);
        return r;
    }

    /** A delayed event (schema V14) waiting for its time; not a row of the outbox until promoted. */
    public record Scheduled(UUID id, String aggregateType, String aggregateId, String eventType, String payload,
                            Instant createdAt, Instant notBefore) {
    }

    public final List<Scheduled> scheduled = new ArrayList<>();

    /** Like InsertOutboxEventAt: scheduled when notBefore is after the store's clock, else an outbox row at once. */
    public synchronized UUID insertAt(String aggregateType, String aggregateId, String eventType, String payload,
                                      Instant notBefore) {
        if (notBefore.isAfter(Instant.now())) {
            UUID id = UUID.randomUUID();
            scheduled.add(new Scheduled(id, aggregateType, aggregateId, eventType, payload, Instant.now(), notBefore));
            return id;
        }
        Row r = insert(aggregateType, aggregateId, eventType);
        r.payload = payload;
        return r.id;
    }

    /** Like outbox_promote_due (V14): the earliest due first, each with a fresh seq; the next due time after now. */
    @Override
    public synchronized Promoted promoteDue(Instant now, int maxRows) {
        calls.add("promote"); // not counted by failNextStatements: those fail the drain's own statements
        List<Scheduled> due = scheduled.stream().filter(s -> !s.notBefore().isAfter(now))
                .sorted(java.util.Comparator.comparing(Scheduled::notBefore)).limit(maxRows).toList();
        for (Scheduled s : due) {
            Row r = new Row(s.id(), nextSeq++, s.aggregateType(), s.aggregateId(), s.eventType());
            r.payload = s.payload();
            r.createdAt = s.createdAt();
            r.promotedAt = now;
            rows.put(r.id, r);
        }
        scheduled.removeAll(due);
        return new Promoted(due.size(), scheduled.stream().map(Scheduled::notBefore).min(Instant::compareTo)
                .map(next -> ceilMillis(now, next)).orElse(null));
    }

    /** Milliseconds from {@code now} to {@code next}, rounded up, at least zero: as the database computes it. */
    static java.time.Duration ceilMillis(Instant now, Instant next) {
        long nanos = java.time.Duration.between(now, next).toNanos();
        return java.time.Duration.ofMillis(Math.max(0, Math.floorDiv(nanos + 999_999, 1_000_000)));
    }

    public synchronized Row row(UUID id) {
        return rows.get(id);
    }

    private void maybeFail(String call) throws SQLException {
        calls.add(call);
        if (failNextStatements.get() > 0) {
            failNextStatements.decrementAndGet();
            throw new SQLException("connection refused (fake)", "08001");
        }
    }

    @Override
    public Session open() throws SQLException {
        maybeFail("open");
        return new Session() {
            @Override
            public Claimed claim(Claim c) throws SQLException {
                return FakeOutboxStore.this.claim(c);
            }

            @Override
            public int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException {
                return FakeOutboxStore.this.complete(mode, ids, token, now);
            }

            @Override
            public CompletedAndClaimed completeAndClaim(CompletionMode mode, List<UUID> ids, UUID doneToken, Claim next)
                    throws SQLException {
                return FakeOutboxStore.this.completeAndClaim(mode, ids, doneToken, next);
            }

            @Override
            public List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts, List<Failure> failures)
                    throws SQLException {
                return FakeOutboxStore.this.recordFailures(token, now, maxAttempts, failures);
            }

            @Override
            public int release(List<UUID> ids, UUID token) throws SQLException {
                return FakeOutboxStore.this.release(ids, token);
            }

            @Override
            public Promoted promoteDue(Instant now, int maxRows) {
                return FakeOutboxStore.this.promoteDue(now, maxRows);
            }

            @Override
            public int defer(List<UUID> ids, UUID token, Instant now, Instant retryAfter, String error) throws SQLException {
                return FakeOutboxStore.this.defer(ids, token, retryAfter, error);
            }

            @Override
            public void close() {
                calls.add("close");
            }
        };
    }

    /** Both in one step, as one statement: a failure leaves neither done. */
    public synchronized CompletedAndClaimed completeAndClaim(CompletionMode mode, List<UUID> ids, UUID doneToken, Claim next)
            throws SQLException {
        maybeFail("complete+claim:" + mode + ":" + ids.size());
        List<Row> completed = completeRows(mode, ids, doneToken, next.now());
        Claimed claimed = claimRows(next, completed);
        return new CompletedAndClaimed(completed.size(), claimed.messages(), claimed.full(), claimed.walkNext());
    }

    public synchronized Claimed claim(Claim c) throws SQLException {
        maybeFail("claim");
        return claimRows(c, List.of());
    }

    /**
     * Like the V9 claim: from seq minSeq, up to batchSize rows, stopping once they hold maxBytes of payload (UTF-8
     * here). Ordered, like V11: first the earliest pending event of each aggregate of the batchSize / 2 oldest rows of
     * {@code completed} when it is due, then the walk from minSeq; walkNext as V11 computes it.
     */
    private Claimed claimRows(Claim c, List<Row> completed) {
        List<Row> taken = new ArrayList<>();
        long bytes = 0;
        if (c.ordered() && c.batchSize() / 2 > 0) {
            List<Row> heads = new ArrayList<>();
            List<Row> oldest = new ArrayList<>(completed);
            oldest.sort((a, b) -> Long.compare(a.seq, b.seq));
            for (Row done : oldest.subList(0, Math.min(oldest.size(), c.batchSize() / 2))) {
                rows.values().stream().filter(r -> r.pending() && sameAggregate(r, done))
                        .min((a, b) -> Long.compare(a.seq, b.seq))
                        .filter(h -> due(h, c) && !heads.contains(h)).ifPresent(heads::add);
            }
            bytes = take(heads, c.batchSize() / 2, c.maxBytes(), c, taken);
        }
        int need = c.batchSize() - taken.size();
        long walkNext = c.minSeq();
        if (bytes < c.maxBytes()) {
            List<Row> due = new ArrayList<>();
            for (Row r : rows.values()) {
                if (r.seq >= c.minSeq() && due(r, c) && !(c.ordered() && rows.values().stream()
                        .anyMatch(p -> p.pending() && p.seq < r.seq && sameAggregate(p, r)))) {
                    due.add(r); // like V9: the claim starts at seq minSeq
                }
            }
            int before = taken.size();
            long walkBytes = take(due, need, c.maxBytes() - bytes, c, taken);
            List<Row> walked = taken.subList(before, taken.size());
            walkNext = walked.size() >= need || bytes + walkBytes >= c.maxBytes()
                    ? walked.stream().mapToLong(r -> r.seq).max().orElse(c.minSeq() - 1) + 1
                    : Math.max(c.minSeq(), rows.values().stream().filter(Row::pending).mapToLong(r -> r.seq).max()
                            .orElse(c.minSeq() - 1) + 1);
            bytes += walkBytes;
        }
        List<OutboxMessage> out = new ArrayList<>();
        for (Row r : taken) {
            out.add(new OutboxMessage(r.id, r.seq, r.eventType, r.payload,
                    new OutboxMessage.Aggregate(r.aggregateType, r.aggregateId),
                    OutboxMessage.Delivery.of(Instant.EPOCH, r.attempts + 1)));
        }
        if (reverseReturningOrder) {
            Collections.reverse(out);
        }
        return new Claimed(out, Claimed.full(c, out.size(), bytes), c.ordered() ? walkNext : -1L);
    }

    private static boolean sameAggregate(Row a, Row b) {
        return a.aggregateType.equals(b.aggregateType) && a.aggregateId.equals(b.aggregateId);
    }

    private static boolean due(Row r, Claim c) {
        return r.pending() && r.deadAt == null && r.attempts < c.maxAttempts()
                && (r.retryAfter == null || !r.retryAfter.isAfter(c.now()))
                && (r.lockedUntil == null || !r.lockedUntil.isAfter(c.now()));
    }

    /** Leases the oldest of {@code candidates}, up to {@code limit} rows within {@code maxBytes} (the first always goes). */
    private static long take(List<Row> candidates, int limit, long maxBytes, Claim c, List<Row> taken) {
        candidates.sort((a, b) -> Long.compare(a.seq, b.seq));
        long bytes = 0;
        for (Row r : candidates.subList(0, Math.max(0, Math.min(limit, candidates.size())))) {
            if (bytes >= maxBytes) {
                break;
            }
            bytes += r.payload.getBytes(StandardCharsets.UTF_8).length;
            r.claimToken = c.token();
            r.lockedUntil = c.lockedUntil();
            taken.add(r);
        }
        return bytes;
    }

    public synchronized int defer(List<UUID> ids, UUID token, Instant retryAfter, String error) throws SQLException {
        maybeFail("defer:" + ids.size());
        int n = 0;
        for (UUID id : ids) {
            Row r = rows.get(id);
            if (r != null && r.pending() && token.equals(r.claimToken)) {
                r.retryAfter = retryAfter;
                r.lastError = error;
                r.claimToken = null;
                r.lockedUntil = null;
                n++;
            }
        }
        return n;
    }

    public synchronized int complete(CompletionMode mode, List<UUID> ids, UUID token, Instant now) throws SQLException {
        maybeFail("complete:" + mode + ":" + ids.size());
        return completeRows(mode, ids, token, now).size();
    }

    private List<Row> completeRows(CompletionMode mode, List<UUID> ids, UUID token, Instant now) {
        List<Row> n = new ArrayList<>();
        for (UUID id : ids) {
            Row r = rows.get(id);
            if (r != null && !r.deleted && token.equals(r.claimToken)) {
                if (mode == CompletionMode.DELETE) {
                    r.deleted = true;
                } else {
                    r.processedAt = now;
                }
                r.claimToken = null;
                r.lockedUntil = null;
                n.add(r);
            }
        }
        return n;
    }

    public synchronized List<FailureOutcome> recordFailures(UUID token, Instant now, int maxAttempts, List<Failure> failures)
            throws SQLException {
        maybeFail("fail:" + failures.size());
        List<FailureOutcome> out = new ArrayList<>();
        for (Failure f : failures) {
            Row r = rows.get(f.id());
            if (r != null && token.equals(r.claimToken)) {
                r.attempts++;
                r.retryAfter = f.retryAfter();
                r.lastError = f.error();
                r.deadAt = r.attempts >= maxAttempts ? now : null;
                r.claimToken = null;
                r.lockedUntil = null;
                out.add(new FailureOutcome(r.id, r.attempts, r.deadAt));
            }
        }
        return out;
    }

    public synchronized int release(List<UUID> ids, UUID token) throws SQLException {
        maybeFail("release:" + ids.size());
        int n = 0;
        for (UUID id : ids) {
            Row r = rows.get(id);
            if (r != null && token.equals(r.claimToken) && r.pending()) {
                r.claimToken = null;
                r.lockedUntil = null;
                n++;
            }
        }
        return n;
    }

    @Override
    public synchronized Stats stats() {
        long pending = rows.values().stream().filter(r -> r.pending() && r.deadAt == null).count();
        long dead = rows.values().stream().filter(r -> r.pending() && r.deadAt != null).count();
        Instant oldest = rows.values().stream().filter(r -> r.pending() && r.deadAt == null)
                .map(r -> r.promotedAt != null ? r.promotedAt : r.createdAt).min(Instant::compareTo).orElse(null);
        return new Stats(pending, dead, oldest).withScheduled(scheduled.size(),
                scheduled.stream().map(Scheduled::notBefore).min(Instant::compareTo).orElse(null));
    }

    @Override
    public synchronized boolean retryDeadLetter(UUID id) {
        Row r = rows.get(id);
        if (r == null || !r.pending() || r.deadAt == null) {
            return false;
        }
        r.attempts = 0;
        r.retryAfter = null;
        r.deadAt = null;
        return true;
    }

    @Override
    public synchronized int retryDeadLetters(DeadLetterFilter filter) {
        int n = 0;
        for (Row r : rows.values()) {
            if (r.pending() && r.deadAt != null && filter.matches(r.eventType, r.aggregateType, r.aggregateId,
                    r.createdAt, r.lastError)) {
                retryDeadLetter(r.id);
                n++;
            }
        }
        return n;
    }

    @Override
    public synchronized OptionalInt cleanupBatch(long lockKey, Instant now, java.time.Duration retention, int batchSize) {
        Instant processedBefore = now.minus(retention);
        int n = 0;
        for (Row r : rows.values()) {
            if (n < batchSize && !r.deleted && r.processedAt != null && r.processedAt.isBefore(processedBefore)) {
                r.deleted = true;
                n++;
            }
        }
        return OptionalInt.of(n);
    }

    public synchronized long count(java.util.function.Predicate<Row> p) {
        return rows.values().stream().filter(p).count();
    }
}
