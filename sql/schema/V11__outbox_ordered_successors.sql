-- ee-outbox schema, version 11: ordered claims that take the completed aggregates' next events by the aggregate index.
--
-- In ordered mode an event is due only once every earlier pending event of its aggregate is published, so the
-- relay's own completions make events due. Up to V10 the next claim found them by walking idx_outbox_unprocessed
-- from just above the completed event (decision 0014), checking each row's predecessor: a claim cost every pending
-- row above that point. With one aggregate holding a long backlog (a hot account after an outage) that is all of
-- its remaining events, at every claim: measured 224 of its events/s, about 4.5 ms a claim
-- (docs/benchmark.md, "Ordered mode").
--
-- outbox_complete_and_claim_ordered completes the published rows and then claims in two parts:
--
-- 1. Successors: for each aggregate whose row it just completed, the aggregate's
--    earliest pending event, found by one probe of idx_outbox_aggregate_pending, is claimed if it is due and no
--    one holds its lock (SKIP LOCKED). The probe looks at the earliest pending event whatever its state, and
--    claims that one or nothing: a dead letter, a row waiting for a retry, one leased or locked by another relay
--    keeps the aggregate's later events back, exactly as the walk's predecessor check does. Successors take at
--    most half of the batch (p_batch_size / 2, probing the aggregates of that many of the oldest completed rows),
--    so aggregates with long backlogs cannot fill every batch.
-- 2. The walk: the query of outbox_claim_batch_ordered (V9) from p_min_seq fills the rest of the batch in seq order, as
--    before. It sees the successors leased already, so it takes no second event of their aggregates.
--
-- Its last row (NULL id) carries walk_next: where a walk may go on next. After a walk that filled its part,
-- just above the highest seq it claimed; after one that did not, just above the highest pending seq (every
-- pending row from p_min_seq up was looked at). The relay starts its next claim there while the successors of
-- what it completes are taken by the probes, so a hot aggregate costs one probe per event instead of a walk over
-- its backlog; rows that can become due below walk_next without a completion (retries, expired or released
-- leases, transactions that commit late, successors the probes left for the walk) are found as before by the
-- claims that start lower (docs/decisions/0017-ordered-claims-take-successors-by-aggregate.md).
-- The drain reports the completed rows whose aggregate got nothing, so a claim starts below them.
--
-- The V9/V10 functions stay as they were: a relay of an earlier version keeps working during a rolling upgrade.

-- Ordered mode's drain statement: like outbox_complete_and_claim (V10) with p_ordered true, the claim taking the
-- completed aggregates' successors first. Every claimed row carries walk_next NULL; one last row with a NULL id
-- carries `completed` and walk_next.
--
-- Both parts of the claim are written out here rather than called as SQL functions: PL/pgSQL keeps their plans for
-- the session, where a SQL function is planned again at every call (measured: about half a millisecond a call,
-- as much as a whole hot-aggregate step should cost). The plan settings are those of the V9 claims, and the plans
-- are generic: with the disabled plan shapes every plan's estimate is huge, so PostgreSQL's choice between a custom
-- and a generic plan kept planning each statement again at every call (measured: 1.2 ms a call against 0.8 ms
-- with generic plans, of which 0.7 ms was the client's round trip). The generic plans are the index walks above.
--
-- Successors: the heads are found without locking, one probe of idx_outbox_aggregate_pending per aggregate (of the
-- completed rows, the p_batch_size / 2 oldest: their next events are the likeliest to be the oldest); the due
-- ones, oldest first, within half the batch and the byte budget, are then locked by id with SKIP LOCKED (the
-- byte budget is counted before the lock: a head skipped there leaves it a little under-used). Each id is locked in
-- a LATERAL subquery of its own, so it is looked up by the primary key: with `id = ANY (...)`, or a plain join,
-- and `processed_at IS NULL`, the generic plan made on an empty table walked the whole partial index filtering by
-- id (ClaimPlanIT). The lock re-checks the row's newest version (READ COMMITTED), so a head that
-- another relay claimed or completed meanwhile is left alone; a locked head is skipped, never passed over for the
-- event after it. The walk is outbox_claim_batch_ordered (V9) with what is left of the batch and of the bytes.
CREATE FUNCTION outbox_complete_and_claim_ordered(p_synchronous_commit varchar, p_delete boolean, p_now timestamptz,
                                                  p_done_ids uuid[], p_done_token uuid, p_claim_token uuid,
                                                  p_lease_ms bigint, p_max_attempts int, p_batch_size int,
                                                  p_max_bytes int, p_min_seq bigint)
    RETURNS TABLE (completed integer, id uuid, seq bigint, aggregate_type varchar, aggregate_id varchar,
                   event_type varchar, payload jsonb, attempts integer, created_at timestamptz,
                   payload_bytes integer, tracingspancontext text, walk_next bigint)
    LANGUAGE plpgsql VOLATILE
    SET enable_seqscan = off
    SET enable_bitmapscan = off
    SET enable_sort = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET jit = off
    SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
DECLARE
    v_completed integer := 0;
    v_types varchar[] := '{}';
    v_ids varchar[] := '{}';
    v_now timestamptz := coalesce(p_now, now());
    v_locked_until timestamptz := coalesce(p_now, now()) + p_lease_ms * interval '1 millisecond';
    v_successors outbox_events[] := '{}';
    v_walk outbox_events[] := '{}';
    v_bytes bigint := 0;
    v_walk_bytes bigint := 0;
    v_need integer;
    v_walk_next bigint := p_min_seq;
BEGIN
    PERFORM set_config('synchronous_commit', p_synchronous_commit, true);
    IF cardinality(p_done_ids) > 0 THEN
        IF p_delete THEN
            WITH done AS (
                DELETE FROM outbox_events e
                WHERE e.id = ANY (p_done_ids)
                  AND e.claim_token = p_done_token
                RETURNING e.aggregate_type, e.aggregate_id, e.seq)
            SELECT count(*)::integer, coalesce(array_agg(done.aggregate_type ORDER BY done.seq), '{}'),
                   coalesce(array_agg(done.aggregate_id ORDER BY done.seq), '{}')
            INTO v_completed, v_types, v_ids
            FROM done;
        ELSE
            WITH done AS (
                UPDATE outbox_events e
                SET processed_at = v_now,
                    claim_token = NULL,
                    locked_until = NULL
                WHERE e.id = ANY (p_done_ids)
                  AND e.claim_token = p_done_token
                RETURNING e.aggregate_type, e.aggregate_id, e.seq)
            SELECT count(*)::integer, coalesce(array_agg(done.aggregate_type ORDER BY done.seq), '{}'),
                   coalesce(array_agg(done.aggregate_id ORDER BY done.seq), '{}')
            INTO v_completed, v_types, v_ids
            FROM done;
        END IF;
    END IF;
    IF p_batch_size <= 0 THEN
        RETURN QUERY SELECT v_completed, NULL::uuid, NULL::bigint, NULL::varchar, NULL::varchar, NULL::varchar,
                            NULL::jsonb, NULL::integer, NULL::timestamptz, NULL::integer, NULL::text, p_min_seq;
        RETURN;
    END IF;
    IF v_completed > 0 AND p_batch_size / 2 > 0 THEN
        WITH claimed AS (
            UPDATE outbox_events e
            SET claim_token = p_claim_token,
                locked_until = v_locked_until
            WHERE e.id = ANY (ARRAY(
                SELECT l.id
                FROM unnest(ARRAY(
                          SELECT w.id
                          FROM (SELECT h.id,
                                       sum(h.bytes) OVER (ORDER BY h.seq ROWS UNBOUNDED PRECEDING) - h.bytes
                                           AS bytes_before
                                FROM (SELECT h.id, h.seq, h.bytes
                                      FROM unnest(v_types[1:p_batch_size / 2], v_ids[1:p_batch_size / 2])
                                               AS a (agg_type, agg_id)
                                      CROSS JOIN LATERAL (
                                          SELECT x.id, x.seq, pg_column_size(x.payload) AS bytes, x.dead_at,
                                                 x.attempts, x.retry_after, x.locked_until
                                          FROM outbox_events x
                                          WHERE x.aggregate_type = a.agg_type
                                            AND x.aggregate_id = a.agg_id
                                            AND x.processed_at IS NULL
                                          ORDER BY x.aggregate_type, x.aggregate_id, x.seq
                                          LIMIT 1) h
                                      WHERE h.dead_at IS NULL
                                        AND h.attempts < p_max_attempts
                                        AND (h.retry_after IS NULL OR h.retry_after <= v_now)
                                        AND (h.locked_until IS NULL OR h.locked_until <= v_now)
                                      ORDER BY h.seq
                                      LIMIT p_batch_size / 2) h) w
                          WHERE w.bytes_before < p_max_bytes)) AS s (id)
                CROSS JOIN LATERAL (
                    SELECT c.id
                    FROM outbox_events c
                    WHERE c.id = s.id
                      AND c.processed_at IS NULL
                      AND c.dead_at IS NULL
                      AND c.attempts < p_max_attempts
                      AND (c.retry_after IS NULL OR c.retry_after <= v_now)
                      AND (c.locked_until IS NULL OR c.locked_until <= v_now)
                    FOR UPDATE SKIP LOCKED) l))
            RETURNING e)
        SELECT coalesce(array_agg(claimed.e), '{}'), coalesce(sum(pg_column_size((claimed.e).payload)), 0)
        INTO v_successors, v_bytes
        FROM claimed;
    END IF;
    v_need := p_batch_size - cardinality(v_successors);
    IF v_bytes < p_max_bytes THEN
        WITH claimed AS (
            UPDATE outbox_events e
            SET claim_token = p_claim_token,
                locked_until = v_locked_until
            WHERE e.id = ANY (ARRAY(
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
                              AND (c.retry_after IS NULL OR c.retry_after <= v_now)
                              AND (c.locked_until IS NULL OR c.locked_until <= v_now)
                              AND NOT EXISTS (
                                  SELECT 1
                                  FROM outbox_events p
                                  WHERE p.aggregate_type = c.aggregate_type
                                    AND p.aggregate_id = c.aggregate_id
                                    AND p.processed_at IS NULL
                                    AND p.seq < c.seq)
                            ORDER BY c.seq
                            LIMIT v_need
                            FOR UPDATE OF c SKIP LOCKED) d) w
                WHERE w.bytes_before < p_max_bytes - v_bytes))
            RETURNING e)
        SELECT coalesce(array_agg(claimed.e), '{}'), coalesce(sum(pg_column_size((claimed.e).payload)), 0)
        INTO v_walk, v_walk_bytes
        FROM claimed;
        IF cardinality(v_walk) >= v_need OR v_bytes + v_walk_bytes >= p_max_bytes THEN
            SELECT max(w.seq) + 1 INTO v_walk_next FROM unnest(v_walk) w; -- filled its part: go on above it
        ELSE
            SELECT greatest(p_min_seq, coalesce(max(x.seq) + 1, p_min_seq)) INTO v_walk_next
            FROM outbox_events x
            WHERE x.processed_at IS NULL; -- it looked at every pending row from p_min_seq up
        END IF;
    END IF;
    RETURN QUERY
        SELECT v_completed, c.id, c.seq, c.aggregate_type, c.aggregate_id, c.event_type, c.payload, c.attempts,
               c.created_at, pg_column_size(c.payload), c.tracingspancontext, NULL::bigint
        FROM unnest(v_successors || v_walk) c;
    RETURN QUERY SELECT v_completed, NULL::uuid, NULL::bigint, NULL::varchar, NULL::varchar, NULL::varchar,
                        NULL::jsonb, NULL::integer, NULL::timestamptz, NULL::integer, NULL::text, v_walk_next;
END
$$;
