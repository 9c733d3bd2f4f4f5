-- ee-outbox schema option: ordered mode's index, back after unordered-only.sql dropped it.
--
-- The definition is V1's (OrderedIndexOptionIT compares the two). Relays that run ordered and found the index missing
-- go on by themselves once it is valid.
--
-- Apply it outside a transaction; CREATE INDEX CONCURRENTLY blocks no insert while it builds:
--   psql -v ON_ERROR_STOP=1 -f ordered-mode.sql
-- A build that fails (cancelled, a lock timeout) leaves an INVALID index of that name, which IF NOT EXISTS then keeps
-- and no claim can use; the relays keep saying so. Drop it (DROP INDEX CONCURRENTLY idx_outbox_aggregate_pending) and
-- run this file again.
CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_outbox_aggregate_pending
    ON outbox_events (aggregate_type, aggregate_id, seq)
    WHERE processed_at IS NULL;
