#!/usr/bin/env bash
# bench/peers.sh — gqlbench's compiled server beside PostGraphile 5, template by
# template, in one run.
#
# A throwaway PostgreSQL with the sf=$SF dataset; the same instances of every
# template written twice, in the benchmark's schema for compiled and in
# PostGraphile's dialect for postgraphile (`gqlbench queries --dialect`), every
# answer checked against the oracle's hash. Both servers run side by side,
# pinned with the database to core 0; for each template and client count,
# `gqlbench load --mode closed` (pinned to core 1) drives compiled and then
# PostGraphile for a warm-up run and a measured run of $DUR each, so the two
# figures of a pair are taken minutes apart at most. Prints verified answers/s
# and the ratio compiled / PostGraphile per template at each client count, the
# CPU each query cost the server and the database, and PostGraphile's start-up
# time (the first install excluded: the script installs before it measures).
# REPEAT=N measures every pair N times (all templates, then again): each
# template's ratio is then the median of the N pairs' ratios, with their range
# — PostGraphile's CPU per query moves by a quarter between runs of a busy
# machine, so one pair cannot settle a ratio near a goal; the answers/s and CPU
# columns are the median repetition's.
#
#   bench/peers.sh                                   # SF=10 DUR=5s CLIENTS="1 8"
#   SF=1 DUR=2s TEMPLATES="3 10" bench/peers.sh
#   GEN=--trigram TEMPLATES=10 bench/peers.sh         # with gen's trigram indexes
#   REPEAT=3 TEMPLATES="4 16" bench/peers.sh          # the median of 3 pairs
#
# Needs taskset (util-linux), curl, python3, and npm once (PostGraphile's
# install goes to $GQLBENCH_CACHE, default ~/.cache/gqlbench).
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-10}; DUR=${DUR:-5s}; PER=${PER:-50}; CLIENTS=${CLIENTS:-"1 8"}; GEN=${GEN:-}; REPEAT=${REPEAT:-1}
TEMPLATES=${TEMPLATES:-"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"}
work=$(mktemp -d /tmp/gqlbench-peers.XXXXXX); chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$B" pg destroy >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"$B" pg start >/dev/null 2>&1
DB=$("$B" pg createdb bench)
pgpid=$(head -1 "$(python3 -c "import json,sys; print(json.load(open('$GQLBENCH_PG_DIR/cluster.json'))['data_dir'])")/postmaster.pid")
taskset -a -c -p 0 "$pgpid" >/dev/null   # the database is part of the system under test
"$B" gen --sf "$SF" --db "$DB" --quiet $GEN
for t in $TEMPLATES; do
  "$B" queries --db "$DB" --per-template "$PER" --templates "$t" --expect -o "$work/compiled-q$t.jsonl" 2>/dev/null
  "$B" queries --db "$DB" --per-template "$PER" --templates "$t" --expect --dialect postgraphile -o "$work/postgraphile-q$t.jsonl" 2>/dev/null
done

# ready PORT PID: wait until the server answers /healthz; prints the seconds it took.
ready() {
  local start=$(date +%s.%N)
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && { python3 -c "import time; print(f'{time.time()-$start:.2f}')"; return; }
    kill -0 "$2" 2>/dev/null || { echo "the server exited: see $work/serve-*.log" >&2; exit 1; }
    sleep 0.05
  done
  echo "the server did not start" >&2; exit 1
}
# cpu PID: user + system CPU seconds the process has used.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$1/stat"; }

# PostGraphile's start-up: installed first (not measured), then started three
# times, from exec to a /healthz answer, with the CPU it used until then.
"$B" serve postgraphile --db "$DB" --addr 127.0.0.1:4499 2>"$work/install.log" & p=$!
ready 4499 "$p" >/dev/null; kill "$p"; wait "$p" 2>/dev/null || true
startup=()
for i in 1 2 3; do
  taskset -c 0 "$B" serve postgraphile --db "$DB" --addr 127.0.0.1:4499 2>"$work/startup.log" & p=$!
  s=$(ready 4499 "$p"); startup+=("$s s wall, $(cpu "$p") s CPU")
  kill "$p"; wait "$p" 2>/dev/null || true
done

port=4400
declare -A portof
for v in compiled postgraphile; do
  port=$((port + 1)); portof[$v]=$port
  taskset -c 0 "$B" serve "$v" --db "$DB" --addr "127.0.0.1:$port" 2>"$work/serve-$v.log" &
  pids+=($!); eval "pid_${v}=$!"
  ready "$port" "$!" >/dev/null
done
for r in $(seq "$REPEAT"); do
  for t in $TEMPLATES; do
    for c in $CLIENTS; do
      for v in compiled postgraphile; do
        pid=pid_$v
        taskset -c 1 "$B" load --target "http://127.0.0.1:${portof[$v]}/graphql" --queries "$work/$v-q$t.jsonl" \
          --watch-pid "${!pid}" --watch-pid "$pgpid" --mode closed --clients "$c" --duration "$DUR" --runs 2 \
          -o "$work/run-$v-c$c-$t-r$r.jsonl" 2>/dev/null || true
      done
    done
  done
done
python3 - "$work" "$SF" "$DUR" "$CLIENTS" "$TEMPLATES" "$GEN" "$REPEAT" <<'PY'
import json, sys
work, sf, dur, clients, templates, gen = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5].split(), sys.argv[6]
repeat = int(sys.argv[7])
def read(v, c, t, r):
    try:
        return [json.loads(l) for l in open(f"{work}/run-{v}-c{c}-{t}-r{r}.jsonl")]
    except OSError:
        return []
def goodput(v, c, t, r):
    s = [l for l in read(v, c, t, r) if l.get("type") == "summary"]
    if not s or s[-1]["total"]["errors"] or s[-1]["total"]["wrong"]:
        return None
    return s[-1]["goodput"]["mean"]
# pick[(c, t)]: the repetition whose ratio is the median of the pairs' (the
# lower middle one of an even number); spread[(c, t)]: the ratios' range
pick, spread = {}, {}
for t in templates:
    for c in clients:
        rs = []
        for r in range(1, repeat + 1):
            a, b = goodput("compiled", c, t, r), goodput("postgraphile", c, t, r)
            if a and b:
                rs.append((a / b, r))
        rs.sort()
        pick[(c, t)] = rs[(len(rs) - 1) // 2][1] if rs else 1
        spread[(c, t)] = (rs[0][0], rs[-1][0], len(rs)) if rs else None
def lines(v, c, t):
    return read(v, c, t, pick[(c, t)])
def tp(v, c, t):
    s = [l for l in lines(v, c, t) if l.get("type") == "summary"]
    if not s:
        return None, "died"
    tot = s[-1]["total"]
    if tot["errors"] or tot["wrong"]:
        return None, f"{tot['errors']}e {tot['wrong']}w"
    return s[-1]["goodput"]["mean"], ""
def cpu(v, c, t):
    """CPU µs per completed query of the server and of the database."""
    sec, n = [0.0, 0.0], 0
    for iv in lines(v, c, t):
        if iv.get("type") != "interval" or iv["warmup"] or iv.get("tail") or len(iv.get("procs", [])) != 2:
            continue
        d = (iv["end_ns"] - iv["start_ns"]) / 1e9
        for i, p in enumerate(iv["procs"]):
            sec[i] += p["cpu_pct"] / 100 * d
        n += sum(x["count"] for x in iv["templates"].values())
    return (sec[0] / n * 1e6, sec[1] / n * 1e6) if n else None
print(f"verified answers/s, closed loop, {dur} after a {dur} warm-up, sf={sf}, PostgreSQL{' (gen ' + gen + ')' if gen else ''}; compiled / PostGraphile in ()"
      + (f"; the median of {repeat} pairs" if repeat > 1 else ""))
print("QT   " + "".join(f"{'compiled c'+c:>14}{'PostGraphile c'+c:>17}{'ratio':>8}" for c in clients))
for t in templates:
    row = f"QT{t:<3}"
    for c in clients:
        a, wa = tp("compiled", c, t)
        b, wb = tp("postgraphile", c, t)
        row += f"{a:>14.1f}" if a is not None else f"{wa:>14}"
        row += f"{b:>17.1f}" if b is not None else f"{wb:>17}"
        row += f"{a/b:>7.2f}x" if a and b else f"{'—':>8}"
    print(row)
if repeat > 1:
    print()
    print(f"ratio compiled / PostGraphile over the {repeat} pairs: median (lowest–highest)")
    print("QT   " + "".join(f"{'c'+c:>24}" for c in clients))
    for t in templates:
        row = f"QT{t:<3}"
        for c in clients:
            sp = spread[(c, t)]
            if sp is None:
                row += f"{'—':>24}"
                continue
            a, b = goodput("compiled", c, t, pick[(c, t)]), goodput("postgraphile", c, t, pick[(c, t)])
            cell = f"{a/b:.2f}x ({sp[0]:.2f}–{sp[1]:.2f}{'' if sp[2] == repeat else f', {sp[2]} of {repeat}'})"
            row += f"{cell:>24}"
        print(row)
print()
print("CPU per query, µs: server + database (postmaster and backends), both on core 0; their ratio,")
print("PostGraphile / compiled: the throughput ratio when core 0 does nothing else")
print("QT   " + "".join(f"{'compiled c'+c:>18}{'PostGraphile c'+c:>20}{'ratio':>8}" for c in clients))
for t in templates:
    row = f"QT{t:<3}"
    for c in clients:
        xs = []
        for v, w in (("compiled", 18), ("postgraphile", 20)):
            x = cpu(v, c, t)
            xs.append(x)
            row += f"{'—':>{w}}" if x is None else f"{x[0]:>{w-8}.0f} + {x[1]:<5.0f}"
        row += f"{sum(xs[1])/sum(xs[0]):>7.2f}x" if all(xs) else f"{'—':>8}"
    print(row)
PY
echo
echo "PostGraphile start-up (exec to /healthz 200, install excluded, sf=$SF):"
printf '  %s\n' "${startup[@]}"
