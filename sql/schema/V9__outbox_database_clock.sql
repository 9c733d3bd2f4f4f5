-- ee-outbox schema, version 9: times from the database's clock, claims from a moving lower bound,
-- no stranded rows, a bounded inbox.
--
-- 1. The database's clock. Up to V8 the relay passed its own JVM's time (p_now) and absolute instants
--    (p_locked_until, retry_after): two servers whose clocks differ by more than a fifth of the lease
--    could publish the same rows while both were alive. These functions take durations instead (lease,
--    retry delays, retention, in milliseconds) and add them to coalesce(p_now, now()), so every lease,
--    retry time and processed_at comes from one clock. A relay passes p_now = NULL; only tests pass a
--    time. now() is the start of the statement's transaction: every statement below is its own short
--    transaction, so that is the moment it runs.
--
-- 2. A moving lower bound (p_min_seq). While a snapshot is held (a long transaction, an idle-in-
--    transaction session, a replication slot), vacuum cannot remove the old versions of published rows,
--    and a claim that starts at the head of idx_outbox_unprocessed walks all their index entries every
--    time. The claims below start at p_min_seq instead: the relay passes the lowest seq it claimed at
--    least one rescan interval ago, and 0 (the whole index) at least once per rescan interval, which
--    finds the rows below the bound (retries, released leases, transactions that committed late).
--
-- 3. Stranded rows: rows at or over max-attempts that are not dead letters (max-attempts was lowered,
--    or relays run with different values) are made dead letters by outbox_dead_letter_exhausted.
--
-- 4. The inbox: outbox_delete_processed_events deletes processed_events rows in bounded batches.
--
-- The V3, V6 and V7 functions stay as they were, for relays of earlier versions during a rolling
-- upgrade; those relays still lease by their own clocks.

-- Like outbox_claim_batch(6 args) in V7, starting at seq p_min_seq.
CREATE FUNCTION outbox_claim_batch(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
                                   p_now timestamptz, p_batch_size int, p_max_bytes int, p_min_seq bigint)
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
                  AND c.seq >= p_min_seq
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

-- Like outbox_claim_batch_ordered(6 args) in V7, starting at seq p_min_seq. The check for an earlier
-- pending event of the same aggregate still looks at all of them.
CREATE FUNCTION outbox_claim_batch_ordered(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
                                           p_now timestamptz, p_batch_size int, p_max_bytes int, p_min_seq bigint)
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
                  AND c.seq >= p_min_seq
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

-- Like outbox_complete_and_claim(11 args) in V7, on the database's clock (p_now NULL) with a lease of
-- p_lease_ms, the claim starting at seq p_min_seq.
CREATE FUNCTION outbox_complete_and_claim(p_synchronous_commit varchar, p_delete boolean, p_now timestamptz,
                                          p_done_ids uuid[], p_done_token uuid, p_claim_token uuid,
                                          p_lease_ms bigint, p_max_attempts int, p_batch_size int,
                                          p_ordered boolean, p_max_bytes int, p_min_seq bigint)
    RETURNS TABLE (completed integer, id uuid, seq bigint, aggregate_type varchar, aggregate_id varchar,
                   event_type varchar, payload jsonb, attempts integer, created_at timestamptz,
                   payload_bytes integer)
    LANGUAGE plpgsql VOLATILE
AS $$
#variable_conflict use_column
DECLARE
    v_completed integer := 0;
    v_now timestamptz := coalesce(p_now, now());
    v_locked_until timestamptz := coalesce(p_now, now()) + p_lease_ms * interval '1 millisecond';
BEGIN
    PERFORM set_config('synchronous_commit', p_synchronous_commit, true);
    IF cardinality(p_done_ids) > 0 THEN
        IF p_delete THEN
            v_completed := outbox_delete_published(p_done_ids, p_done_token);
        ELSE
            v_completed := outbox_mark_processed(v_now, p_done_ids, p_done_token);
        END IF;
    END IF;
    IF p_batch_size > 0 THEN
        IF p_ordered THEN
            RETURN QUERY
                SELECT v_completed, c.id, c.seq, c.aggregate_type, c.aggregate_id, c.event_type, c.payload,
                       c.attempts, c.created_at, pg_column_size(c.payload)
                FROM outbox_claim_batch_ordered(p_claim_token, v_locked_until, p_max_attempts, v_now, p_batch_size,
                                                p_max_bytes, p_min_seq) c;
        ELSE
            RETURN QUERY
                SELECT v_completed, c.id, c.seq, c.aggregate_type, c.aggregate_id, c.event_type, c.payload,
                       c.attempts, c.created_at, pg_column_size(c.payload)
                FROM outbox_claim_batch(p_claim_token, v_locked_until, p_max_attempts, v_now, p_batch_size,
                                        p_max_bytes, p_min_seq) c;
        END IF;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    RETURN QUERY SELECT v_completed, NULL::uuid, NULL::bigint, NULL::varchar, NULL::varchar, NULL::varchar,
                        NULL::jsonb, NULL::integer, NULL::timestamptz, NULL::integer;
END
$$;

-- Like outbox_record_failures in V3, each row due again p_delays_ms after the database's now.
CREATE FUNCTION outbox_record_failures(p_max_attempts int, p_now timestamptz, p_ids uuid[], p_delays_ms bigint[],
                                       p_errors varchar[], p_claim_token uuid)
    RETURNS TABLE (id uuid, attempts integer, dead_at timestamptz)
    LANGUAGE sql VOLATILE
AS $$
SELECT f.id, f.attempts, f.dead_at
FROM outbox_record_failures(p_max_attempts, coalesce(p_now, now()), p_ids,
                            ARRAY(SELECT coalesce(p_now, now()) + d.ms * interval '1 millisecond'
                                  FROM unnest(p_delays_ms) WITH ORDINALITY AS d (ms, n)
                                  ORDER BY d.n),
                            p_errors, p_claim_token) f;
$$;

-- Like outbox_defer in V3, the rows due again p_delay_ms after the database's now.
CREATE FUNCTION outbox_defer(p_ids uuid[], p_now timestamptz, p_delay_ms bigint, p_error varchar, p_claim_token uuid)
    RETURNS integer
    LANGUAGE sql VOLATILE
AS $$
SELECT outbox_defer(p_ids, coalesce(p_now, now()) + p_delay_ms * interval '1 millisecond', p_error, p_claim_token);
$$;

-- Like outbox_delete_processed in V3: rows processed more than p_retention_ms before the database's now.
CREATE FUNCTION outbox_delete_processed(p_now timestamptz, p_retention_ms bigint, p_batch_size int)
    RETURNS integer
    LANGUAGE sql VOLATILE
AS $$
SELECT outbox_delete_processed(coalesce(p_now, now()) - p_retention_ms * interval '1 millisecond', p_batch_size);
$$;

-- Stranded rows: pending rows whose attempts reached p_max_attempts (a lowered max-attempts, or relays
-- with different values) are never claimed again; this makes them dead letters, visible in
-- outbox_dead_letters and retryable. Rows leased to a live relay are left to it.
CREATE FUNCTION outbox_dead_letter_exhausted(p_max_attempts int, p_now timestamptz)
    RETURNS integer
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
AS $$
WITH dead AS (
    UPDATE outbox_events
    SET dead_at = coalesce(p_now, now()),
        last_error = coalesce(last_error, 'no error recorded')
            || ' (attempts ' || attempts || ' reached max-attempts ' || p_max_attempts || ')',
        claim_token = NULL,
        locked_until = NULL
    WHERE processed_at IS NULL
      AND dead_at IS NULL
      AND attempts >= p_max_attempts
      AND (locked_until IS NULL OR locked_until <= coalesce(p_now, now()))
    RETURNING 1)
SELECT count(*)::integer FROM dead;
$$;

-- The inbox: deletes at most p_batch_size processed_events rows recorded more than p_retention_ms before
-- the database's now, oldest first (idx_processed_events_processed_at), in one short statement.
CREATE FUNCTION outbox_delete_processed_events(p_now timestamptz, p_retention_ms bigint, p_batch_size int)
    RETURNS integer
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_sort = off
AS $$
WITH done AS (
    DELETE FROM processed_events
    WHERE (consumer, event_id) IN (
        SELECT p.consumer, p.event_id
        FROM processed_events p
        WHERE p.processed_at < coalesce(p_now, now()) - p_retention_ms * interval '1 millisecond'
        ORDER BY p.processed_at
        LIMIT p_batch_size)
    RETURNING 1)
SELECT count(*)::integer FROM done;
$$;
