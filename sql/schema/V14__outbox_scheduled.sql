-- ee-outbox schema, version 14: delayed events, not published before a time of the database's clock.
--
-- OutboxService.record(..., notBefore) writes a delayed event here, in the caller's transaction like any event
-- (InsertOutboxEventAt: one statement that puts the row here when not_before is after the database's now(), else
-- straight into outbox_events, so "a time in the past is now" is decided by the database's clock). outbox_events,
-- its indexes and the claim functions do not change: a scheduled row is not pending, is never claimed, and holds
-- back nothing. When it falls due a relay moves it into outbox_events (outbox_promote_due below): it keeps its id,
-- created_at and trace context and gets a fresh seq, so its place in write order, and in its aggregate's order in
-- ordered mode, is the moment it fell due (docs/decisions/0022-a-delayed-event-joins-its-aggregate-when-due.md).
--
-- A relay holds one instant, when the earliest scheduled row falls due (outbox_promote_due answers it, on the
-- database's clock), and promotes at that time, at start, when woken, and at its fallback poll: nothing per row.
-- The insert trigger below wakes idle relays the way V8's does for outbox_events, so a row due sooner than the one
-- a relay knows about is seen at once. Relays of earlier versions never promote: upgrade the relays before
-- writing delayed events (docs/operations.md, "Delayed events").

CREATE TABLE outbox_scheduled (
    id                 UUID         PRIMARY KEY,
    aggregate_type     VARCHAR(100) NOT NULL,
    aggregate_id       VARCHAR(100) NOT NULL,
    event_type         VARCHAR(100) NOT NULL,
    payload            JSONB        NOT NULL,
    tracingspancontext TEXT,
    created_at         TIMESTAMPTZ  NOT NULL DEFAULT now(),
    not_before         TIMESTAMPTZ  NOT NULL,
    CONSTRAINT outbox_scheduled_tracingspancontext_length CHECK (length(tracingspancontext) <= 2048)
);

COMMENT ON TABLE outbox_scheduled IS
    'ee-outbox delayed events (V14): moved into outbox_events by a relay once not_before has come';

-- The promotion's probe and the next due time: the earliest rows first.
CREATE INDEX idx_outbox_scheduled_not_before ON outbox_scheduled (not_before);

-- A delayed write wakes idle relays like any write (V8's function: the advisory lock, then a notification only
-- while a relay waits), so a relay learns of a row due sooner than the earliest it knew. Only where the NOTIFY
-- migrations (V5, V8) were applied: an outbox without them (docs/schema.md, "Without NOTIFY") gets no trigger here
-- either. Switching NOTIFY off by hand means disabling this trigger too:
--   ALTER TABLE outbox_scheduled DISABLE TRIGGER outbox_scheduled_insert_notify;
DO $$
BEGIN
    IF to_regprocedure('outbox_notify_insert()') IS NOT NULL THEN
        CREATE TRIGGER outbox_scheduled_insert_notify
            AFTER INSERT ON outbox_scheduled
            FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify_insert();
    END IF;
END;
$$;

-- Moves up to p_limit due rows (not_before <= coalesce(p_now, now())), earliest first, into outbox_events in one
-- statement, each with a fresh seq in due order; rows another relay is moving are skipped. Returns how many it
-- moved and, in milliseconds from then, when the earliest row left falls due (0 when one is due already, NULL
-- when none is scheduled). The insert runs only when a due row exists: an INSERT of no rows would still fire
-- outbox_events' statement trigger, and its notification would wake the relays for nothing. It commits with the
-- relay's synchronous_commit (outbox.relay.synchronous-commit, as the claim in V9): a promotion lost in a crash
-- leaves its rows scheduled, and they are promoted again.
CREATE FUNCTION outbox_promote_due(p_synchronous_commit varchar, p_now timestamptz, p_limit int)
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
                                   created_at)
        SELECT m.id, m.aggregate_type, m.aggregate_id, m.event_type, m.payload, m.tracingspancontext, m.created_at
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
