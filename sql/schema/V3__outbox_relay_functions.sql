-- ee-outbox schema, version 3: the relay's hot statements, as SQL functions whose plans are
-- pinned to the indexes.
--
-- Why functions: a queue table's statistics are often wrong. On a freshly created or truncated
-- table without statistics, PostgreSQL plans `id = ANY(...)` as a sequential scan and the claim's
-- ORDER BY ... LIMIT as a bitmap scan plus a sort of every pending row; a prepared statement
-- keeps such a generic plan until autoanalyze runs, and meanwhile every batch reads the whole
-- table (measured: a relay fell behind by 20,000+ events). Each function below switches off the
-- plan shapes that read a whole table (SET ... applies only while the function runs), so its
-- plan walks the partial index and the primary key however many rows there are and whatever the
-- statistics say. The queries in sql/queries/outbox_events.sql call them.

-- Claims up to p_batch_size due rows, oldest first, and leases them to p_claim_token until
-- p_locked_until, in one statement: the inner SELECT walks idx_outbox_unprocessed in seq order and
-- locks candidates with SKIP LOCKED (concurrent relays claim disjoint rows); the UPDATE records the
-- lease. A row whose lease has expired (its relay died) is due again.
CREATE FUNCTION outbox_claim_batch(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
                                   p_now timestamptz, p_batch_size int)
    RETURNS SETOF outbox_events
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
AS $$
UPDATE outbox_events
SET claim_token = p_claim_token,
    locked_until = p_locked_until
WHERE id = ANY (ARRAY(
    SELECT c.id
    FROM outbox_events c
    WHERE c.processed_at IS NULL
      AND c.dead_at IS NULL
      AND c.attempts < p_max_attempts
      AND (c.retry_after IS NULL OR c.retry_after <= p_now)
      AND (c.locked_until IS NULL OR c.locked_until <= p_now)
    ORDER BY c.seq
    LIMIT p_batch_size
    FOR UPDATE SKIP LOCKED))
RETURNING *;
$$;

-- Ordered mode: a row is due only when no earlier event of its aggregate is still pending (in
-- flight on another relay, waiting for a retry, or dead). An aggregate's events are then published
-- one after another in write order by any number of relays, and a failing event holds back only
-- the later events of its own aggregate.
CREATE FUNCTION outbox_claim_batch_ordered(p_claim_token uuid, p_locked_until timestamptz, p_max_attempts int,
                                           p_now timestamptz, p_batch_size int)
    RETURNS SETOF outbox_events
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
AS $$
UPDATE outbox_events
SET claim_token = p_claim_token,
    locked_until = p_locked_until
WHERE id = ANY (ARRAY(
    SELECT c.id
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
    FOR UPDATE OF c SKIP LOCKED))
RETURNING *;
$$;

-- Completes a published batch in one statement. Only rows still leased to this claim are marked:
-- a row whose lease expired and was claimed again belongs to the other relay now.
CREATE FUNCTION outbox_mark_processed(p_now timestamptz, p_ids uuid[], p_claim_token uuid)
    RETURNS integer
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
AS $$
WITH done AS (
    UPDATE outbox_events
    SET processed_at = p_now,
        claim_token = NULL,
        locked_until = NULL
    WHERE id = ANY (p_ids)
      AND claim_token = p_claim_token
    RETURNING 1)
SELECT count(*)::integer FROM done;
$$;

-- Delete-on-publish: completes a published batch by deleting its rows.
CREATE FUNCTION outbox_delete_published(p_ids uuid[], p_claim_token uuid)
    RETURNS integer
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
AS $$
WITH done AS (
    DELETE FROM outbox_events
    WHERE id = ANY (p_ids)
      AND claim_token = p_claim_token
    RETURNING 1)
SELECT count(*)::integer FROM done;
$$;

-- Records the failed publishes of one batch: attempts + 1, wait until retry_after, and a dead
-- letter at p_max_attempts. During a broker outage every batch fails, so this is hot too.
CREATE FUNCTION outbox_record_failures(p_max_attempts int, p_now timestamptz, p_ids uuid[],
                                       p_retry_afters timestamptz[], p_errors varchar[], p_claim_token uuid)
    RETURNS TABLE (id uuid, attempts integer, dead_at timestamptz)
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
AS $$
UPDATE outbox_events AS e
SET attempts = e.attempts + 1,
    retry_after = f.retry_after,
    last_error = f.last_error,
    dead_at = CASE WHEN e.attempts + 1 >= p_max_attempts THEN p_now END,
    claim_token = NULL,
    locked_until = NULL
FROM unnest(p_ids, p_retry_afters, p_errors) AS f (id, retry_after, last_error)
WHERE e.id = f.id
  AND e.claim_token = p_claim_token
RETURNING e.id, e.attempts, e.dead_at;
$$;

-- Broker outage: gives claimed rows back, due again at p_retry_after, without counting an attempt
-- (nothing is wrong with the rows; the broker could not be reached).
CREATE FUNCTION outbox_defer(p_ids uuid[], p_retry_after timestamptz, p_error varchar, p_claim_token uuid)
    RETURNS integer
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
AS $$
WITH deferred AS (
    UPDATE outbox_events
    SET retry_after = p_retry_after,
        last_error = p_error,
        claim_token = NULL,
        locked_until = NULL
    WHERE id = ANY (p_ids)
      AND claim_token = p_claim_token
      AND processed_at IS NULL
    RETURNING 1)
SELECT count(*)::integer FROM deferred;
$$;

-- Cleanup: deletes at most p_batch_size published rows older than p_processed_before, oldest
-- first, so that a large table is cleaned in short transactions that never hold long locks.
CREATE FUNCTION outbox_delete_processed(p_processed_before timestamptz, p_batch_size int)
    RETURNS integer
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off
    SET enable_sort = off
AS $$
WITH done AS (
    DELETE FROM outbox_events
    WHERE id = ANY (ARRAY(
        SELECT c.id
        FROM outbox_events c
        WHERE c.processed_at < p_processed_before
        ORDER BY c.processed_at
        LIMIT p_batch_size))
    RETURNING 1)
SELECT count(*)::integer FROM done;
$$;
