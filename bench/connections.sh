#!/usr/bin/env bash
# bench/connections.sh — does every server hold 1,000 concurrent connections, every answer right?
#
# seed 003's reliability goal: a server keeps answering, correctly and without errors, with
# CONNS clients connected at once. A throwaway PostgreSQL with the sf=$SF dataset; each
# variant (the peers included) served alone with a pool of POOL connections (pinned with the
# database to core 0); `gqlbench load --mode closed --clients CONNS` (pinned to core 1, one
# connection per client, all opened at the start) over a mix of all 16 templates in the
# server's dialect for a warm-up run and a measured run of DUR, every answer verified.
# Prints per variant: verified answers/s, errors, wrong answers, connects per request (1 /
# requests would mean every connection held), p99, and the server's peak RSS.
#
#   bench/connections.sh                                # CONNS=1000 SF=1 DUR=15s POOL=10
#   VARIANTS="batch compiled" CONNS=200 bench/connections.sh
#
# Needs: taskset, python3; initdb/pg_ctl on PATH; Node for the node-* and postgraphile peers
# (installed from npm on first use, like `gqlbench serve`). ulimit -n above 2×CONNS.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNS=${CONNS:-1000}; SF=${SF:-1}; DUR=${DUR:-15s}; POOL=${POOL:-10}; PER=${PER:-20}
VARIANTS=${VARIANTS:-"naive memo batch batch-memo compiled inmem node-naive node-memo node-batch node-batch-memo postgraphile"}
ulimit -n $((CONNS * 4 + 1024)) 2>/dev/null || true
work=$(mktemp -d /tmp/gqlbench-conns.XXXXXX); chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; "$B" pg destroy >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
"$B" pg start >/dev/null 2>&1
DB=$("$B" pg createdb bench)
pgpid=$(head -1 "$(python3 -c "import json,sys; print(json.load(open('$GQLBENCH_PG_DIR/cluster.json'))['data_dir'])")/postmaster.pid")
taskset -a -c -p 0 "$pgpid" >/dev/null
"$B" gen --sf "$SF" --db "$DB" --quiet
"$B" queries --db "$DB" --per-template "$PER" --expect -o "$work/q.jsonl" 2>/dev/null
"$B" queries --db "$DB" --per-template "$PER" --expect --dialect postgraphile -o "$work/q-postgraphile.jsonl" 2>/dev/null
port=4500
for v in $VARIANTS; do
  port=$((port + 1))
  q=$work/q.jsonl; [ "$v" = postgraphile ] && q=$work/q-postgraphile.jsonl
  taskset -c 0 "$B" serve "$v" --db "$DB" --pool "$POOL" --addr "127.0.0.1:$port" 2>"$work/serve-$v.log" &
  server=$!
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  taskset -c 1 "$B" load --target "http://127.0.0.1:$port/graphql" --queries "$q" --watch-pid "$server" \
    --mode closed --clients "$CONNS" --duration "$DUR" --runs 2 -o "$work/run-$v.jsonl" 2>"$work/load-$v.log" || true
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
python3 - "$work" "$CONNS" "$SF" "$DUR" "$POOL" "$VARIANTS" <<'PY'
import json, sys
work, conns, sf, dur, pool, variants = sys.argv[1:6] + [sys.argv[6].split()]
print(f"{conns} clients (one connection each), closed loop, sf={sf}, PostgreSQL, pool {pool}, {dur} after a warm-up of {dur}")
print(f"{'variant':16} {'answers/s':>10} {'verified':>9} {'errors':>7} {'wrong':>6} {'connects/req':>12} {'p99 ms':>8} {'RSS MiB':>8}  verdict")
bad = 0
for v in variants:
    try:
        lines = [json.loads(l) for l in open(f"{work}/run-{v}.jsonl")]
    except (OSError, ValueError):
        print(f"{v:16} no run file (see the load log)"); bad += 1; continue
    s = [l for l in lines if l.get("type") == "summary"]
    if not s:
        print(f"{v:16} no summary: the run did not finish"); bad += 1; continue
    s, t = s[-1], s[-1]["total"]
    rss = max((p["rss_bytes"] for l in lines if l.get("type") == "interval" for p in l.get("procs", [])), default=0)
    ok = t["errors"] == 0 and t["wrong"] == 0 and t.get("verified", 0) > 0
    bad += not ok
    cpr = s.get("connects_per_request", 0)
    print(f"{v:16} {s['goodput']['mean']:10.0f} {t.get('verified', 0):9d} {t['errors']:7d} {t['wrong']:6d} {cpr:12.4f} {t['qet']['p99']/1e6:8.1f} {rss/2**20:8.0f}  {'ok' if ok else 'FAILED'}")
sys.exit(1 if bad else 0)
PY
