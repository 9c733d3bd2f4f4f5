#!/usr/bin/env bash
# Where the outbox INSERT's time goes in PostgreSQL: copies of outbox_events that differ in one thing each (an index
# less or more, the NOTIFY trigger on, another trigger function, a sequence cache, a text payload), inserted into in turn,
# statement by statement, by one pgbench script, so that the machine's load hits every variant alike; the mean
# execution time and WAL of each INSERT from pg_stat_statements. See docs/benchmark.md ("What the write costs").
#
# Usage: [T=60] [C=1] insert-parts.sh   (T seconds, C clients)
# Needs a server with shared_preload_libraries=pg_stat_statements (a cluster of your own: the script resets the
# statistics); connects with PGHOST, PGPORT (default 127.0.0.1:5432) as postgres. Creates and drops the database
# acct.
set -euo pipefail
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
T=${T:-60}; C=${C:-1}
here=$(cd "$(dirname "$0")" && pwd)
schema=$(cd "$here/../../../../../../sql/schema" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
psql -qX -d postgres -c "DROP DATABASE IF EXISTS acct WITH (FORCE)" -c "CREATE DATABASE acct"
for f in $(ls "$schema"/V*.sql | sort -V); do psql -qX -v ON_ERROR_STOP=1 -d acct -f $f >/dev/null; done
psql -qX -v ON_ERROR_STOP=1 -d acct >/dev/null <<'SQL'
CREATE EXTENSION pg_stat_statements;
CREATE FUNCTION mk(name text, idx_unproc bool, idx_agg bool, idx_proc bool, pk bool) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
  EXECUTE format('CREATE TABLE %I (LIKE outbox_events INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS) WITH (fillfactor=80)', name);
  IF pk THEN EXECUTE format('ALTER TABLE %I ADD PRIMARY KEY (id)', name); END IF;
  IF idx_unproc THEN EXECUTE format('CREATE INDEX ON %I (seq) WHERE processed_at IS NULL', name); END IF;
  IF idx_agg THEN EXECUTE format('CREATE INDEX ON %I (aggregate_type, aggregate_id, seq) WHERE processed_at IS NULL', name); END IF;
  IF idx_proc THEN EXECUTE format('CREATE INDEX ON %I (processed_at) WHERE processed_at IS NOT NULL', name); END IF;
END $f$;
SELECT mk('v_asis', true, true, true, true);
SELECT mk('v_no_agg_idx', true, false, true, true);
SELECT mk('v_no_unproc_idx', false, true, true, true);
SELECT mk('v_no_proc_idx', true, true, false, true);
SELECT mk('v_pk_only', false, false, false, true);
SELECT mk('v_heap_only', false, false, false, false);
SELECT mk('v_seq_cache', true, true, true, true);
ALTER TABLE v_seq_cache ALTER COLUMN seq SET CACHE 100;
SELECT mk('v_no_check', true, true, true, true);
ALTER TABLE v_no_check DROP CONSTRAINT IF EXISTS v_no_check_tracingspancontext_check;
SELECT mk('v_trigger_v8', true, true, true, true);
CREATE TRIGGER t AFTER INSERT ON v_trigger_v8 FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify_insert();
-- V8's function body with the table schema-qualified, as notify_secdef (SECURITY DEFINER, no SET search_path) and
-- notify_plain (neither).
DO $d$
DECLARE
    body text := $b$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(7306368520734335337);
    IF current_setting('transaction_isolation') <> 'read committed'
       OR EXISTS (SELECT 1 FROM public.outbox_relay_waiters) THEN
        PERFORM pg_notify('outbox_event', '');
    END IF;
    RETURN NULL;
END $b$;
BEGIN
    EXECUTE format('CREATE FUNCTION notify_plain() RETURNS trigger LANGUAGE plpgsql AS %L', body);
    EXECUTE format('CREATE FUNCTION notify_secdef() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS %L', body);
END $d$;
SELECT mk('v_trigger_plain', true, true, true, true);
CREATE TRIGGER t AFTER INSERT ON v_trigger_plain FOR EACH STATEMENT EXECUTE FUNCTION notify_plain();
SELECT mk('v_trigger_secdef', true, true, true, true);
CREATE TRIGGER t AFTER INSERT ON v_trigger_secdef FOR EACH STATEMENT EXECUTE FUNCTION notify_secdef();
-- schema V16's index of the dead letters: a new row is no dead letter, so it pays the predicate only
SELECT mk('v_dead_idx', true, true, true, true);
CREATE INDEX ON v_dead_idx (seq) WHERE dead_at IS NOT NULL AND processed_at IS NULL;
SELECT mk('v_payload_text', true, true, true, true);
ALTER TABLE v_payload_text ALTER COLUMN payload TYPE text;
CREATE TABLE v_order (id VARCHAR(100) PRIMARY KEY, customer_id VARCHAR(100) NOT NULL, total NUMERIC(12,2) NOT NULL);
SQL
psql -qXAt -d acct -c "select conname from pg_constraint where conrelid='v_no_check'::regclass and contype='c'" | while read c; do
  [ "$c" = "outbox_events_attempts_nonnegative" ] || psql -qX -d acct -c "ALTER TABLE v_no_check DROP CONSTRAINT $c"; done
payload='{"orderId":"o-1","customerId":"c-1","currency":"EUR","total":"149.90","lines":[{"sku":"SKU-1","qty":2},{"sku":"SKU-7","qty":1}]}'
: > $work/s.sql
echo "\\set k random(1, 1000000000)" >> $work/s.sql
for t in v_asis v_no_agg_idx v_no_unproc_idx v_no_proc_idx v_pk_only v_heap_only v_seq_cache v_no_check v_trigger_v8 v_trigger_plain v_trigger_secdef v_dead_idx; do
  printf 'BEGIN;\nINSERT INTO %s (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext) VALUES (gen_random_uuid(), $$order$$, $$o-$$ || :client_id || $$-$$ || :k, $$order.created$$, $$%s$$::jsonb, NULL::text);\nCOMMIT;\n' $t "$payload" >> $work/s.sql
done
printf 'BEGIN;\nINSERT INTO v_payload_text (id, aggregate_type, aggregate_id, event_type, payload, tracingspancontext) VALUES (gen_random_uuid(), $$order$$, $$o-$$ || :client_id || $$-$$ || :k, $$order.created$$, $$%s$$::text, NULL::text);\nCOMMIT;\n' "$payload" >> $work/s.sql
printf 'BEGIN;\nINSERT INTO v_order VALUES (gen_random_uuid()::text, $$c-1$$, 149.90);\nCOMMIT;\n' >> $work/s.sql
psql -qX -d acct -c "CHECKPOINT" -c "select pg_stat_statements_reset()" >/dev/null
(cd $work && pgbench -n -M prepared -c $C -j $C -T $T -f s.sql acct 2>&1 | grep -E '^tps|transactions actually')
psql -qX -d acct -c "select substring(query from 'INSERT INTO (\w+)') as variant, calls, round(mean_exec_time::numeric*1000,1) as mean_us, round(stddev_exec_time::numeric*1000,1) sd_us, round(wal_bytes/calls) wal_bytes, round(wal_records::numeric/calls,2) wal_recs from pg_stat_statements where query like 'INSERT INTO%' and dbid=(select oid from pg_database where datname='acct') order by 1"
psql -qX -d postgres -c "DROP DATABASE IF EXISTS acct WITH (FORCE)"
