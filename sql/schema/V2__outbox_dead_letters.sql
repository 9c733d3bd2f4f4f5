-- ee-outbox schema, version 2: dead letters, rows whose last allowed publish attempt failed.
-- They are never retried automatically; an operator inspects them, fixes the cause and retries
-- them on request (RetryOutboxDeadLetter / RetryOutboxDeadLetters, the MBean, or by hand:
-- UPDATE outbox_events SET attempts = 0, retry_after = NULL, dead_at = NULL WHERE id = ...).

CREATE VIEW outbox_dead_letters AS
SELECT id, seq, aggregate_type, aggregate_id, event_type, payload, attempts,
       created_at, retry_after, last_error, dead_at
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL;
