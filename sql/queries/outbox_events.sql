-- Queries on outbox_events: the single source of ee-outbox's SQL for the outbox table.
-- Format: sqlc. Each statement starts with `-- name: QueryName :kind`; parameters are
-- `@name::type` (or `sqlc.arg(name)::type`, and `sqlc.narg(name)::type` when NULL is allowed).
-- Every parameter carries its type as a cast; every computed result column carries a cast and
-- an alias. The generator (outbox-codegen) turns this file into the OutboxEvent entity's named
-- native queries, the JPA DAO OutboxEventQueries and the JDBC DAO OutboxEventJdbc.
-- Every statement here is run by ee-outbox itself (the writer, the inbox, the relay through its store/
-- package); statements only tests and the benchmark run are in ../test-queries/outbox_events.sql.
-- Times: the relay's statements (V9) take durations and add them to the database's clock,
-- `coalesce(@now, now())`; the relay passes NULL for `now`, only tests pass a time.

-- name: InsertOutboxEvent :exec
-- Records one event. Runs in the caller's transaction, through its persistence unit. tracingspancontext (V10):
-- the writer's W3C trace context as java.util.Properties text, NULL when no span was active.
INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext)
VALUES (@id::uuid, @aggregate_type::varchar, @aggregate_id::varchar, @event_type::varchar, @payload::jsonb,
        sqlc.narg(tracingspancontext)::text);

-- name: InsertOutboxEventAt :exec
-- Records one delayed event (V14), in the caller's transaction like InsertOutboxEvent: into outbox_scheduled when
-- not_before is after the database's now(), else (a time in the past is now) into outbox_events, in one statement.
-- The writer checks the bound on not_before before (docs/operations.md, "Delayed events"). InsertOutboxEvent stays
-- the statement of events without a delay: they pay nothing for this one.
WITH v AS (
    SELECT @id::uuid AS id, @aggregate_type::varchar AS aggregate_type, @aggregate_id::varchar AS aggregate_id,
           @event_type::varchar AS event_type, @payload::jsonb AS payload,
           sqlc.narg(tracingspancontext)::text AS tracingspancontext, @not_before::timestamptz AS not_before
), scheduled AS (
    INSERT INTO outbox_scheduled (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext,
                                  not_before)
    SELECT id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext, not_before
    FROM v
    WHERE not_before > now()
    RETURNING id
)
INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext)
SELECT id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext
FROM v
WHERE not_before <= now();

-- name: CompleteAndClaimOutboxBatch :many
-- The relay's drain in one statement, one round trip and one commit per batch: completes the
-- previous published batch (marks it, or deletes it when delete is true) and claims the next one,
-- in a transaction that commits with synchronous_commit (outbox_complete_and_claim in V9, with the
-- byte budget of V7: the claim stops at batch_size rows or once they hold max_bytes of payload).
-- Times come from the database: processed_at and the lease (lease_ms from then) are taken from
-- coalesce(now, now()), so servers with different clocks never overlap. The claim starts at seq
-- min_seq (0: the whole index; see V9 on held snapshots).
-- Empty done_ids: claim only; batch_size 0: complete only. Each claimed row carries `completed`,
-- the number of rows completed, and `payload_bytes`, its stored payload size; when nothing was
-- claimed, one row with a NULL id (and NULL columns, read as 0 where the Java type is primitive)
-- carries `completed`. tracingspancontext: the writer's trace context (V10), NULL when none.
SELECT completed::int AS completed, id, seq, aggregate_type, aggregate_id, event_type, payload, attempts,
       created_at, payload_bytes::int AS payload_bytes, tracingspancontext
FROM outbox_complete_and_claim(@synchronous_commit::varchar, @delete::boolean, sqlc.narg(now)::timestamptz,
                               @done_ids::uuid[], sqlc.narg(done_token)::uuid, @claim_token::uuid,
                               @lease_ms::bigint, @max_attempts::int, @batch_size::int,
                               @ordered::boolean, @max_bytes::int, @min_seq::bigint);

-- name: CompleteAndClaimOutboxBatchOrdered :many
-- Ordered mode's CompleteAndClaimOutboxBatch (outbox_complete_and_claim_ordered in V11): completes the previous
-- published batch, then claims first the next due event of each aggregate it completed (one probe of the
-- aggregate index each, at most half the batch), then from the walk that starts at min_seq, as before. The last
-- row has a NULL id and carries `completed` and walk_next: where the next claim's walk may start (above the
-- highest seq this walk claimed when it filled its part, else above the highest pending seq). Claimed rows
-- carry walk_next NULL (read as 0).
SELECT completed::int AS completed, id, seq, aggregate_type, aggregate_id, event_type, payload, attempts,
       created_at, payload_bytes::int AS payload_bytes, tracingspancontext, walk_next::bigint AS walk_next
FROM outbox_complete_and_claim_ordered(@synchronous_commit::varchar, @delete::boolean, sqlc.narg(now)::timestamptz,
                                       @done_ids::uuid[], sqlc.narg(done_token)::uuid, @claim_token::uuid,
                                       @lease_ms::bigint, @max_attempts::int, @batch_size::int, @max_bytes::int,
                                       @min_seq::bigint);

-- name: RecordOutboxFailuresDelayed :many
-- Records the failed publishes of one batch in one statement, on the database's clock (V9): each
-- row's attempts go up by one, it is due again delays_ms
-- after coalesce(now, now()), and becomes a dead letter at max_attempts.
SELECT id, attempts, dead_at
FROM outbox_record_failures(@max_attempts::int, sqlc.narg(now)::timestamptz, @ids::uuid[],
                            @delays_ms::bigint[], @errors::varchar[], @claim_token::uuid);

-- name: DeferOutboxBatchDelayed :one
-- Broker outage, on the database's clock (V9): gives claimed rows back, due again delay_ms after
-- coalesce(now, now()), without counting an attempt; returns how many rows it deferred.
SELECT outbox_defer(@ids::uuid[], sqlc.narg(now)::timestamptz, @delay_ms::bigint, @error::varchar,
                    @claim_token::uuid)::int AS deferred;

-- name: ReleaseOutboxClaim :execrows
-- Gives claimed but unpublished rows back at once (relay stopping, lease running out), so
-- another relay does not have to wait for the lease to expire.
UPDATE outbox_events
SET claim_token = NULL,
    locked_until = NULL
WHERE id = ANY (@ids::uuid[])
  AND claim_token = @claim_token::uuid
  AND processed_at IS NULL;

-- name: OutboxStats :one
-- The gauges in one pass over the partial index: pending, dead letters, and since when the oldest pending row has
-- been pending: its creation, or for a promoted delayed event its promotion (V17's promoted_at; docs/operations.md,
-- "Delayed events").
SELECT count(*) FILTER (WHERE dead_at IS NULL)::bigint AS pending,
       count(*) FILTER (WHERE dead_at IS NOT NULL)::bigint AS dead,
       min(coalesce(promoted_at, created_at)) FILTER (WHERE dead_at IS NULL)::timestamptz AS oldest_pending_since
FROM outbox_events
WHERE processed_at IS NULL;

-- name: OutboxStatsBeforeV17 :one
-- OutboxStats on a schema without V17 (no promoted_at, SQLSTATE 42703): a promoted delayed event counts from its write.
SELECT count(*) FILTER (WHERE dead_at IS NULL)::bigint AS pending,
       count(*) FILTER (WHERE dead_at IS NOT NULL)::bigint AS dead,
       min(created_at) FILTER (WHERE dead_at IS NULL)::timestamptz AS oldest_pending_since
FROM outbox_events
WHERE processed_at IS NULL;

-- name: PromoteDueOutboxEvents :one
-- Delayed events (V14): moves up to max_rows scheduled rows whose not_before has come (on coalesce(now, now()))
-- into outbox_events, earliest first, in one statement (outbox_promote_due), each with a fresh seq. Returns how
-- many it moved and the milliseconds until the earliest row left falls due (0: one is due already; NULL: none is
-- scheduled), computed by the database, so the relay's own clock never matters. Commits with synchronous_commit.
-- Since V17 each moved row's promoted_at is that now, from which the pending age counts (OutboxStats).
SELECT promoted::int AS promoted, next_due_ms::bigint AS next_due_ms
FROM outbox_promote_due(@synchronous_commit::varchar, sqlc.narg(now)::timestamptz, @max_rows::int);

-- name: OutboxCdcSlot :one
-- CDC mode's gauges (docs/cdc.md, "What to watch"): the connector's replication slot, whether it exists and a
-- connector is connected (active), how far its confirmed position is behind the current WAL position (lag_bytes) and
-- how much WAL it holds back (retained_wal_bytes); one row even when there is no such slot (present false).
SELECT (s.slot_name IS NOT NULL)::boolean AS present,
       coalesce(s.active, false)::boolean AS active,
       coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), s.confirmed_flush_lsn), -1)::bigint AS lag_bytes,
       coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), s.restart_lsn), -1)::bigint AS retained_wal_bytes,
       coalesce(s.wal_status, '')::varchar AS wal_status
FROM (SELECT 1) AS one
LEFT JOIN pg_replication_slots s ON s.slot_name = @slot_name::varchar;

-- name: OutboxCdcStats :one
-- CDC mode's OutboxStats (docs/cdc.md, "What replaces pending"), which reads none of the rows kept for the retention
-- (every row written in it is unprocessed there): the dead letters counted by V16's index idx_outbox_dead_letters,
-- and the rows kept as PostgreSQL's estimate (the table's live rows in pg_stat_user_tables, less the dead letters;
-- rows processed before a switch to cdc mode count too until their retention ends).
SELECT d.dead::bigint AS dead,
       greatest(pg_stat_get_live_tuples('outbox_events'::regclass) - d.dead, 0)::bigint AS kept_estimate
FROM (SELECT count(*) AS dead
      FROM outbox_events
      WHERE dead_at IS NOT NULL
        AND processed_at IS NULL) AS d;

-- name: OutboxScheduledStats :one
-- The delayed events' gauges (V14): how many are scheduled (not yet due, so not pending) and the earliest due time.
SELECT count(*)::bigint AS scheduled, min(not_before)::timestamptz AS next_due_at
FROM outbox_scheduled;

-- name: FindOutboxEvent :one
SELECT id, seq, aggregate_type, aggregate_id, event_type, payload, attempts, created_at,
       retry_after, last_error, dead_at, processed_at, tracingspancontext
FROM outbox_events
WHERE id = @id::uuid;

-- name: RetryOutboxDeadLetter :execrows
-- Makes one dead letter due again, with a fresh retry budget.
UPDATE outbox_events
SET attempts = 0,
    retry_after = NULL,
    dead_at = NULL
WHERE id = @id::uuid
  AND processed_at IS NULL
  AND dead_at IS NOT NULL;

-- The operations service (MBean, console): dead letters by a filter of event type, aggregate
-- type, aggregate id, creation time range (from inclusive, to exclusive) and a piece of the last error
-- (case-insensitive, taken literally: no wildcards); a NULL filter matches all. The three statements
-- share the filter, so a retry changes exactly the rows the count showed (as of its own statement).

-- name: CountOutboxDeadLettersMatching :one
SELECT count(*)::bigint AS matching
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL
  AND (sqlc.narg(event_type)::varchar IS NULL OR event_type = sqlc.narg(event_type)::varchar)
  AND (sqlc.narg(aggregate_type)::varchar IS NULL OR aggregate_type = sqlc.narg(aggregate_type)::varchar)
  AND (sqlc.narg(aggregate_id)::varchar IS NULL OR aggregate_id = sqlc.narg(aggregate_id)::varchar)
  AND (sqlc.narg(created_from)::timestamptz IS NULL OR created_at >= sqlc.narg(created_from)::timestamptz)
  AND (sqlc.narg(created_to)::timestamptz IS NULL OR created_at < sqlc.narg(created_to)::timestamptz)
  AND (sqlc.narg(error_text)::varchar IS NULL
       OR strpos(lower(last_error), lower(sqlc.narg(error_text)::varchar)) > 0);

-- name: ListOutboxDeadLettersMatching :many
-- One page, in write order after the cursor after_seq (0: from the start); the payload as text, cut
-- to payload_chars characters (FindOutboxEvent has it whole).
SELECT id, seq, aggregate_type, aggregate_id, event_type, attempts, created_at, last_error, dead_at,
       left(payload::text, @payload_chars::int)::text AS payload_head,
       (length(payload::text) > @payload_chars::int)::boolean AS payload_cut
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL
  AND (sqlc.narg(event_type)::varchar IS NULL OR event_type = sqlc.narg(event_type)::varchar)
  AND (sqlc.narg(aggregate_type)::varchar IS NULL OR aggregate_type = sqlc.narg(aggregate_type)::varchar)
  AND (sqlc.narg(aggregate_id)::varchar IS NULL OR aggregate_id = sqlc.narg(aggregate_id)::varchar)
  AND (sqlc.narg(created_from)::timestamptz IS NULL OR created_at >= sqlc.narg(created_from)::timestamptz)
  AND (sqlc.narg(created_to)::timestamptz IS NULL OR created_at < sqlc.narg(created_to)::timestamptz)
  AND (sqlc.narg(error_text)::varchar IS NULL
       OR strpos(lower(last_error), lower(sqlc.narg(error_text)::varchar)) > 0)
  AND seq > @after_seq::bigint
ORDER BY seq
LIMIT @max_rows::int;

-- name: RetryOutboxDeadLettersMatching :execrows
-- Makes every dead letter that matches the filter due again, with a fresh retry budget (the store's
-- retryDeadLetters; the contract test holds the in-memory stores to the same filter).
UPDATE outbox_events
SET attempts = 0,
    retry_after = NULL,
    dead_at = NULL
WHERE processed_at IS NULL
  AND dead_at IS NOT NULL
  AND (sqlc.narg(event_type)::varchar IS NULL OR event_type = sqlc.narg(event_type)::varchar)
  AND (sqlc.narg(aggregate_type)::varchar IS NULL OR aggregate_type = sqlc.narg(aggregate_type)::varchar)
  AND (sqlc.narg(aggregate_id)::varchar IS NULL OR aggregate_id = sqlc.narg(aggregate_id)::varchar)
  AND (sqlc.narg(created_from)::timestamptz IS NULL OR created_at >= sqlc.narg(created_from)::timestamptz)
  AND (sqlc.narg(created_to)::timestamptz IS NULL OR created_at < sqlc.narg(created_to)::timestamptz)
  AND (sqlc.narg(error_text)::varchar IS NULL
       OR strpos(lower(last_error), lower(sqlc.narg(error_text)::varchar)) > 0);

-- name: OutboxPendingByEventType :many
-- Pending rows (dead letters not included) per event type, the largest first, with since when the oldest has been
-- pending (its creation, or its promotion for a delayed event: V17's promoted_at, as in OutboxStats).
SELECT event_type, count(*)::bigint AS pending, min(coalesce(promoted_at, created_at))::timestamptz AS oldest_pending_since
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NULL
GROUP BY event_type
ORDER BY pending DESC, event_type
LIMIT @max_rows::int;

-- name: OutboxPendingByEventTypeBeforeV17 :many
-- OutboxPendingByEventType on a schema without V17 (SQLSTATE 42703): a promoted delayed event counts from its write.
SELECT event_type, count(*)::bigint AS pending, min(created_at)::timestamptz AS oldest_pending_since
FROM outbox_events
WHERE processed_at IS NULL
  AND dead_at IS NULL
GROUP BY event_type
ORDER BY pending DESC, event_type
LIMIT @max_rows::int;

-- name: DeleteExpiredOutboxEvents :one
-- The relay's cleanup on the database's clock (V9): deletes at most batch_size rows processed more
-- than retention_ms before coalesce(now, now()), oldest first; callers repeat while a batch was full.
SELECT outbox_delete_processed(sqlc.narg(now)::timestamptz, @retention_ms::bigint, @batch_size::int)::int AS deleted;

-- name: DeleteExpiredCdcOutboxEvents :one
-- CDC mode's cleanup (docs/cdc.md, decision 0023): no row is ever published by a relay there, so it deletes the
-- unprocessed rows (dead letters kept) created more than retention_ms before coalesce(now, now()). It looks at the
-- batch_size oldest by seq only (idx_outbox_unprocessed), so a batch reads a bounded part of the index whatever the
-- table holds, and deletes those of them that are old enough; callers repeat while a batch was full. Deleting a row
-- never hides its insert from the connector: logical decoding reads the insert from the write-ahead log.
WITH head AS (
    SELECT c.id, c.created_at
    FROM outbox_events c
    WHERE c.processed_at IS NULL
      AND c.dead_at IS NULL
    ORDER BY c.seq
    LIMIT @batch_size::int
), done AS (
    DELETE FROM outbox_events e
    USING head h
    WHERE e.id = h.id
      AND h.created_at < coalesce(sqlc.narg(now)::timestamptz, now()) - @retention_ms::bigint * interval '1 millisecond'
    RETURNING 1
)
SELECT count(*)::int AS deleted
FROM done;

-- name: DeadLetterExhaustedOutboxEvents :one
-- Stranded rows (V9): pending rows whose attempts reached max_attempts but that are no dead letters
-- (max-attempts was lowered, or relays run with different values) become dead letters; returns how many.
SELECT outbox_dead_letter_exhausted(@max_attempts::int, sqlc.narg(now)::timestamptz)::int AS dead;

-- name: OutboxOrderedIndexReady :one
-- Ordered mode's claims need idx_outbox_aggregate_pending (V1; options/unordered-only.sql drops it,
-- options/ordered-mode.sql creates it again). True when the outbox_events this connection's search_path finds has
-- that index, valid and ready: a failed CREATE INDEX CONCURRENTLY leaves an invalid one that no claim uses.
SELECT EXISTS (SELECT 1
               FROM pg_index i
               JOIN pg_class c ON c.oid = i.indexrelid
               WHERE i.indrelid = 'outbox_events'::regclass
                 AND c.relname = 'idx_outbox_aggregate_pending'
                 AND i.indisvalid AND i.indisready)::boolean AS ready;

-- name: TryOutboxMaintenanceLock :one
-- Elects the one relay that runs cleanup: a transaction-scoped advisory lock, released at commit.
SELECT pg_try_advisory_xact_lock(@lock_key::bigint)::boolean AS acquired;

-- name: OutboxInstance :one
-- This outbox's NOTIFY channel and maintenance lock key (V15), fixed by the migration from the schema it ran in: a
-- relay reads them once at start. Before V15 the table is missing (SQLSTATE 42P01) and the keys are database-wide.
SELECT schema_name::varchar AS schema_name, notify_channel::varchar AS notify_channel,
       maintenance_lock_key::bigint AS maintenance_lock_key
FROM outbox_instance
WHERE id = 1;

-- name: SetRelaySynchronousCommit :one
-- The relay's own transactions (claim, complete, record failures, defer, release, cleanup) commit
-- with outbox.relay.synchronous-commit (default off: the commit does not wait for the WAL flush).
-- is_local = true: the setting ends with the current transaction, so a pooled connection goes back
-- to its pool unchanged. Losing such a commit in a database crash only makes rows claimable again
-- or publishes them again (at-least-once); producers' inserts never run with it.
SELECT set_config('synchronous_commit', @value::text, true)::text AS value;

-- name: OutboxListenerIdentity :one
-- Run on a relay's LISTEN connection: the backend that will receive the notifications, as
-- pg_stat_activity names it (V8 registrations; a pooler in between cannot substitute its own pid).
SELECT pid::int AS listener_pid, backend_start::timestamptz AS listener_start
FROM pg_stat_activity
WHERE pid = pg_backend_pid();

-- name: RegisterOutboxWaiter :exec
-- A relay going idle: producers notify from now on (V8). Registering again (the same pid) only
-- renews the row.
INSERT INTO outbox_relay_waiters (listener_pid, listener_start, relay_name)
VALUES (@listener_pid::int, @listener_start::timestamptz, @relay_name::varchar)
ON CONFLICT (listener_pid) DO UPDATE
SET listener_start = EXCLUDED.listener_start, relay_name = EXCLUDED.relay_name, since = now();

-- name: RenewOutboxWaiter :execrows
-- A waiting relay checks (at each cleanup) that its registration is still there; 0: register again.
UPDATE outbox_relay_waiters SET since = now()
WHERE listener_pid = @listener_pid::int AND listener_start = @listener_start::timestamptz;

-- name: UnregisterOutboxWaiter :execrows
-- A busy relay (or one that stops, or whose LISTEN connection was replaced) needs no notification.
DELETE FROM outbox_relay_waiters
WHERE listener_pid = @listener_pid::int AND listener_start = @listener_start::timestamptz;

-- name: TryOutboxQuiesce :one
-- After registering: true when no producer that may have read the waiters before the registration
-- is still open, so one more look finds all their rows (see V8). Never waits. Autocommit only: the
-- lock it takes is released when this statement's transaction ends.
SELECT outbox_try_quiesce()::boolean AS quiet;

-- name: DeleteStaleOutboxWaiters :execrows
-- Registrations whose LISTEN connection is gone (a relay crashed while registered); a pid reused by
-- another backend does not keep a row alive (its start time differs).
DELETE FROM outbox_relay_waiters w
WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                  WHERE a.pid = w.listener_pid AND a.backend_start = w.listener_start);

-- name: BeatOutboxRelay :many
-- A relay's heartbeat (V13), every outbox.relay.fleet.heartbeat-interval, the fleet's only periodic statement:
-- writes the relay's row of outbox_relays, reads the fleet's control row, and returns every relay's row as it was
-- before this statement (the caller puts in its own fresh row; at least one row, whose member columns are NULL
-- when the table was empty). FOR SHARE serializes it with a pause-all or resume-all (SetOutboxFleetPaused): either
-- that change's acknowledgement wait finds this row, or this heartbeat reads the change. fleet_epoch_seen is the
-- last epoch the relay applied (a pause: once its batch in flight completed). Times are the database's clock.
WITH control AS (
    SELECT paused, epoch, changed_by, changed_at FROM outbox_fleet_control WHERE id = 1 FOR SHARE
), beat AS (
    INSERT INTO outbox_relays AS r (server, application, relay_name, instance, started_at, last_seen, interval_ms,
                                    state, paused_local, published, failed, dead_lettered, last_error,
                                    fleet_epoch_seen)
    VALUES (@server::varchar, @application::varchar, @relay_name::varchar, @instance::uuid, now(), now(),
            @interval_ms::bigint, @state::varchar, @paused_local::boolean, @published::bigint, @failed::bigint,
            @dead_lettered::bigint, sqlc.narg(last_error)::varchar, @fleet_epoch_seen::bigint)
    ON CONFLICT (server, application, relay_name) DO UPDATE
    SET started_at = CASE WHEN r.instance = EXCLUDED.instance THEN r.started_at ELSE now() END,
        instance = EXCLUDED.instance, last_seen = now(), interval_ms = EXCLUDED.interval_ms,
        state = EXCLUDED.state, paused_local = EXCLUDED.paused_local, published = EXCLUDED.published,
        failed = EXCLUDED.failed, dead_lettered = EXCLUDED.dead_lettered, last_error = EXCLUDED.last_error,
        fleet_epoch_seen = EXCLUDED.fleet_epoch_seen
    RETURNING r.started_at
)
SELECT c.paused::boolean AS fleet_paused, c.epoch::bigint AS fleet_epoch, c.changed_by::varchar AS changed_by,
       c.changed_at::timestamptz AS changed_at, b.started_at::timestamptz AS own_started_at,
       now()::timestamptz AS db_now,
       m.server::varchar AS server, m.application::varchar AS application, m.relay_name::varchar AS relay_name,
       m.instance::uuid AS instance, m.started_at::timestamptz AS started_at, m.last_seen::timestamptz AS last_seen,
       m.interval_ms::bigint AS interval_ms, m.state::varchar AS state, m.paused_local::boolean AS paused_local,
       m.published::bigint AS published, m.failed::bigint AS failed, m.dead_lettered::bigint AS dead_lettered,
       m.last_error::varchar AS last_error, m.fleet_epoch_seen::bigint AS fleet_epoch_seen
FROM control c
CROSS JOIN beat b
LEFT JOIN LATERAL (
    SELECT server, application, relay_name, instance, started_at, last_seen, interval_ms, state, paused_local,
           published, failed, dead_lettered, last_error, fleet_epoch_seen
    FROM outbox_relays ORDER BY server, application, relay_name LIMIT @max_rows::int
) m ON true;

-- name: ListOutboxRelays :many
-- The fleet (V13): every relay's last heartbeat, by the database's clock. missing: not seen for three of its
-- intervals and not stopped cleanly. Bounded: the table holds the relays seen within the fleet's retention.
SELECT server, application, relay_name, instance, started_at, last_seen, interval_ms, state, paused_local,
       published, failed, dead_lettered, last_error, fleet_epoch_seen,
       (state <> 'stopped' AND now() - last_seen > interval_ms * 3 * interval '1 millisecond')::boolean AS missing,
       greatest(0, (extract(epoch FROM now() - last_seen) * 1000))::bigint AS seen_ms_ago
FROM outbox_relays
ORDER BY server, application, relay_name
LIMIT @max_rows::int;

-- name: OutboxFleetControl :one
-- Whether the fleet is paused (V13), its epoch, and who changed it last, when.
SELECT paused, epoch, changed_by, changed_at FROM outbox_fleet_control WHERE id = 1;

-- name: SetOutboxFleetPaused :one
-- Pause all (true) or resume all (false), from any relay of the fleet (V13): every relay applies it at its next
-- heartbeat and acknowledges it in its row (fleet_epoch_seen >= the epoch returned here).
UPDATE outbox_fleet_control
SET paused = @paused::boolean, epoch = epoch + 1, changed_by = @changed_by::varchar, changed_at = now()
WHERE id = 1
RETURNING epoch, changed_at;

-- name: DeleteGoneOutboxRelays :execrows
-- Rows of relays not seen for longer than the fleet's retention (V13), a few at a time; rows another relay is
-- deleting are skipped.
DELETE FROM outbox_relays
WHERE (server, application, relay_name) IN (
    SELECT server, application, relay_name FROM outbox_relays
    WHERE last_seen < now() - @retention_ms::bigint * interval '1 millisecond'
    LIMIT 100
    FOR UPDATE SKIP LOCKED);
