-- Statements on processed_events that only tests run; format and generation: see outbox_events.sql here.

-- name: DeleteProcessedEventsBefore :execrows
-- Forgets inbox records older than the broker can redeliver.
DELETE FROM processed_events
WHERE processed_at < @processed_before::timestamptz;
