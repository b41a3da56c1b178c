#!/usr/bin/env bash
# bench/node.sh — the LinGBM paper's own stack (the Node variants) beside
# gqlbench's Go variants, in one run: does batching (and caching) pay on
# Node.js + Apollo + DataLoader as the paper found (§6.2), and by how much
# more than in Go?
#
# A throwaway PostgreSQL with the sf=$SF dataset (pg_stat_statements loaded,
# tracking off while throughput is measured); every variant served
# (`gqlbench serve`, pinned with the database to core 0); each template driven
# by `gqlbench load --mode closed --clients 1` (pinned to core 1) for a
# warm-up run and a measured run of $DUR, every answer verified against the
# oracle's hash, in $ROUNDS rounds that interleave the variants; the report
# keeps each variant's best round (other work on the machine only slows a
# run down). Then, per variant and template, $COUNT queries are sent one at a
# time with pg_stat_statements tracking on: the SQL statements each GraphQL
# request costs, counted by PostgreSQL itself.
#
#   bench/node.sh                                   # SF=10 DUR=3s ROUNDS=3
#   SF=100 bench/node.sh                            # QT5 left out: naive is too slow for a figure
#   VARIANTS="node-naive node-batch" TEMPLATES="4 6" bench/node.sh
#   GEN=--no-indexes TEMPLATES="2 9" bench/node.sh   # LinGBM's database: no foreign-key indexes
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-10}; DUR=${DUR:-3s}; PER=${PER:-50}; COUNT=${COUNT:-10}; GEN=${GEN:-}; ROUNDS=${ROUNDS:-3}
VARIANTS=${VARIANTS:-"naive batch node-naive node-memo node-batch node-batch-memo"}
if [ "$SF" -ge 100 ]; then TEMPLATES=${TEMPLATES:-"2 4 6 7 9 11"}; else TEMPLATES=${TEMPLATES:-"2 4 5 6 7 9 11"}; fi
work=$(mktemp -d /tmp/gqlbench-node.XXXXXX); chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
server=""
cleanup() { [ -n "$server" ] && kill $server 2>/dev/null; wait 2>/dev/null; "$B" pg destroy >/dev/null 2>&1 || true; rm -rf "$work"; }
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
"$B" gen --sf "$SF" --db "$DB" --quiet $GEN
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

# Every variant is served at once, each on its own port, all pinned to core 0
# (an idle server costs nothing), so that the rounds can interleave them: on a
# machine shared with other work, each round drives every variant on a
# template one after the other, and the report keeps each one's best round.
ports=()
pids=()
port=4500
for v in $VARIANTS; do
  port=$((port + 1))
  t0=$(date +%s.%N)
  taskset -c 0 "$B" serve "$v" --db "$DB" --addr "127.0.0.1:$port" >/dev/null 2>"$work/serve-$v.log" &
  pids+=($!); ports+=("$port")
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
  python3 -c "import time; print('$v', round(time.time() - $t0, 2))" >>"$work/startup"
done
server="${pids[*]}"
uptime >"$work/load"
for r in $(seq "$ROUNDS"); do
  for t in $TEMPLATES; do
    i=0
    for v in $VARIANTS; do
      taskset -c 1 "$B" load --target "http://127.0.0.1:${ports[$i]}/graphql" --queries "$work/q$t.jsonl" \
        --watch-pid "${pids[$i]}" --watch-pid "$pgpid" --mode closed --clients 1 --duration "$DUR" --runs 2 \
        -o "$work/run-$v-$t-$r.jsonl" 2>/dev/null || true
      i=$((i + 1))
    done
  done
done
uptime >>"$work/load"
i=0
for v in $VARIANTS; do
  for t in $TEMPLATES; do
    echo "$v $t $(statements "${ports[$i]}" "$t")" >>"$work/statements"
  done
  i=$((i + 1))
done
kill ${pids[*]}; wait ${pids[*]} 2>/dev/null || true; server=""
python3 bench/node_report.py "$work" "$SF" "$DUR" "$COUNT" "$VARIANTS" "$TEMPLATES" "$ROUNDS"
