-- ee-outbox's CDC path: what the connector needs in the application's database (docs/cdc.md).
-- Run as the owner of outbox_events, in the application's database, after ee-outbox's migrations.

-- The connector's login: it may stream changes (REPLICATION) and read the table, nothing else.
CREATE ROLE outbox_cdc WITH LOGIN REPLICATION PASSWORD 'change-me';
GRANT USAGE ON SCHEMA public TO outbox_cdc;
GRANT SELECT ON outbox_events TO outbox_cdc;

-- The rows the connector sees: inserts into outbox_events, nothing else. The relay's claims and clean-up
-- (updates, deletes) stay out of the stream.
CREATE PUBLICATION ee_outbox_cdc FOR TABLE outbox_events WITH (publish = 'insert');

-- The replication slot. The connector creates it at its first start if it does not exist; made here, it
-- keeps every insert from now on, also those written before the connector first runs.
SELECT pg_create_logical_replication_slot('ee_outbox_cdc', 'pgoutput');
