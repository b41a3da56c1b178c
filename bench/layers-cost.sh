#!/usr/bin/env bash
# bench/layers-cost.sh — what `serve --trace` (the Server-Timing header and extensions.timing)
# costs a server's throughput, measured in one run.
#
# For each VARIANT, two servers of it on the sf=1 SQLite dataset, one with --trace and one
# without, both pinned to core 0; the load generator pinned to core 1, closed loop, CLIENTS
# clients, the instances of TEMPLATES (PER each), the same queries file for both. ROUNDS
# rounds alternate the two; each round's requests and the server's CPU time (utime + stime
# from /proc, before and after) are added up per side. Printed: req/s of the best round of
# each, and the server's CPU µs per request of each over all rounds, with their ratios
# (target: the traced server within 1 % of the other). On a machine shared with other
# work, throughput moves with the neighbours; the CPU a server spends per request much less
# so: read the CPU ratio first.
#
# MEASURE=instructions counts instead the instructions each server executes per request,
# which no neighbour changes: each server runs under valgrind's cachegrind (GOMAXPROCS=1:
# no spinning between threads, whose count follows the timing), sequential load, one warm-up
# pass then PASSES passes over the queries, and again with one pass; the difference of the
# two totals over the difference of requests is the instructions per request, start-up and
# warm-up cancelled. ROUNDS repetitions give the spread (garbage collections fall differently).
# Slow: valgrind runs the server some 50 times slower.
#
#   bench/layers-cost.sh                      # VARIANTS="inmem batch compiled" CLIENTS=2 DURATION=3 ROUNDS=6
#   MEASURE=instructions ROUNDS=2 PASSES=9 bench/layers-cost.sh
#   BIN=/tmp/gqlbench-before KEEP=/tmp/cg MEASURE=instructions bench/layers-cost.sh
#
# TRACE is the traced server's flags (default --trace): TRACE="--trace --trace-every 8" measures
# tracing one request in eight.
#
# BIN measures that binary instead of building the work tree's (a revision's build, to compare
# before and after); KEEP names a directory that keeps each cachegrind output
# (VARIANT-PASSES-on|off[-ROUND].out) for a per-function comparison (cg_diff, or by hand).
# SERVER_GOGC sets the servers' GOGC: with off, no collection runs, so the count leaves out
# the collector, whose cycles falling differently among the requests move it by thousands of
# instructions per request from round to round (what still moves: the scheduler's idle loop
# between requests); the heap grows by what the requests allocate.
#
# Needs: taskset, jq, two cores; valgrind for MEASURE=instructions.
set -euo pipefail
cd "$(dirname "$0")/.."
VARIANTS=${VARIANTS:-inmem batch compiled}; CLIENTS=${CLIENTS:-2}; DURATION=${DURATION:-3}; ROUNDS=${ROUNDS:-6}
PER=${PER:-50}; PORT=${PORT:-4870}; TEMPLATES=${TEMPLATES:-1,2,3,4,6,7,9,11,12,13,14,15,16}
MEASURE=${MEASURE:-cpu}; PASSES=${PASSES:-9}; read -r -a TRACE <<< "${TRACE:---trace}"
for tool in taskset jq; do
  command -v "$tool" >/dev/null || { echo "bench/layers-cost.sh: $tool is missing" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/layers-cost.sh: needs two cores (servers on 0, load on 1)" >&2; exit 1; }

work=$(mktemp -d /tmp/gqlbench-layers-cost.XXXXXX)
B=$work/gqlbench
if [ -n "${BIN:-}" ]; then cp "$BIN" "$B"; else go build -o "$B" ./cmd/gqlbench; fi
[ -z "${KEEP:-}" ] || mkdir -p "$KEEP"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# serve VARIANT PORT ARGS...: a server pinned to core 0, waited for.
serve() {
  local v=$1 port=$2; shift 2
  local log=$work/serve-$port.log
  GQLBENCH_DB="sqlite:$work/db.sqlite" taskset -c 0 "$B" serve "$v" --addr "127.0.0.1:$port" "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do grep -q "serving on" "$log" 2>/dev/null && return; sleep 0.1; done
  cat "$log" >&2; exit 1
}

"$B" gen --sf 1 --db "sqlite:$work/db.sqlite" >/dev/null 2>&1
"$B" queries --db "sqlite:$work/db.sqlite" --templates "$TEMPLATES" --per-template "$PER" --expect -o "$work/q.jsonl" 2>/dev/null
tick=$(getconf CLK_TCK)

# instructions VARIANT PASSES PORT TAG [ARGS...] prints "requests instructions" of one server
# under cachegrind over a sequential load of one warm-up pass and PASSES passes.
instructions() {
  local v=$1 passes=$2 port=$3 tag=$4; shift 4
  local log=$work/vg-$v-$passes-$tag.log out=$work/cg-$v-$passes-$tag.out run=$work/ir-$v-$passes-$tag.jsonl pid
  GOGC=${SERVER_GOGC:-${GOGC:-100}} GOMAXPROCS=1 GQLBENCH_DB="sqlite:$work/db.sqlite" valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
    "$B" serve "$v" --addr "127.0.0.1:$port" "$@" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1200); do grep -q "serving on" "$log" 2>/dev/null && break; sleep 0.1; done
  taskset -c 1 "$B" load --target "http://127.0.0.1:$port/graphql" --queries "$work/q.jsonl" --mode sequential \
    --passes "$passes" --warmup-passes 1 --quiet -o "$run" || { echo "bench/layers-cost.sh: $v under valgrind failed" >&2; kill "$pid"; exit 1; }
  kill -INT "$pid"; wait "$pid" || true
  [ -z "${KEEP:-}" ] || cp "$out" "$KEEP/$v-$passes-$tag.out"
  echo "$(jq -r 'select(.type=="summary") | .total.count' "$run") $(awk '/^summary:/ {print $2}' "$out")"
}

if [ "$MEASURE" = instructions ]; then
  command -v valgrind >/dev/null || { echo "bench/layers-cost.sh: valgrind is missing" >&2; exit 1; }
  printf '| variant | round | instructions/req untraced | with %s | with / without |\n|---|---:|---:|---:|---:|\n' "${TRACE[*]}" >"$work/table"
  for v in $VARIANTS; do
    read -r _ off1 < <(instructions "$v" 1 "$PORT" off)
    read -r _ on1 < <(instructions "$v" 1 "$PORT" on "${TRACE[@]}")
    for r in $(seq "$ROUNDS"); do
      read -r noff off < <(instructions "$v" "$PASSES" "$PORT" "off-$r")
      read -r non on < <(instructions "$v" "$PASSES" "$PORT" "on-$r" "${TRACE[@]}")
      per_off=$(jq -n "($off - $off1) / ($noff * ($PASSES - 1) / $PASSES)"); per_on=$(jq -n "($on - $on1) / ($non * ($PASSES - 1) / $PASSES)")
      printf '| %s | %d | %.0f | %.0f | %.4f |\n' "$v" "$r" "$per_off" "$per_on" "$(jq -n "$per_on / $per_off")" | tee -a "$work/table" >&2
    done
  done
  printf '\ninstructions per request (cachegrind, GOMAXPROCS=1, GOGC=%s), sequential, %d passes less 1; load average %s\n\n' "${SERVER_GOGC:-${GOGC:-100}}" "$PASSES" "$(cut -d' ' -f1-3 /proc/loadavg)"
  cat "$work/table"
  exit 0
fi

# cpu PID: the process's CPU time so far, in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# run URL PID NAME prints "req/s requests cpu-ticks" of one run (and fails loudly on a wrong answer)
run() {
  local out=$work/run-$3.jsonl c0 c1
  c0=$(cpu "$2")
  taskset -c 1 "$B" load --target "$1" --queries "$work/q.jsonl" --mode closed --clients "$CLIENTS" --duration "${DURATION}s" --runs 1 --quiet -o "$out" \
    || { echo "bench/layers-cost.sh: $3 failed" >&2; jq -c 'select(.type=="summary")' "$out" >&2; exit 1; }
  c1=$(cpu "$2")
  echo "$(jq -r 'select(.type=="summary") | "\(.throughput.mean) \(.total.count)"' "$out") $((c1 - c0))"
}

printf '| variant | req/s without --trace | req/s with --trace | with / without | CPU µs/req without | CPU µs/req with | with / without |\n|---|---:|---:|---:|---:|---:|---:|\n' >"$work/table"
p=$PORT
for v in $VARIANTS; do
  serve "$v" "$p"; plain=http://127.0.0.1:$p/graphql; plain_pid=${pids[-1]}
  serve "$v" "$((p+1))" "${TRACE[@]}"; traced=http://127.0.0.1:$((p+1))/graphql; traced_pid=${pids[-1]}
  best_off=0; best_on=0; n_off=0; n_on=0; t_off=0; t_on=0
  for r in $(seq "$ROUNDS"); do
    read -r off no co < <(run "$plain" "$plain_pid" "$v-off-$r")
    read -r on nn cn < <(run "$traced" "$traced_pid" "$v-on-$r")
    echo "$v round $r: without $off/s ($no requests, $co ticks), with $on/s ($nn requests, $cn ticks)" >&2
    best_off=$(jq -n "[$best_off,$off]|max"); best_on=$(jq -n "[$best_on,$on]|max")
    n_off=$((n_off + no)); n_on=$((n_on + nn)); t_off=$((t_off + co)); t_on=$((t_on + cn))
  done
  us_off=$(jq -n "$t_off * 1e6 / $tick / $n_off"); us_on=$(jq -n "$t_on * 1e6 / $tick / $n_on")
  printf '| %s | %.0f | %.0f | %.3f | %.1f | %.1f | %.3f |\n' "$v" "$best_off" "$best_on" "$(jq -n "$best_on/$best_off")" \
    "$us_off" "$us_on" "$(jq -n "$us_on/$us_off")" >>"$work/table"
  for k in "${!pids[@]}"; do kill "${pids[$k]}" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=()
  p=$((p+2))
done
printf '\n%d clients, closed loop, runs of %ss, %d rounds alternating; servers on core 0, load on core 1; load average %s\n\n' \
  "$CLIENTS" "$DURATION" "$ROUNDS" "$(cut -d' ' -f1-3 /proc/loadavg)"
cat "$work/table"
