-- ee-outbox schema, version 15: an outbox per schema. Two outboxes in two schemas of one database no longer share
-- a NOTIFY channel or an advisory lock.
--
-- Everything else was already per schema: every statement names its tables and functions without a schema, so a
-- data source whose search_path starts with app_a (PgJDBC: currentSchema=app_a) runs them in app_a, and V8's trigger
-- function keeps the search_path of the migration that created it. What was database-wide before this version:
-- V8's NOTIFY channel outbox_event, the waiters' advisory lock (0x65656f7574776169) and the relays' maintenance lock
-- (0x65656f7574626f78). So one schema's writes woke the other schema's idle relays, one schema's open producer
-- transactions kept the other's relays from going idle, and the two cleanups never ran at the same moment.
-- (docs/design/issue-34-outbox-per-schema.md)
--
-- This migration fixes the outbox's keys once, from the schema it runs in (current_schema()), in the one-row table
-- outbox_instance:
--   public     keeps the channel outbox_event and both keys as they were: an existing install changes nothing;
--   any other  the channel outbox_event_<schema> (outbox_event_ and 16 hex digits of the name's md5 when the name
--              is not 1 to 50 of [a-z0-9_] starting with a letter or _, so the channel is always a valid, unquoted
--              identifier of at most 63 bytes) and two 64-bit keys hashed from the schema's name.
-- Where V8 was applied it then redefines V8's two functions with this outbox's channel and waiters key as
-- constants: a notifying statement pays no more than before. Relays of this version read outbox_instance when they
-- start: the channel they LISTEN on and the key of their cleanup. Relays of earlier versions listen on outbox_event
-- and lock with the database-wide keys: in the public schema that is the same; in another schema upgrade the
-- relays with this migration, and restart relays that were running when it was applied.
--
-- A channel other than outbox_event in the public schema (V5 and V8 edited by hand, outbox.relay.notify.channel
-- set to match): edit the channel below the same way before applying this migration.

CREATE TABLE outbox_instance (
    id                   int         NOT NULL DEFAULT 1 PRIMARY KEY CHECK (id = 1),
    schema_name          varchar(63) NOT NULL,
    notify_channel       varchar(63) NOT NULL CHECK (notify_channel ~ '^[a-z_][a-z0-9_]{0,62}$'),
    waiters_lock_key     bigint      NOT NULL,
    maintenance_lock_key bigint      NOT NULL
);

COMMENT ON TABLE outbox_instance IS
    'ee-outbox (V15): this schema''s outbox, its NOTIFY channel and advisory lock keys, fixed when V15 ran';

INSERT INTO outbox_instance (schema_name, notify_channel, waiters_lock_key, maintenance_lock_key)
SELECT s,
       CASE WHEN s = 'public' THEN 'outbox_event'
            WHEN s ~ '^[a-z_][a-z0-9_]{0,49}$' THEN 'outbox_event_' || s
            ELSE 'outbox_event_' || left(md5(s), 16) END,
       CASE WHEN s = 'public' THEN 7306368520734335337
            ELSE hashtextextended('ee-outbox:waiters:' || s, 0) END,
       CASE WHEN s = 'public' THEN 7306368520732962680
            ELSE hashtextextended('ee-outbox:maintenance:' || s, 0) END
FROM (SELECT current_schema()::text AS s) schema_in_use;

-- V8's functions with this outbox's channel and key (only where V8 was applied: an outbox without NOTIFY,
-- docs/schema.md, has neither). The rules are V8's, unchanged: see its comments.
DO $$
DECLARE
    channel varchar;
    waiters bigint;
BEGIN
    IF to_regprocedure('outbox_notify_insert()') IS NULL OR to_regclass('outbox_relay_waiters') IS NULL THEN
        RETURN;
    END IF;
    SELECT notify_channel, waiters_lock_key INTO channel, waiters FROM outbox_instance;
    EXECUTE format($function$
CREATE OR REPLACE FUNCTION outbox_notify_insert() RETURNS trigger
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path FROM CURRENT
AS $body$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(%s);
    IF current_setting('transaction_isolation') <> 'read committed'
       OR EXISTS (SELECT 1 FROM outbox_relay_waiters) THEN
        PERFORM pg_notify(%L, '');
    END IF;
    RETURN NULL;
END;
$body$
$function$, waiters, channel);
    EXECUTE format($function$
CREATE OR REPLACE FUNCTION outbox_try_quiesce() RETURNS boolean
    LANGUAGE sql VOLATILE
AS $body$
    SELECT pg_try_advisory_xact_lock(%s)
$body$
$function$, waiters);
END;
$$;
