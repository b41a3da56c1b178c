#!/usr/bin/env bash
# bench/node.sh — the LinGBM paper's own stack (the Node variants) beside
# gqlbench's Go variants, in one run: does batching (and caching) pay on
# Node.js + Apollo + DataLoader as the paper found (§6.2), and by how much
# more than in Go?
#
# A throwaway PostgreSQL with the sf=$SF dataset (pg_stat_statements loaded,
# tracking off while throughput is measured); each variant served alone
# (`gqlbench serve`, pinned with the database to core 0), each template
# driven by `gqlbench load --mode closed --clients 1` (pinned to core 1) for
# a warm-up run and a measured run of $DUR, every answer verified against the
# oracle's hash. Then, per variant and template, $COUNT queries are sent one
# at a time with pg_stat_statements tracking on: the SQL statements each
# GraphQL request costs, counted by PostgreSQL itself.
#
#   bench/node.sh                                   # SF=10 DUR=5s
#   SF=100 DUR=5s bench/node.sh                     # QT5 left out: naive is too slow for a figure
#   VARIANTS="node-naive node-batch" TEMPLATES="4 6" bench/node.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-10}; DUR=${DUR:-5s}; PER=${PER:-50}; COUNT=${COUNT:-10}
VARIANTS=${VARIANTS:-"naive batch node-naive node-memo node-batch node-batch-memo"}
if [ "$SF" -ge 100 ]; then TEMPLATES=${TEMPLATES:-"2 4 6 7 9 11"}; else TEMPLATES=${TEMPLATES:-"2 4 5 6 7 9 11"}; fi
work=$(mktemp -d /tmp/gqlbench-node.XXXXXX); chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; "$B" pg destroy >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
"$B" pg start >/dev/null 2>&1
ADMIN=$("$B" pg url)
psql -qAt "$ADMIN" -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"
"$B" pg stop >/dev/null 2>&1; "$B" pg start >/dev/null 2>&1
psql -qAt "$ADMIN" -c "ALTER SYSTEM SET pg_stat_statements.track = 'none'" -c "SELECT pg_reload_conf()" >/dev/null
DB=$("$B" pg createdb bench)
psql -qAt "$DB" -c "CREATE EXTENSION pg_stat_statements"
pgpid=$(head -1 "$(python3 -c "import json,sys; print(json.load(open('$GQLBENCH_PG_DIR/cluster.json'))['data_dir'])")/postmaster.pid")
taskset -a -c -p 0 "$pgpid" >/dev/null   # the database is part of the system under test
start=$(date +%s.%N)
"$B" gen --sf "$SF" --db "$DB" --quiet
echo "sf=$SF generated and loaded in $(python3 -c "import time; print(round(time.time() - $start, 1))") s" >&2
for t in $TEMPLATES; do
  "$B" queries --db "$DB" --per-template "$PER" --templates "$t" --expect -o "$work/q$t.jsonl" 2>/dev/null
done
# The Node package is installed (once per machine) before anything is timed.
"$B" serve node-naive --db "$DB" --addr 127.0.0.1:4499 >/dev/null 2>"$work/install.log" &
server=$!
for _ in $(seq 6000); do curl -sf http://127.0.0.1:4499/healthz >/dev/null 2>&1 && break; sleep 0.1; done
kill "$server"; wait "$server" 2>/dev/null || true; server=""

# statements sends the first $COUNT queries of a template one at a time and
# prints the statements PostgreSQL ran for them, per query.
statements() { # port template
  psql -qAt "$DB" -c "SELECT pg_stat_statements_reset()" >/dev/null
  psql -qAt "$ADMIN" -c "ALTER SYSTEM SET pg_stat_statements.track = 'top'" -c "SELECT pg_reload_conf()" >/dev/null
  sleep 0.5
  python3 - "$1" "$work/q$2.jsonl" "$COUNT" <<'PY'
import json, sys, urllib.request
port, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for line in open(path).readlines()[:n]:
    e = json.loads(line)
    req = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", json.dumps({"query": e["query"], "variables": e.get("variables")}).encode(),
                                 {"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=600).read()
PY
  psql -qAt "$ADMIN" -c "ALTER SYSTEM SET pg_stat_statements.track = 'none'" -c "SELECT pg_reload_conf()" >/dev/null
  psql -qAt "$DB" -c "SELECT COALESCE(SUM(calls), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE '%pg_reload_conf%' AND query NOT ILIKE 'SET %' AND query NOT ILIKE 'ALTER SYSTEM%'"
}

port=4500
for v in $VARIANTS; do
  port=$((port + 1))
  t0=$(date +%s.%N)
  taskset -c 0 "$B" serve "$v" --db "$DB" --addr "127.0.0.1:$port" >/dev/null 2>"$work/serve-$v.log" &
  server=$!
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
  python3 -c "import time; print('$v', round(time.time() - $t0, 2))" >>"$work/startup"
  for t in $TEMPLATES; do
    taskset -c 1 "$B" load --target "http://127.0.0.1:$port/graphql" --queries "$work/q$t.jsonl" \
      --watch-pid "$server" --watch-pid "$pgpid" --mode closed --clients 1 --duration "$DUR" --runs 2 -o "$work/run-$v-$t.jsonl" 2>/dev/null || true
  done
  for t in $TEMPLATES; do
    echo "$v $t $(statements "$port" "$t")" >>"$work/statements"
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
python3 bench/node_report.py "$work" "$SF" "$DUR" "$COUNT" "$VARIANTS" "$TEMPLATES"
