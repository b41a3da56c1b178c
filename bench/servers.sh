#!/usr/bin/env bash
# bench/servers.sh — every reference server on every template, in one run.
#
# A throwaway PostgreSQL with the sf=$SF dataset; each variant served alone
# (`gqlbench serve`, pinned with the database to core 0), each template driven by
# `gqlbench load --mode closed --clients 1` (pinned to core 1) for a warm-up run and
# a measured run of $DUR each, every answer verified against the oracle's hash.
# Prints aTPt (queries/s) per template and variant with the ratio to naive, then
# what each query cost in CPU: the server process and the database (postmaster
# and backends), in µs per query — the decomposition behind every ratio.
#
#   bench/servers.sh                                  # SF=10 DUR=5s, all variants
#   SF=1 DUR=2s VARIANTS="naive batch" bench/servers.sh
#   EXTRA="--batch-wait 200us" VARIANTS="batch" bench/servers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-10}; DUR=${DUR:-5s}; PER=${PER:-50}; EXTRA=${EXTRA:-}
VARIANTS=${VARIANTS:-"naive memo batch batch-memo compiled"}
TEMPLATES=${TEMPLATES:-"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"}
work=$(mktemp -d /tmp/gqlbench-servers.XXXXXX); chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; "$B" pg destroy >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
"$B" pg start >/dev/null 2>&1
DB=$("$B" pg createdb bench)
pgpid=$(head -1 "$(python3 -c "import json,sys; print(json.load(open('$GQLBENCH_PG_DIR/cluster.json'))['data_dir'])")/postmaster.pid")
taskset -a -c -p 0 "$pgpid" >/dev/null   # the database is part of the system under test
"$B" gen --sf "$SF" --db "$DB" --quiet
for t in $TEMPLATES; do
  "$B" queries --db "$DB" --per-template "$PER" --templates "$t" --expect -o "$work/q$t.jsonl" 2>/dev/null
done
port=4400
for v in $VARIANTS; do
  port=$((port + 1))
  taskset -c 0 "$B" serve "$v" --db "$DB" --addr "127.0.0.1:$port" $EXTRA 2>"$work/serve-$v.log" &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  for t in $TEMPLATES; do
    taskset -c 1 "$B" load --target "http://127.0.0.1:$port/graphql" --queries "$work/q$t.jsonl" \
      --watch-pid "$server" --watch-pid "$pgpid" --mode closed --clients 1 --duration "$DUR" --runs 2 -o "$work/run-$v-$t.jsonl" 2>/dev/null || true
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
python3 - "$work" "$SF" "$DUR" "$VARIANTS" "$TEMPLATES" <<'PY'
import json, sys
work, sf, dur, variants, templates = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5].split()
def tp(v, t):
    try:
        lines = [json.loads(l) for l in open(f"{work}/run-{v}-{t}.jsonl")]
    except OSError:
        return None, "no run"
    s = [l for l in lines if l.get("type") == "summary"]
    if not s:
        return None, "died"
    s = s[-1]
    tot = s["total"]
    if tot["errors"] or tot["wrong"]:
        return None, f"{tot['errors']} err {tot['wrong']} wrong"
    return s["goodput"]["mean"], ""
def cpu(v, t):
    """CPU µs per completed query of the server and of the database."""
    try:
        lines = [json.loads(l) for l in open(f"{work}/run-{v}-{t}.jsonl")]
    except OSError:
        return None
    sec, n = [0.0, 0.0], 0
    for iv in lines:
        if iv.get("type") != "interval" or iv["warmup"] or iv.get("tail") or len(iv.get("procs", [])) != 2:
            continue
        d = (iv["end_ns"] - iv["start_ns"]) / 1e9
        for i, p in enumerate(iv["procs"]):
            sec[i] += p["cpu_pct"] / 100 * d
        n += sum(x["count"] for x in iv["templates"].values())
    return (sec[0] / n * 1e6, sec[1] / n * 1e6) if n else None
print(f"aTPt (verified answers/s, 1 client, {dur} after a {dur} warm-up), sf={sf}, PostgreSQL; ratio to naive in ()")
print("QT   " + "".join(f"{v:>20}" for v in variants))
for t in templates:
    base, _ = tp("naive", t) if "naive" in variants else (None, "")
    row = f"QT{t:<3}"
    for v in variants:
        x, why = tp(v, t)
        if x is None:
            row += f"{why:>20}"
        elif base:
            row += f"{x:>12.1f} ({x/base:4.2f}x)"
        else:
            row += f"{x:>20.1f}"
    print(row)
print()
print("CPU per query, µs: server + database (postmaster and backends), both on core 0")
print("QT   " + "".join(f"{v:>20}" for v in variants))
for t in templates:
    row = f"QT{t:<3}"
    for v in variants:
        c = cpu(v, t)
        row += f"{'—':>20}" if c is None else f"{c[0]:>12.0f} + {c[1]:<5.0f}"
    print(row)
PY
