#!/usr/bin/env bash
# bench/anyapi.sh — what checking a user's own API costs, measured in one run.
#
# The same 10,000 requests, QT7 of the sf=1 dataset (a university's graduates, a page at an
# offset, their advisors: 48,950 possible instances), three ways, against `serve inmem`
# pinned to core 0, the load generator pinned to core 1, closed loop, CLIENTS clients:
#   (a) built-in: `queries --templates 7 --per-template 10000 --expect` (the oracle's hashes);
#   (b) golden: QT7's text as a user's .graphql file, a CSV of 10,000 variable rows,
#       `queries --ops --vars`, `record` against the server, then load the golden file;
#   (c) differential: the ops file, `load --reference` a second inmem server (core 0 too),
#       its answers fetched before the runs.
# Each runs ROUNDS times, alternating; the best round counts. Printed: req/s of each and
# the ratios (b)/(a) and (c)/(a) (target: within 5 %), and the rate of `record` and of the
# differential preflight against `serve null` with 10,000 distinct entries (target ≥ 5,000/s).
#
#   bench/anyapi.sh                      # CLIENTS=4 DURATION=5 ROUNDS=3
#
# Needs: taskset, jq, two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${CLIENTS:-4}; DURATION=${DURATION:-5}; ROUNDS=${ROUNDS:-3}; PORT=${PORT:-4830}
for tool in taskset jq; do
  command -v "$tool" >/dev/null || { echo "bench/anyapi.sh: $tool is missing" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/anyapi.sh: needs two cores (servers on 0, load on 1)" >&2; exit 1; }

work=$(mktemp -d /tmp/gqlbench-anyapi.XXXXXX)
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# serve VARIANT PORT: a server pinned to core 0, waited for.
serve() {
  local log=$work/serve-$2.log
  GQLBENCH_DB="sqlite:$work/db.sqlite" taskset -c 0 "$B" serve "$1" --addr "127.0.0.1:$2" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 300); do grep -q "serving on" "$log" 2>/dev/null && return; sleep 0.1; done
  cat "$log" >&2; exit 1
}

"$B" gen --sf 1 --db "sqlite:$work/db.sqlite" --quiet 2>/dev/null || "$B" gen --sf 1 --db "sqlite:$work/db.sqlite" >/dev/null 2>&1
"$B" queries --db "sqlite:$work/db.sqlite" --templates 7 --per-template 10000 --expect -o "$work/builtin.jsonl" 2>/dev/null
# The user's files: QT7's text, and its variables as CSV rows.
jq -r 'select(.id=="QT7-0001") | .query' "$work/builtin.jsonl" > "$work/qt7.graphql"
{ echo "universityID,offset"; jq -r '"\(.variables.universityID),\(.variables.offset)"' "$work/builtin.jsonl"; } > "$work/vars.csv"
"$B" queries --ops "$work/qt7.graphql" --vars "$work/vars.csv" -o "$work/ops.jsonl" 2>/dev/null

serve inmem "$PORT"; URL=http://127.0.0.1:$PORT/graphql
serve inmem "$((PORT+1))"; REF=http://127.0.0.1:$((PORT+1))/graphql
taskset -c 1 "$B" record --target "$URL" --queries "$work/ops.jsonl" -o "$work/golden.jsonl" --quiet

# run NAME ARGS... prints req/s (and fails loudly on a wrong answer)
run() {
  local name=$1; shift
  local out=$work/run-$name.jsonl
  taskset -c 1 "$B" load --target "$URL" --mode closed --clients "$CLIENTS" --duration "${DURATION}s" --runs 2 --quiet -o "$out" "$@" \
    || { echo "bench/anyapi.sh: $name failed" >&2; jq -c 'select(.type=="summary")' "$out" >&2; exit 1; }
  jq -r 'select(.type=="summary") | .throughput.mean' "$out"
}
best_a=0; best_b=0; best_c=0
for r in $(seq "$ROUNDS"); do
  a=$(run builtin --queries "$work/builtin.jsonl")
  b=$(run golden --queries "$work/golden.jsonl")
  c=$(run reference --queries "$work/ops.jsonl" --reference "$REF")
  echo "round $r: built-in $a/s, golden $b/s, reference $c/s" >&2
  best_a=$(jq -n "[$best_a,$a]|max"); best_b=$(jq -n "[$best_b,$b]|max"); best_c=$(jq -n "[$best_c,$c]|max")
done

# record and the differential preflight: 10,000 distinct entries against serve null.
serve null "$((PORT+2))"; NULL=http://127.0.0.1:$((PORT+2))/graphql
jq -c '{id, template: "T", query: "query T($u: ID!, $o: Int) { __typename }", variables}' "$work/builtin.jsonl" > "$work/distinct.jsonl"
t0=$(date +%s.%N)
taskset -c 1 "$B" record --target "$NULL" --queries "$work/distinct.jsonl" -o "$work/null-golden.jsonl" --quiet
t1=$(date +%s.%N)
n=$(wc -l < "$work/distinct.jsonl")

printf '\n| queries file (QT7, 10,000 entries, %d clients) | req/s (best of %d) | vs built-in |\n|---|---:|---:|\n' "$CLIENTS" "$ROUNDS"
printf '| built-in, oracle hashes | %.0f | 1.00 |\n' "$best_a"
printf '| ops + CSV, golden (record) | %.0f | %.3f |\n' "$best_b" "$(jq -n "$best_b/$best_a")"
printf '| ops + CSV, --reference | %.0f | %.3f |\n' "$best_c" "$(jq -n "$best_c/$best_a")"
printf '\nrecord against serve null: %d distinct entries in %.2f s = %.0f entries/s (process start and file I/O included)\n' \
  "$n" "$(jq -n "$t1-$t0")" "$(jq -n "$n/($t1-$t0)")"
