-- ee-outbox schema, version 7: claims bounded by payload bytes as well as by rows.
--
-- A relay drains faster in bigger batches (one statement, one commit and one broker transaction per
-- batch: in this project's benchmark 35k events/s at 100 rows, 42k at 500, 54k at 1,000), but a batch
-- holds its payloads in the relay's memory, and a payload may be up to 1 MiB. So a claim now stops at
-- p_batch_size rows or once the rows it took hold p_max_bytes of payload, whichever comes first; the
-- first row is always taken, so an event bigger than the budget still goes, alone.
--
-- Bytes are the payload's stored size (pg_column_size: read from the row's header, never decompressed
-- or fetched from TOAST). A compressed payload counts at its compressed size, so a batch of highly
-- compressible payloads can take more memory in the relay than the budget says.
--
-- The V3 and V6 functions stay as they were: a relay of an earlier version keeps working during a
-- rolling upgrade. These overloads take one more parameter, p_max_bytes.

-- Like outbox_claim_batch(5 args) in V3, within p_max_bytes. Rows locked by the inner SELECT but left
-- out by the byte budget are only locked until the claim's transaction ends (not leased).
--
-- The running sum needs the claimed rows sorted by seq (at most p_batch_size rows: the index walk
-- below is already limited). With enable_sort off, that unavoidable sort makes the plan's estimated
-- cost huge, and PostgreSQL would JIT-compile the statement at every call (measured: 165 ms per claim
-- instead of 2 ms); jit = off keeps these short statements interpreted.
CREATE FUNCTION outbox_claim_batch(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
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
WHERE id = ANY (ARRAY(
    SELECT w.id
    FROM (SELECT d.id,
                 sum(pg_column_size(d.payload)) OVER (ORDER BY d.seq ROWS UNBOUNDED PRECEDING)
                     - pg_column_size(d.payload) AS bytes_before
          FROM (SELECT c.id, c.seq, c.payload
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

-- Like outbox_claim_batch_ordered(5 args) in V3, within p_max_bytes.
CREATE FUNCTION outbox_claim_batch_ordered(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
                                           p_now timestamptz, p_batch_size int, p_max_bytes int)
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
WHERE id = ANY (ARRAY(
    SELECT w.id
    FROM (SELECT d.id,
                 sum(pg_column_size(d.payload)) OVER (ORDER BY d.seq ROWS UNBOUNDED PRECEDING)
                     - pg_column_size(d.payload) AS bytes_before
          FROM (SELECT c.id, c.seq, c.payload
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

-- Like outbox_complete_and_claim(10 args) in V6, the claim within p_max_bytes. Each claimed row also
-- carries payload_bytes, its stored payload size, so the relay can tell a batch the byte budget cut
-- (more rows may be due at once) from one that found no more due rows.
CREATE FUNCTION outbox_complete_and_claim(p_synchronous_commit varchar, p_delete boolean, p_now timestamptz,
                                          p_done_ids uuid[], p_done_token uuid, p_claim_token uuid,
                                          p_locked_until timestamptz, p_max_attempts int, p_batch_size int,
                                          p_ordered boolean, p_max_bytes int)
    RETURNS TABLE (completed integer, id uuid, seq bigint, aggregate_type varchar, aggregate_id varchar,
                   event_type varchar, payload jsonb, attempts integer, created_at timestamptz,
                   payload_bytes integer)
    LANGUAGE plpgsql VOLATILE
AS $$
#variable_conflict use_column
DECLARE
    v_completed integer := 0;
BEGIN
    PERFORM set_config('synchronous_commit', p_synchronous_commit, true);
    IF cardinality(p_done_ids) > 0 THEN
        IF p_delete THEN
            v_completed := outbox_delete_published(p_done_ids, p_done_token);
        ELSE
            v_completed := outbox_mark_processed(p_now, p_done_ids, p_done_token);
        END IF;
    END IF;
    IF p_batch_size > 0 THEN
        IF p_ordered THEN
            RETURN QUERY
                SELECT v_completed, c.id, c.seq, c.aggregate_type, c.aggregate_id, c.event_type, c.payload,
                       c.attempts, c.created_at, pg_column_size(c.payload)
                FROM outbox_claim_batch_ordered(p_claim_token, p_locked_until, p_max_attempts, p_now, p_batch_size,
                                                p_max_bytes) c;
        ELSE
            RETURN QUERY
                SELECT v_completed, c.id, c.seq, c.aggregate_type, c.aggregate_id, c.event_type, c.payload,
                       c.attempts, c.created_at, pg_column_size(c.payload)
                FROM outbox_claim_batch(p_claim_token, p_locked_until, p_max_attempts, p_now, p_batch_size,
                                        p_max_bytes) c;
        END IF;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    RETURN QUERY SELECT v_completed, NULL::uuid, NULL::bigint, NULL::varchar, NULL::varchar, NULL::varchar,
                        NULL::jsonb, NULL::integer, NULL::timestamptz, NULL::integer;
END
$$;
