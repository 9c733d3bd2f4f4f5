-- Queries on processed_events, the consumer side's inbox. Format: see outbox_events.sql.

-- name: RecordProcessedEvent :execrows
-- Records that `consumer` applied `event_id`: 1 when the id is new, 0 when it was seen before.
-- Runs in the consumer's transaction, so the record and the consumer's own writes commit or
-- roll back together.
INSERT INTO processed_events (consumer, event_id)
VALUES (@consumer::varchar, @event_id::uuid)
ON CONFLICT (consumer, event_id) DO NOTHING;

-- name: DeleteExpiredProcessedEvents :one
-- The relay's inbox cleanup (V9): deletes at most batch_size inbox records older than retention_ms
-- before coalesce(now, now()), oldest first; callers repeat while a batch was full.
SELECT outbox_delete_processed_events(sqlc.narg(now)::timestamptz, @retention_ms::bigint, @batch_size::int)::int AS deleted;

-- name: DeleteExpiredProcessedEventsPerConsumer :one
-- The same with a retention of its own for each consumer named in consumers (V12; the default retention_ms for the
-- others): deletes at most batch_size records in all, each consumer's older than its retention, oldest first.
SELECT outbox_delete_processed_events(sqlc.narg(now)::timestamptz, @retention_ms::bigint, @batch_size::int,
                                      @consumers::varchar[], @retentions_ms::bigint[])::int AS deleted;
