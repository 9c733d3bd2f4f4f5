-- The connector's replication slot: is it in use, how far behind is it, and how much WAL does it hold back.
SELECT s.slot_name,
       s.active,
       s.wal_status,
       pg_wal_lsn_diff(pg_current_wal_lsn(), s.confirmed_flush_lsn) AS lag_bytes,
       pg_wal_lsn_diff(pg_current_wal_lsn(), s.restart_lsn) AS retained_wal_bytes,
       r.state AS sender_state,
       r.replay_lag
FROM pg_replication_slots s
LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid
WHERE s.slot_name = 'ee_outbox_cdc';
