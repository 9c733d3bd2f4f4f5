-- Queries on outbox_events: the single source of ee-outbox's SQL for the outbox table.
-- Format: sqlc. Each statement starts with `-- name: QueryName :kind`; parameters are
-- `@name::type` (or `sqlc.arg(name)::type`, and `sqlc.narg(name)::type` when NULL is allowed).
-- Every parameter carries its type as a cast; every computed result column carries a cast and
-- an alias. The generator (outbox-codegen) turns this file into the OutboxEvent entity's named
-- native queries, the JPA DAO OutboxEventQueries and the JDBC DAO OutboxEventJdbc.
-- `@now` is passed in by the caller (the relay's clock), so tests control time.

-- name: InsertOutboxEvent :exec
-- Records one event. Runs in the caller's transaction, through its persistence unit.
INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload)
VALUES (@id::uuid, @aggregate_type::varchar, @aggregate_id::varchar, @event_type::varchar, @payload::jsonb);

-- name: FetchOutboxBatch :many
-- The reference article's poll, kept for compatibility and as the benchmark's baseline: it
-- must run in a transaction that stays open while the rows are published. The relay uses
-- ClaimOutboxBatch instead, which holds no transaction across broker calls.
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
-- Claims up to batch_size due rows, oldest first, and leases them to claim_token until
-- locked_until, in one short statement. The inner SELECT walks the partial index in seq order
-- and locks candidates with SKIP LOCKED, so concurrent relays claim disjoint rows; rows whose
-- lease expired (their relay died) are due again. `id = ANY(ARRAY(...))` keeps the outer
-- UPDATE on the primary key whatever the statistics say (a join here can be planned as a hash
-- join over the whole table on a freshly truncated table). RETURNING order is unspecified:
-- callers sort by seq.
UPDATE outbox_events
SET claim_token = @claim_token::uuid,
    locked_until = @locked_until::timestamptz
WHERE id = ANY (ARRAY(
    SELECT id
    FROM outbox_events
    WHERE processed_at IS NULL
      AND dead_at IS NULL
      AND attempts < @max_attempts::int
      AND (retry_after IS NULL OR retry_after <= @now::timestamptz)
      AND (locked_until IS NULL OR locked_until <= @now::timestamptz)
    ORDER BY seq
    LIMIT @batch_size::int
    FOR UPDATE SKIP LOCKED))
RETURNING id, seq, aggregate_type, aggregate_id, event_type, payload, attempts, created_at;

-- name: ClaimOutboxBatchOrdered :many
-- Ordered mode: like ClaimOutboxBatch, but a row is due only when no earlier event of its
-- aggregate is still pending (in flight on another relay, waiting for a retry, or dead). So an
-- aggregate's events are published one after another in write order, by any number of relays,
-- and a failing event holds back only the later events of its own aggregate.
UPDATE outbox_events
SET claim_token = @claim_token::uuid,
    locked_until = @locked_until::timestamptz
WHERE id = ANY (ARRAY(
    SELECT e.id
    FROM outbox_events e
    WHERE e.processed_at IS NULL
      AND e.dead_at IS NULL
      AND e.attempts < @max_attempts::int
      AND (e.retry_after IS NULL OR e.retry_after <= @now::timestamptz)
      AND (e.locked_until IS NULL OR e.locked_until <= @now::timestamptz)
      AND NOT EXISTS (
          SELECT 1
          FROM outbox_events p
          WHERE p.aggregate_type = e.aggregate_type
            AND p.aggregate_id = e.aggregate_id
            AND p.processed_at IS NULL
            AND p.seq < e.seq)
    ORDER BY e.seq
    LIMIT @batch_size::int
    FOR UPDATE OF e SKIP LOCKED))
RETURNING id, seq, aggregate_type, aggregate_id, event_type, payload, attempts, created_at;

-- name: MarkOutboxProcessed :exec
-- The reference article's one-row completion (baseline only; the relay completes whole batches).
UPDATE outbox_events SET processed_at = now() WHERE id = @id::uuid;

-- name: MarkOutboxBatchProcessed :execrows
-- Completes a published batch in one statement. Only rows still leased to this claim are
-- marked: a row whose lease expired and was claimed again belongs to the other relay now.
UPDATE outbox_events
SET processed_at = @now::timestamptz,
    claim_token = NULL,
    locked_until = NULL
WHERE id = ANY (@ids::uuid[])
  AND claim_token = @claim_token::uuid;

-- name: DeleteOutboxBatch :execrows
-- Delete-on-publish: completes a published batch by deleting it (no processed rows are kept).
DELETE FROM outbox_events
WHERE id = ANY (@ids::uuid[])
  AND claim_token = @claim_token::uuid;

-- name: IncrementOutboxAttempts :exec
-- The reference article's one-row failure count (baseline only).
UPDATE outbox_events SET attempts = attempts + 1 WHERE id = @id::uuid;

-- name: RecordOutboxFailures :many
-- Records the failed publishes of one batch in one statement: each row's attempts go up by
-- one, it waits until its retry_after, and at max_attempts it becomes a dead letter.
UPDATE outbox_events AS e
SET attempts = e.attempts + 1,
    retry_after = f.retry_after,
    last_error = f.last_error,
    dead_at = CASE WHEN e.attempts + 1 >= @max_attempts::int THEN @now::timestamptz END,
    claim_token = NULL,
    locked_until = NULL
FROM unnest(@ids::uuid[], @retry_afters::timestamptz[], @errors::varchar[]) AS f (id, retry_after, last_error)
WHERE e.id = f.id
  AND e.claim_token = @claim_token::uuid
RETURNING e.id, e.attempts, e.dead_at;

-- name: ReleaseOutboxClaim :execrows
-- Gives claimed but unpublished rows back at once (relay stopping, lease running out), so
-- another relay does not have to wait for the lease to expire.
UPDATE outbox_events
SET claim_token = NULL,
    locked_until = NULL
WHERE id = ANY (@ids::uuid[])
  AND claim_token = @claim_token::uuid
  AND processed_at IS NULL;

-- name: OutboxPendingCount :one
-- Rows still to publish (dead letters not included).
SELECT count(*)::bigint AS pending
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NULL;

-- name: OutboxStats :one
-- The gauges in one pass over the partial index: pending, dead letters, oldest pending row.
SELECT count(*) FILTER (WHERE dead_at IS NULL)::bigint AS pending,
       count(*) FILTER (WHERE dead_at IS NOT NULL)::bigint AS dead,
       min(created_at) FILTER (WHERE dead_at IS NULL)::timestamptz AS oldest_pending_created_at
FROM outbox_events
WHERE processed_at IS NULL;

-- name: FindOutboxEvent :one
SELECT id, seq, aggregate_type, aggregate_id, event_type, payload, attempts, created_at,
       retry_after, last_error, dead_at, processed_at
FROM outbox_events
WHERE id = @id::uuid;

-- name: ListOutboxDeadLetters :many
SELECT id, aggregate_type, aggregate_id, event_type, attempts, created_at, last_error, dead_at
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL
ORDER BY seq
LIMIT @max_rows::int;

-- name: RetryOutboxDeadLetter :execrows
-- Makes one dead letter due again, with a fresh retry budget.
UPDATE outbox_events
SET attempts = 0,
    retry_after = NULL,
    dead_at = NULL
WHERE id = @id::uuid
  AND processed_at IS NULL
  AND dead_at IS NOT NULL;

-- name: RetryOutboxDeadLetters :execrows
-- Makes every dead letter that matches all given filters due again; a NULL filter matches all.
UPDATE outbox_events
SET attempts = 0,
    retry_after = NULL,
    dead_at = NULL
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL
  AND (sqlc.narg(event_type)::varchar IS NULL OR event_type = sqlc.narg(event_type)::varchar)
  AND (sqlc.narg(aggregate_type)::varchar IS NULL OR aggregate_type = sqlc.narg(aggregate_type)::varchar)
  AND (sqlc.narg(created_from)::timestamptz IS NULL OR created_at >= sqlc.narg(created_from)::timestamptz)
  AND (sqlc.narg(created_to)::timestamptz IS NULL OR created_at < sqlc.narg(created_to)::timestamptz);

-- name: DeleteProcessedOutboxEvents :execrows
-- Cleanup: deletes at most batch_size published rows older than processed_before, so that a
-- large table is cleaned in short transactions that never hold long locks.
DELETE FROM outbox_events
WHERE id = ANY (ARRAY(
    SELECT id
    FROM outbox_events
    WHERE processed_at < @processed_before::timestamptz
    ORDER BY processed_at
    LIMIT @batch_size::int));

-- name: TryOutboxMaintenanceLock :one
-- Elects the one relay that runs cleanup: a transaction-scoped advisory lock, released at commit.
SELECT pg_try_advisory_xact_lock(@lock_key::bigint)::boolean AS acquired;
