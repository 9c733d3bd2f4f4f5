-- ee-outbox schema, version 12: inbox retention per consumer.
--
-- The relay's cleaner deletes inbox records (processed_events) older than one retention for every consumer
-- (outbox.relay.inbox.retention, V9's outbox_delete_processed_events). A consumer whose broker may deliver an event
-- again much later (a Kafka topic kept 90 days) needs its records longer than the others, and keeping everyone's that
-- long keeps far more rows than needed. outbox.relay.inbox.retention.per-consumer names such consumers and their
-- retentions; every other consumer keeps the default.
--
-- outbox_delete_processed_events (this version's overload) goes through the consumers one by one, in name order,
-- each found with one probe of the primary key (consumer, event_id), and deletes that consumer's records older than
-- its own retention, oldest first, by the new index (consumer, processed_at): a batch never reads the records that a
-- longer retention keeps. It deletes at most p_batch_size records in all and returns how many; callers repeat while a
-- batch was full. Relays of earlier versions keep calling V9's function, which this version leaves as it was (with
-- its index on processed_at), so they can run beside relays of this one during a rolling upgrade.
--
-- The index is built in this migration's transaction, and CREATE INDEX holds back every insert into processed_events
-- (every consumer's transaction) while it builds. On a large inbox build it beforehand without blocking anyone,
-- outside a transaction; this file then keeps it (IF NOT EXISTS):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_processed_events_consumer_processed_at
--       ON processed_events (consumer, processed_at);
CREATE INDEX IF NOT EXISTS idx_processed_events_consumer_processed_at ON processed_events (consumer, processed_at);

CREATE FUNCTION outbox_delete_processed_events(p_now timestamptz, p_retention_ms bigint, p_batch_size int,
                                               p_consumers varchar[], p_retentions_ms bigint[])
    RETURNS integer
    LANGUAGE plpgsql VOLATILE
    SET enable_seqscan = off
    SET enable_sort = off
AS $$
DECLARE
    v_now timestamptz := coalesce(p_now, now());
    v_left integer := p_batch_size;
    v_consumer varchar;
    v_position integer;
    v_retention_ms bigint;
    v_deleted integer;
BEGIN
    IF coalesce(array_length(p_consumers, 1), 0) <> coalesce(array_length(p_retentions_ms, 1), 0) THEN
        RAISE EXCEPTION 'outbox_delete_processed_events: % consumers but % retentions',
            coalesce(array_length(p_consumers, 1), 0), coalesce(array_length(p_retentions_ms, 1), 0);
    END IF;
    v_consumer := (SELECT min(p.consumer) FROM processed_events p);
    WHILE v_consumer IS NOT NULL AND v_left > 0 LOOP
        v_position := array_position(p_consumers, v_consumer);
        v_retention_ms := CASE WHEN v_position IS NULL THEN p_retention_ms ELSE p_retentions_ms[v_position] END;
        WITH done AS (
            DELETE FROM processed_events d
            WHERE d.consumer = v_consumer
              AND d.event_id IN (SELECT p.event_id
                                 FROM processed_events p
                                 WHERE p.consumer = v_consumer
                                   AND p.processed_at < v_now - v_retention_ms * interval '1 millisecond'
                                 ORDER BY p.processed_at
                                 LIMIT v_left)
            RETURNING 1)
        SELECT count(*)::integer INTO v_deleted FROM done;
        v_left := v_left - v_deleted;
        v_consumer := (SELECT min(p.consumer) FROM processed_events p WHERE p.consumer > v_consumer);
    END LOOP;
    RETURN p_batch_size - v_left;
END;
$$;
