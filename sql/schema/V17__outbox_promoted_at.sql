-- ee-outbox schema, version 17: when a promoted delayed event became pending.
--
-- A delayed event (V14) keeps its write-time created_at when outbox_promote_due moves it into outbox_events: that is
-- the event's time, sent as the outbox_created_at header. The pending age (OutboxStats' oldest pending row, the
-- console's oldest row per event type) must count from when the row became pending instead, or an event delayed
-- three days shows as three days old between its promotion and its publish, and the alert on
-- outbox_oldest_pending_age_seconds fires for nothing (docs/operations.md, "Delayed events"). promoted_at records that
-- instant: the promotion's now (the function's p_now, else the database's now(), the same instant it decides
-- due-ness by). It is NULL for every row written straight into outbox_events, so the age queries read
-- coalesce(promoted_at, created_at).
--
-- Adding a nullable column without a default changes only the catalog: no table rewrite, no scan, existing rows
-- read as NULL (PostgreSQL 15, checked on a table of 100,000 rows: same relfilenode before and after, 0.7 ms). Like
-- V10's ADD COLUMN it takes an ACCESS EXCLUSIVE lock for that instant, which waits behind every open transaction that
-- touched the table: apply it with a short lock_timeout (docs/schema.md, "Applying a migration to a busy outbox").
--
-- outbox_promote_due keeps its signature and result, so CREATE OR REPLACE redefines it in place; only its INSERT
-- changes (it sets promoted_at). Relays of every version call it unchanged. A relay of this version on a schema
-- without V17 reads the pending age from created_at, as before (docs/operations.md, "Delayed events").

ALTER TABLE outbox_events ADD COLUMN promoted_at TIMESTAMPTZ;

COMMENT ON COLUMN outbox_events.promoted_at IS
    'ee-outbox (V17): when a delayed event was moved here from outbox_scheduled; NULL for rows written here directly';

-- V14's function with one change: the promoted rows' promoted_at is v_now, the instant their due-ness was decided by.
CREATE OR REPLACE FUNCTION outbox_promote_due(p_synchronous_commit varchar, p_now timestamptz, p_limit int)
    RETURNS TABLE (promoted integer, next_due_ms bigint)
    LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    v_now   timestamptz := coalesce(p_now, now());
    v_moved integer := 0;
BEGIN
    PERFORM set_config('synchronous_commit', p_synchronous_commit, true);
    IF EXISTS (SELECT 1 FROM outbox_scheduled WHERE not_before <= v_now) THEN
        WITH due AS (
            SELECT s.id FROM outbox_scheduled s
            WHERE s.not_before <= v_now
            ORDER BY s.not_before, s.id
            LIMIT p_limit
            FOR UPDATE SKIP LOCKED
        ), moved AS (
            DELETE FROM outbox_scheduled s USING due
            WHERE s.id = due.id
            RETURNING s.id, s.aggregate_type, s.aggregate_id, s.event_type, s.payload, s.tracingspancontext,
                      s.created_at, s.not_before
        )
        INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext,
                                   created_at, promoted_at)
        SELECT m.id, m.aggregate_type, m.aggregate_id, m.event_type, m.payload, m.tracingspancontext, m.created_at,
               v_now
        FROM moved m
        ORDER BY m.not_before, m.id;
        GET DIAGNOSTICS v_moved = ROW_COUNT;
    END IF;
    RETURN QUERY
        SELECT v_moved,
               (SELECT greatest(0, ceil(extract(epoch FROM s.not_before - v_now) * 1000))::bigint
                FROM outbox_scheduled s
                ORDER BY s.not_before
                LIMIT 1);
END;
$$;
