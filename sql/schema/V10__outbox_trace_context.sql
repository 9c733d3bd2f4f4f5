-- ee-outbox schema, version 10: the writer's trace context.
--
-- tracingspancontext holds the W3C trace context (traceparent, tracestate) of the code that recorded the event,
-- when an OpenTelemetry span was active then; NULL otherwise. Its name and format are those of Debezium's
-- outbox event router (its default tracing field, `tracingspancontext`; the value is java.util.Properties text,
-- `traceparent=00-<trace id>-<span id>-<flags>` and optionally `tracestate=...` on a line of its own), so a
-- Debezium connector reading this table continues the same trace. The relay sends it as the message properties
-- `traceparent` and `tracestate`.
--
-- Adding a nullable column without a default changes only the catalog: no table rewrite. The length check is
-- added NOT VALID (existing rows are all NULL, so there is nothing to scan for); it holds for every new row.
-- Writers bound the value far below it (traceparent 55 characters, tracestate 512).

ALTER TABLE outbox_events ADD COLUMN tracingspancontext TEXT;

ALTER TABLE outbox_events
    ADD CONSTRAINT outbox_events_tracingspancontext_length CHECK (length(tracingspancontext) <= 2048) NOT VALID;

-- The relay's claim (V9) returns the column too. Its result type changes, so it is dropped and created again
-- (CREATE OR REPLACE cannot change a result type); a relay of an earlier version names the columns it reads,
-- so it goes on working against this one. The claim functions returning SETOF outbox_events return the new
-- column by themselves.
DROP FUNCTION outbox_complete_and_claim(varchar, boolean, timestamptz, uuid[], uuid, uuid, bigint, int, int,
                                        boolean, int, bigint);

CREATE FUNCTION outbox_complete_and_claim(p_synchronous_commit varchar, p_delete boolean, p_now timestamptz,
                                          p_done_ids uuid[], p_done_token uuid, p_claim_token uuid,
                                          p_lease_ms bigint, p_max_attempts int, p_batch_size int,
                                          p_ordered boolean, p_max_bytes int, p_min_seq bigint)
    RETURNS TABLE (completed integer, id uuid, seq bigint, aggregate_type varchar, aggregate_id varchar,
                   event_type varchar, payload jsonb, attempts integer, created_at timestamptz,
                   payload_bytes integer, tracingspancontext text)
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
                       c.attempts, c.created_at, pg_column_size(c.payload), c.tracingspancontext
                FROM outbox_claim_batch_ordered(p_claim_token, v_locked_until, p_max_attempts, v_now, p_batch_size,
                                                p_max_bytes, p_min_seq) c;
        ELSE
            RETURN QUERY
                SELECT v_completed, c.id, c.seq, c.aggregate_type, c.aggregate_id, c.event_type, c.payload,
                       c.attempts, c.created_at, pg_column_size(c.payload), c.tracingspancontext
                FROM outbox_claim_batch(p_claim_token, v_locked_until, p_max_attempts, v_now, p_batch_size,
                                        p_max_bytes, p_min_seq) c;
        END IF;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    RETURN QUERY SELECT v_completed, NULL::uuid, NULL::bigint, NULL::varchar, NULL::varchar, NULL::varchar,
                        NULL::jsonb, NULL::integer, NULL::timestamptz, NULL::integer, NULL::text;
END
$$;
