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
-- No event can be missed by that: the trigger takes a shared transaction-scoped advisory lock before
-- it reads the table, and holds it until the producer's transaction ends. A relay that registers
-- then takes the same lock exclusively for an instant (outbox_try_quiesce), and looks once more only
-- after it got it. A producer that read the table before the registration committed still held the
-- shared lock then, so either the relay's try fails (it keeps looking, at the busy-poll pace, and
-- tries again) or that producer has already ended, and the look after the try finds its rows. A
-- producer that reads the table after the registration notifies. The relay never waits for the
-- lock (try, not wait), and a producer waits for it only during that instant.
--
-- A producer in a REPEATABLE READ or SERIALIZABLE transaction reads the table in its transaction's
-- snapshot, which may predate a registration: it always notifies.
--
-- Registrations are keyed by the LISTEN connection's backend pid: a relay that reconnects registers
-- anew, and rows whose backend is gone (a relay that crashed while registered) are deleted when a
-- relay starts and at every cleanup. A stale row only makes producers notify, as in V5.
--
-- The advisory lock key is 0x65656f7574776169 ('eeoutwai'); the cleanup's maintenance lock is
-- 0x65656f7574626f78 ('eeoutbox'). Both are in the database-wide advisory lock space: an application
-- must not use them. The channel must match outbox.relay.notify.channel, as in V5.
--
-- Upgrade: apply with the relays of this version. A relay of an earlier version never registers,
-- so with this migration it would be woken by its fallback poll only.

CREATE TABLE outbox_relay_waiters (
    listener_pid int          NOT NULL PRIMARY KEY,
    relay_name   varchar(100) NOT NULL,
    since        timestamptz  NOT NULL DEFAULT now()
);

COMMENT ON TABLE outbox_relay_waiters IS
    'ee-outbox relays waiting for NOTIFY (V8): the insert trigger notifies only while a row is here';

CREATE OR REPLACE FUNCTION outbox_notify_insert() RETURNS trigger AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(7306368520734335337);
    IF current_setting('transaction_isolation') <> 'read committed'
       OR EXISTS (SELECT 1 FROM outbox_relay_waiters) THEN
        PERFORM pg_notify('outbox_event', '');
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- True when no producer transaction that inserted outbox rows is open at this instant (the lock is
-- taken and released at once; nobody waits).
CREATE FUNCTION outbox_try_quiesce() RETURNS boolean
    LANGUAGE sql VOLATILE
AS $$
    SELECT CASE WHEN pg_try_advisory_lock(7306368520734335337)
                THEN pg_advisory_unlock(7306368520734335337)
                ELSE false END
$$;
