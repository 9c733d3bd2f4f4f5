#!/usr/bin/env bash
# The write overhead on PostgreSQL alone, without a JVM: what an outbox row adds to a one-INSERT
# business transaction when it travels as a statement of its own (as with JDBC, JPA and JTA) and
# when it travels in the same round trip as the business INSERT. Companion of the benchmark's
# section 1; see docs/benchmark.md ("The write overhead on PostgreSQL alone") and
# docs/decisions/0007-write-overhead-floor.md.
#
# Usage: [CLIENTS="1 2 8"] write-overhead.sh [seconds per run (10)] [rounds (3)]
# Connects with the usual libpq variables (PGHOST, PGPORT, PGUSER, PGPASSWORD); the default is
# 127.0.0.1:5432 as postgres. Creates the database ee_outbox_pgbench (ee-outbox's schema from
# sql/schema and the tests' order table), drops it at the end. Needs psql and pgbench.
set -euo pipefail

seconds=${1:-10}
rounds=${2:-3}
clients_list=${CLIENTS:-1 2 8}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
here=$(cd "$(dirname "$0")" && pwd)
schema=$(cd "$here/../../../../../../sql/schema" && pwd)
db=ee_outbox_pgbench
work=$(mktemp -d)
trap 'rm -rf "$work"; psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true' EXIT

psql -qX -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
# In version order: a glob sorts V10 before V1 in the C locale.
for f in $(ls "$schema"/V*.sql | sort -V); do
    psql -qX -v ON_ERROR_STOP=1 -d "$db" -f "$f" >/dev/null
done
psql -qX -v ON_ERROR_STOP=1 -d "$db" \
    -c "CREATE TABLE test_orders (id VARCHAR(100) PRIMARY KEY, customer_id VARCHAR(100) NOT NULL, total NUMERIC(12,2) NOT NULL)" \
    -c "ALTER TABLE outbox_events DISABLE TRIGGER outbox_insert_notify"

order="INSERT INTO test_orders VALUES (gen_random_uuid()::text, 'c-1', 149.90);"
event="INSERT INTO outbox_events (id, aggregate_type, aggregate_id, event_type, payload) VALUES (gen_random_uuid(), 'order', 'o-' || :client_id, 'order.created', '{\"orderId\":\"o-1\",\"customerId\":\"c-1\",\"currency\":\"EUR\",\"total\":\"149.90\",\"lines\":[{\"sku\":\"SKU-1\",\"qty\":2},{\"sku\":\"SKU-7\",\"qty\":1}]}'::jsonb);"

# JDBC's shape: BEGIN travels with the first statement (a pipeline), each later statement and the
# COMMIT are a round trip each.
printf '\\startpipeline\nBEGIN;\n%s\n\\endpipeline\nCOMMIT;\n' "$order" > "$work/business.sql"
printf '\\startpipeline\nBEGIN;\n%s\n\\endpipeline\nSELECT 1;\nCOMMIT;\n' "$order" > "$work/business+select1.sql"
printf '\\startpipeline\nBEGIN;\n%s\n\\endpipeline\n%s\nCOMMIT;\n' "$order" "$event" > "$work/business+outbox.sql"
# The row in the business INSERT's round trip: what the row itself costs the database.
printf '\\startpipeline\nBEGIN;\n%s\n%s\n\\endpipeline\nCOMMIT;\n' "$order" "$event" > "$work/business+outbox-same-trip.sql"
# pgbench's default shape, BEGIN a round trip of its own (3 round trips instead of 2).
printf 'BEGIN;\n%s\nCOMMIT;\n' "$order" > "$work/plain-business.sql"
printf 'BEGIN;\n%s\n%s\nCOMMIT;\n' "$order" "$event" > "$work/plain-business+outbox.sql"

scripts="business business+select1 business+outbox business+outbox-same-trip plain-business plain-business+outbox"
echo "seconds per run: $seconds, rounds: $rounds, $(psql -qXAt -d "$db" -c 'SHOW server_version'), synchronous_commit=$(psql -qXAt -d "$db" -c 'SHOW synchronous_commit')" >&2
for round in $(seq "$rounds"); do
    for clients in $clients_list; do
        for s in $scripts; do
            psql -qX -d "$db" -c "TRUNCATE test_orders, outbox_events"
            rm -f "$work"/pgbench_log.*
            out=$( (cd "$work" && pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" -l -f "$s.sql" "$db") 2>&1)
            tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
            p50=$(cat "$work"/pgbench_log.* | awk '{print $3}' | sort -n | awk '{v[NR]=$1} END {printf "%.3f", v[int((NR+1)/2)]/1000}')
            echo "$clients $s $tps $p50"
        done
    done
done > "$work/runs.txt"

# Median per clients and script; overhead against "business" (or "plain-business") of the same clients.
awk -v rounds="$rounds" '
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ key = $1 SUBSEP $2; tps[key] = tps[key] " " $3; p50[key] = p50[key] " " $4; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
END {
    printf "| clients | transaction | tx/s | p50 (ms) | p50 vs its business-only |\n|---|---|---|---|---|\n"
    for (i = 1; i <= n; i++) {
        split(order[i], k, SUBSEP)
        base = (k[2] ~ /^plain-/) ? "plain-business" : "business"
        mine = median(p50[order[i]]); ref = median(p50[k[1] SUBSEP base])
        printf "| %s | %s | %.0f | %.3f | %s |\n", k[1], k[2], median(tps[order[i]]), mine,
            (k[2] == base) ? "" : sprintf("%+.0f%%", (mine / ref - 1) * 100)
    }
}' "$work/runs.txt"
