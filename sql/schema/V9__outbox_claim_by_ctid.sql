-- ee-outbox schema, version 9: a claim updates the rows it has locked by their physical address.
--
-- V7's claims lock up to p_batch_size due rows (SELECT ... FOR UPDATE SKIP LOCKED) and then update
-- them through `id = ANY(...)`: one probe of the primary key index per claimed row, to find rows the
-- same statement has just read. Now the inner SELECT hands over the locked rows' ctid and the UPDATE
-- reaches them with a TID scan, without the index. Measured on the 2-core benchmark machine, 200,000
-- pending rows, claims of 500 each followed by their completion (both in SQL, no client): a claim
-- 7.4 ms -> 4.9 ms, a claim plus its completion 13.4 -> 11.5 ms.
--
-- Why the address is safe here: the rows are locked by this very statement (FOR UPDATE; under READ
-- COMMITTED, LockRows re-reads a row that was updated meanwhile and passes on the locked, newest
-- version), and a locked row cannot be updated, deleted or moved (VACUUM FULL and CLUSTER need a
-- lock that waits for this transaction) until the claim commits. So each address names exactly the
-- row that was locked. The UPDATE re-checks nothing else, as before.
--
-- A ctid is unique within one table only: outbox_events must stay the plain table V1 creates (not
-- partitioned, no inheritance children), as every earlier version already assumed.
--
-- Same names, parameters and results as V7: running relays pick the new bodies up with their next
-- claim; a relay of an earlier version keeps working. The V3 overloads (5 parameters) are unchanged.

CREATE OR REPLACE FUNCTION outbox_claim_batch(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
                                              p_now timestamptz, p_batch_size int, p_max_bytes int)
    RETURNS SETOF outbox_events
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
    SET jit = off
AS $$
UPDATE outbox_events
SET claim_token = p_claim_token,
    locked_until = p_locked_until
WHERE ctid = ANY (ARRAY(
    SELECT w.ctid
    FROM (SELECT d.ctid,
                 sum(pg_column_size(d.payload)) OVER (ORDER BY d.seq ROWS UNBOUNDED PRECEDING)
                     - pg_column_size(d.payload) AS bytes_before
          FROM (SELECT c.ctid, c.seq, c.payload
                FROM outbox_events c
                WHERE c.processed_at IS NULL
                  AND c.dead_at IS NULL
                  AND c.attempts < p_max_attempts
                  AND (c.retry_after IS NULL OR c.retry_after <= p_now)
                  AND (c.locked_until IS NULL OR c.locked_until <= p_now)
                ORDER BY c.seq
                LIMIT p_batch_size
                FOR UPDATE SKIP LOCKED) d) w
    WHERE w.bytes_before < p_max_bytes))
RETURNING *;
$$;

CREATE OR REPLACE FUNCTION outbox_claim_batch_ordered(p_claim_token uuid, p_locked_until timestamptz,
                                                      p_max_attempts int, p_now timestamptz, p_batch_size int,
                                                      p_max_bytes int)
    RETURNS SETOF outbox_events
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET jit = off
AS $$
UPDATE outbox_events
SET claim_token = p_claim_token,
    locked_until = p_locked_until
WHERE ctid = ANY (ARRAY(
    SELECT w.ctid
    FROM (SELECT d.ctid,
                 sum(pg_column_size(d.payload)) OVER (ORDER BY d.seq ROWS UNBOUNDED PRECEDING)
                     - pg_column_size(d.payload) AS bytes_before
          FROM (SELECT c.ctid, c.seq, c.payload
                FROM outbox_events c
                WHERE c.processed_at IS NULL
                  AND c.dead_at IS NULL
                  AND c.attempts < p_max_attempts
                  AND (c.retry_after IS NULL OR c.retry_after <= p_now)
                  AND (c.locked_until IS NULL OR c.locked_until <= p_now)
                  AND NOT EXISTS (
                      SELECT 1
                      FROM outbox_events p
                      WHERE p.aggregate_type = c.aggregate_type
                        AND p.aggregate_id = c.aggregate_id
                        AND p.processed_at IS NULL
                        AND p.seq < c.seq)
                ORDER BY c.seq
                LIMIT p_batch_size
                FOR UPDATE OF c SKIP LOCKED) d) w
    WHERE w.bytes_before < p_max_bytes))
RETURNING *;
$$;
