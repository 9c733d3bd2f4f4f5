-- ee-outbox schema, version 8 (goes with V5): producers notify only while a relay waits for it.
--
-- V5 notifies on every insert. Each notifying commit holds PostgreSQL's single notify lock through
-- its WAL flush, so notifying commits run one after another: measured in this project's benchmark,
-- under load that slows the producers and the relay, and the notifications arrive late and in
-- bunches. But a relay that is busy (it drained events a moment ago and looks again every
-- outbox.relay.busy-poll-interval) needs no notification. So a relay that goes idle registers its
-- LISTEN connection in outbox_relay_waiters, a relay that finds events again soon after deregisters,
-- and the trigger notifies only while at least one relay is registered.
--
-- No event can be missed by that: the trigger takes a shared transaction-scoped advisory lock (at the
-- end of the inserting statement) before it reads the table, and holds it until the producer's
-- transaction ends. A relay that registers then tries the same lock exclusively (outbox_try_quiesce,
-- released when its statement ends), and looks once more only after it got it. A producer that read
-- the table before the registration committed still held the shared lock then, so either the relay's
-- try fails (it keeps looking, at the busy-poll pace, and tries again) or that producer has already
-- ended, and the look after the try finds its rows. A producer that reads the table after the
-- registration notifies. The relay never waits for the lock (try, not wait), and a producer waits for
-- it only during that instant.
--
-- A producer in a REPEATABLE READ or SERIALIZABLE transaction reads the table in its transaction's
-- snapshot, which may predate a registration: it always notifies.
--
-- The trigger function runs with its owner's rights and the search_path in force when this migration
-- runs (SECURITY DEFINER, SET search_path FROM CURRENT): producers need no grant on the waiters table,
-- and a producer's own search_path cannot make it miss the table.
--
-- A registration names the LISTEN connection's backend: its pid and its start time, as
-- pg_stat_activity shows them (read on that connection, so a pooler's own pid never gets in). A relay
-- that reconnects registers anew; rows whose backend is gone (a relay that crashed while registered)
-- are deleted when a relay starts and at every cleanup. A stale row only makes producers notify, as
-- in V5.
--
-- The advisory lock key is 0x65656f7574776169 ('eeoutwai'); the cleanup's maintenance lock is
-- 0x65656f7574626f78 ('eeoutbox'). Both are in the database-wide advisory lock space: an application
-- must not use them. This migration redefines V5's outbox_notify_insert(): a channel other than
-- outbox_event (outbox.relay.notify.channel) must be edited in here too.
--
-- Upgrade: relays of this version find out by themselves (within a minute) that V8 is there. A relay
-- of an earlier version never registers, so with this migration it would be woken by its fallback
-- poll only: upgrade the relays first.

CREATE TABLE outbox_relay_waiters (
    listener_pid   int          NOT NULL PRIMARY KEY,
    listener_start timestamptz  NOT NULL,
    relay_name     varchar(100) NOT NULL,
    since          timestamptz  NOT NULL DEFAULT now()
);

COMMENT ON TABLE outbox_relay_waiters IS
    'ee-outbox relays waiting for NOTIFY (V8): the insert trigger notifies only while a row is here';

CREATE OR REPLACE FUNCTION outbox_notify_insert() RETURNS trigger
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(7306368520734335337);
    IF current_setting('transaction_isolation') <> 'read committed'
       OR EXISTS (SELECT 1 FROM outbox_relay_waiters) THEN
        PERFORM pg_notify('outbox_event', '');
    END IF;
    RETURN NULL;
END;
$$;

-- True when no producer transaction that inserted outbox rows is open at this instant. Takes the lock
-- for the calling transaction: call it in a statement of its own with autocommit, so that the lock is
-- released when the statement ends (never inside a longer transaction: producers would wait for it).
CREATE FUNCTION outbox_try_quiesce() RETURNS boolean
    LANGUAGE sql VOLATILE
AS $$
    SELECT pg_try_advisory_xact_lock(7306368520734335337)
$$;
