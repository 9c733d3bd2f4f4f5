-- ee-outbox schema, version 16: an index of the dead letters alone.
--
-- In cdc mode (docs/cdc.md; decision 0023) a CDC connector publishes and the relay claims nothing: every row stays
-- unprocessed until the cleanup deletes it after outbox.relay.cdc.retention, so idx_outbox_unprocessed (V1) holds
-- every row written in the retention (an hour at 5,000 events/s: 18 million). The gauges there need only the dead
-- letters' count (pending does not apply), and counting them through idx_outbox_unprocessed, or with a scan of the
-- table, reads every kept row at each refresh. This index holds the dead letters only, usually none or a few, so
-- OutboxCdcStats counts them with an index-only scan of a few pages (docs/cdc.md, "What replaces pending", has the
-- figures). Relay mode's OutboxStats reads the pending rows anyway (their count and the oldest) and does not use it.
-- It holds a row while the row is a dead letter: none or a few in a healthy outbox, in either mode.
--
-- A relay without this index runs the same statement, which then reads the kept rows as before.
--
-- The index is built in this migration's transaction, and CREATE INDEX holds back every insert into outbox_events
-- while it reads the table (0.3 to 2 s for 2 million rows on a 2-core machine). On a large outbox build it
-- beforehand without blocking anyone, outside a transaction; this file then keeps it (IF NOT EXISTS):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_outbox_dead_letters
--       ON outbox_events (seq) WHERE dead_at IS NOT NULL AND processed_at IS NULL;
CREATE INDEX IF NOT EXISTS idx_outbox_dead_letters
    ON outbox_events (seq)
    WHERE dead_at IS NOT NULL AND processed_at IS NULL;
