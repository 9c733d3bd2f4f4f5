-- Statements on outbox_events that only tests and the benchmark run, in the format of
-- ../queries/outbox_events.sql; outbox-codegen's goal generate-test turns them into test code
-- (OutboxEventTestingJdbc and friends, in outbox-jpa's test jar). The relay runs none of them: it claims
-- and completes with CompleteAndClaimOutboxBatch[Ordered], records failures and defers on the
-- database's clock. They keep the older SQL functions that take the caller's instants covered, and the
-- reference article's poll as the benchmark's baseline.

-- name: FetchOutboxBatch :many
-- The reference article's poll, kept for compatibility and as the benchmark's baseline: it
-- must run in a transaction that stays open while the rows are published. The relay claims with
-- CompleteAndClaimOutboxBatch instead, which holds no transaction across broker calls.
SELECT id, aggregate_type, aggregate_id, event_type, payload, attempts
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NULL
  AND attempts < @max_attempts::int
  AND (retry_after IS NULL OR retry_after <= now())
ORDER BY seq
LIMIT @batch_size::int
FOR UPDATE SKIP LOCKED;

-- name: ClaimOutboxBatch :many
-- Claims up to batch_size due rows, oldest first, leased to claim_token until locked_until, in
-- one short statement (outbox_claim_batch, first in V3__outbox_relay_functions.sql; sql/CURRENT.md names
-- the migration holding its current body: SKIP LOCKED, plan pinned to the partial index), stopping early once the rows hold max_bytes of payload (V7; the
-- first row always goes). RETURNING order is unspecified: callers sort by seq. The functions lease
-- the locked rows by id, never by ctid: a row updated after the claim's snapshot is locked in its
-- newest version, whose ctid that snapshot cannot see (docs/decisions/0006-claims-by-ctid-withdrawn.md).
SELECT id, seq, aggregate_type, aggregate_id, event_type, payload, attempts, created_at, tracingspancontext
FROM outbox_claim_batch(@claim_token::uuid, @locked_until::timestamptz, @max_attempts::int,
                        @now::timestamptz, @batch_size::int, @max_bytes::int);

-- name: ClaimOutboxBatchOrdered :many
-- Ordered mode: like ClaimOutboxBatch, but only the earliest pending event of each aggregate is
-- due, so an aggregate's events are published in write order by any number of relays and a
-- failing event holds back only its own aggregate (outbox_claim_batch_ordered).
SELECT id, seq, aggregate_type, aggregate_id, event_type, payload, attempts, created_at, tracingspancontext
FROM outbox_claim_batch_ordered(@claim_token::uuid, @locked_until::timestamptz, @max_attempts::int,
                                @now::timestamptz, @batch_size::int, @max_bytes::int);

-- name: MarkOutboxProcessed :exec
-- The reference article's one-row completion (baseline only; the relay completes whole batches).
UPDATE outbox_events SET processed_at = now() WHERE id = @id::uuid;

-- name: MarkOutboxBatchProcessed :one
-- Completes a published batch in one statement and returns how many rows it marked. Only rows
-- still leased to this claim are marked: a row whose lease expired and was claimed again
-- belongs to the other relay now.
SELECT outbox_mark_processed(@now::timestamptz, @ids::uuid[], @claim_token::uuid)::int AS marked;

-- name: DeleteOutboxBatch :one
-- Delete-on-publish: completes a published batch by deleting it (no processed rows are kept);
-- returns how many rows it deleted.
SELECT outbox_delete_published(@ids::uuid[], @claim_token::uuid)::int AS deleted;

-- name: IncrementOutboxAttempts :exec
-- The reference article's one-row failure count (baseline only).
UPDATE outbox_events SET attempts = attempts + 1 WHERE id = @id::uuid;

-- name: RecordOutboxFailures :many
-- Records the failed publishes of one batch in one statement: each row's attempts go up by
-- one, it waits until its retry_after, and at max_attempts it becomes a dead letter.
SELECT id, attempts, dead_at
FROM outbox_record_failures(@max_attempts::int, @now::timestamptz, @ids::uuid[],
                            @retry_afters::timestamptz[], @errors::varchar[], @claim_token::uuid);

-- name: DeferOutboxBatch :one
-- Broker outage: gives claimed rows back, due again at retry_after, without counting an attempt;
-- returns how many rows it deferred (outbox_defer).
SELECT outbox_defer(@ids::uuid[], @retry_after::timestamptz, @error::varchar, @claim_token::uuid)::int AS deferred;

-- name: OutboxPendingCount :one
-- Rows still to publish (dead letters not included).
SELECT count(*)::bigint AS pending
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NULL;

-- name: ListOutboxDeadLetters :many
SELECT id, aggregate_type, aggregate_id, event_type, attempts, created_at, last_error, dead_at
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL
ORDER BY seq
LIMIT @max_rows::int;

-- name: DeleteProcessedOutboxEvents :one
-- Cleanup: deletes at most batch_size published rows older than processed_before (oldest first)
-- and returns how many; callers repeat while a batch was full.
SELECT outbox_delete_processed(@processed_before::timestamptz, @batch_size::int)::int AS deleted;
