#!/usr/bin/env bash
# bench/tools.sh — the load generator beside the fastest tools, at every concurrency, in one run.
#
# `gqlbench serve null` (a canned answer) runs pinned to core 0; each tool runs pinned to
# core 1 against it with the same POST body and headers, CONNS_LIST connections in turn,
# DURATION seconds, ROUNDS rounds of every tool in turn (each round starting with the next
# tool); the best round of each counts:
#   wrk (Debian's, the reference; -t1)          checks nothing
#   autocannon (npm; graphql-bench's engine)    checks nothing      when installed
#   hey                                         checks nothing      when installed
#   k6 with a JSON check of every answer        checks the body     when installed
#   gqlbench load --mode closed                 verifies every answer (status, errors, data hash),
#                                               over a queries file of 10,000 distinct entries
# Printed: a table of req/s per tool and connections, and gqlbench's ratio to the faster of
# wrk and autocannon (target ≥ 0.95), the driver's CPU while it ran, and its RSS; then each
# tool's CPU per request — the user + system time of its process (/usr/bin/time) over the
# requests it made, the fairest measure of a load generator's cost, which a busy machine moves
# far less than a rate — and gqlbench's ratio to wrk's (target ≤ 1.0), lowest ÷ lowest and
# round by round (the median of the rounds' ratios: ROUNDS=5 or more). gqlbench's process
# time includes its start (reading and preparing the 10,000 entries) and its checks.
#
#   bench/tools.sh                                    # CONNS_LIST="1 50 1000" DURATION=5 ROUNDS=2
#   AUTOCANNON=/path/to/node_modules/.bin/autocannon K6=~/go/bin/k6 bench/tools.sh
#   BEFORE=/path/to/older/gqlbench bench/tools.sh     # also that build's load, as "gqlbench-before"
#
# Needs: taskset, wrk, jq, /usr/bin/time (apt-get install -y time), two cores; ulimit -n above
# the largest CONNS.
# Optional: autocannon (npm install autocannon@9.0.0), hey (go install github.com/rakyll/hey@v0.1.4),
# k6 (go install go.k6.io/k6@v1.8.1).
set -euo pipefail
cd "$(dirname "$0")/.."
CONNS_LIST=${CONNS_LIST:-"1 50 1000"}; DURATION=${DURATION:-5}; ROUNDS=${ROUNDS:-2}; PORT=${PORT:-4740}
AUTOCANNON=${AUTOCANNON:-$(command -v autocannon || true)}
HEY=${HEY:-$(command -v hey || ls "$(go env GOPATH)/bin/hey" 2>/dev/null || true)}
K6=${K6:-$(command -v k6 || ls "$(go env GOPATH)/bin/k6" 2>/dev/null || true)}
for tool in taskset wrk jq /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench/tools.sh: $tool is missing (apt-get install -y wrk jq time)" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/tools.sh: needs two cores (server on 0, load on 1)" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || true

work=$(mktemp -d /tmp/gqlbench-tools.XXXXXX)
B=$work/gqlbench
# Both builds run as copies: the linker's own output file is mapped with fewer, larger
# page-cache pages than a copy of it (measured: ~10 MB more RSS, fewer page faults), and
# BEFORE, like any installed binary, is a copy.
go build -o "$work/gqlbench.linked" ./cmd/gqlbench
cp "$work/gqlbench.linked" "$B"
if [ -n "${BEFORE:-}" ]; then cp "$BEFORE" "$work/gqlbench-before"; BEFORE=$work/gqlbench-before; fi
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

expect=$(printf '%s' '{"__typename":"Query"}' | sha256sum | cut -d' ' -f1)
# gqlbench replays 10,000 distinct entries (one variables row each), every answer verified
# by its hash; the other tools send one body.
query='query Q($row: Int) { __typename }'
seq 1 10000 | jq -c --arg q "$query" --arg e "$expect" '{id: "q\(.)", template: "Q", query: $q, variables: {row: .}, expect: $e}' > "$work/queries.jsonl"
jq -j -nc --arg q "$query" '{query: $q, variables: {row: 1}}' > "$work/body.json"
version=$("$B" version | awk '{print $2}')
ACCEPT="application/graphql-response+json, application/json"
cat > "$work/post.lua" <<LUA
local f = assert(io.open("$work/body.json", "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["User-Agent"] = "gqlbench/$version"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "$ACCEPT"
LUA
cat > "$work/k6.js" <<JS
import http from 'k6/http';
import { check } from 'k6';
const body = open('$work/body.json');
const params = { headers: { 'Content-Type': 'application/json', 'Accept': '$ACCEPT', 'User-Agent': 'gqlbench/$version' } };
export default function () {
  const r = http.post('__URL__', body, params);
  check(r, { 'right answer': (res) => res.status === 200 && res.json().data.__typename === 'Query' });
}
JS

URL=http://127.0.0.1:$PORT/graphql
sed -i "s|__URL__|$URL|" "$work/k6.js"
taskset -c 0 "$B" serve null --addr "127.0.0.1:$PORT" >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "serving on" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
grep -q "serving on" "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }

# Each runner prints "req/s requests" for CONNS connections, the tool run through cpu (below).
# cpu runs a tool on core 1 under /usr/bin/time: the user + system time of its process (and of
# any it starts and waits for: node, k6's) goes to $work/cpu.
cpu() { taskset -c 1 /usr/bin/time -f '%U %S' -o "$work/cpu" "$@"; }
run_wrk() { cpu wrk -t1 -c"$1" -d"${DURATION}s" -s "$work/post.lua" "$URL" | awk '/requests in/ {n = $1} /^Requests\/sec:/ {print $2, n}'; }
run_autocannon() {
  cpu "$AUTOCANNON" -c "$1" -d "$DURATION" -m POST -H "Content-Type=application/json" -H "Accept=$ACCEPT" \
    -H "User-Agent=gqlbench/$version" -i "$work/body.json" -j "$URL" 2>/dev/null | jq -r '"\(.requests.total / .duration) \(.requests.total)"'
}
run_hey() {
  cpu "$HEY" -c "$1" -z "${DURATION}s" -m POST -T application/json -H "Accept: $ACCEPT" -D "$work/body.json" "$URL" \
    | awk '/Requests\/sec:/ {r = $2} /^  \[[0-9]+\]/ {n += $2} END {print r, n}'
}
run_k6() {
  cpu "$K6" run --quiet --no-color --vus "$1" --duration "${DURATION}s" --summary-export "$work/k6.json" "$work/k6.js" >/dev/null 2>&1 || true
  jq -r '"\(.metrics.http_reqs.rate) \(.metrics.http_reqs.count)"' "$work/k6.json"
}
# gqlbench prints "req/s requests driver-CPU-% driver-RSS-MB wrong"; requests are all it sent
# (the measured window's and those in flight when it closed)
run_gqlbench() { gqlbench_run "$B" "$1"; }
run_gqlbench-before() { gqlbench_run "$BEFORE" "$1"; }
gqlbench_run() {
  local run=$work/gq-$2.jsonl b=$1
  shift
  cpu "$b" load --target "$URL" --queries "$work/queries.jsonl" --mode closed --clients "$1" \
    --duration "${DURATION}s" --runs 1 --quiet -o "$run" || true
  jq -r 'select(.type=="summary") | "\(.throughput.mean) \(.total.count)"' "$run" | tr '\n' ' '
  # the driver's CPU over the measured window: each interval's weighted by its length (the
  # answers in flight at the window's end make a tail interval of a few ms, left out)
  jq -s -r '[.[] | select(.type=="interval" and .driver != null and (.tail | not))] as $d |
    ([$d[] | .end_ns - .start_ns] | add) as $ns |
    "\(([$d[] | .driver.cpu_pct * (.end_ns - .start_ns)] | add) / $ns * 100 | round / 100) \(([$d[].driver.rss_bytes] | max) / 1048576 | floor)"' "$run" | tr '\n' ' '
  jq -r 'select(.type=="summary") | .total.wrong' "$run"
}
# us_per_req REQUESTS prints the CPU µs per request of the run just ended ($work/cpu)
us_per_req() { awk -v n="$1" 'NF == 2 && $1 ~ /^[0-9.]+$/ {if (n > 0) printf "%.1f", ($1 + $2) * 1e6 / n; else print "-"; exit}' "$work/cpu"; }

tools=(wrk)
[ -n "$AUTOCANNON" ] && tools+=(autocannon)
[ -n "$HEY" ] && tools+=(hey)
[ -n "$K6" ] && tools+=(k6)
[ -n "${BEFORE:-}" ] && tools+=(gqlbench-before)
tools+=(gqlbench)
declare -A best extra cpus cpumax per_round
for c in $CONNS_LIST; do
  for r in $(seq "$ROUNDS"); do
    # the tools take turns going first: round r starts at the r-th (a neighbour's burst, or the
    # server's state after a tool's run, falls on each tool alike over the rounds)
    order=()
    for i in "${!tools[@]}"; do order+=("${tools[(i + r - 1) % ${#tools[@]}]}"); done
    for t in "${order[@]}"; do
      out=$("run_$t" "$c")
      read -r rps n _ <<< "$out"
      us=$(us_per_req "$n")
      per_round[$t,$c,$r]=$us
      echo "round $r, $c connections: $t $out, $us µs CPU per request (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
      if [ -z "${best[$t,$c]:-}" ] || awk -v a="$rps" -v b="${best[$t,$c]}" 'BEGIN {exit !(a > b)}'; then
        best[$t,$c]=$rps; extra[$t,$c]=$out
      fi
      # the lowest CPU per request of the rounds, and the highest (the spread)
      if [ "$us" != - ] && { [ -z "${cpus[$t,$c]:-}" ] || awk -v a="$us" -v b="${cpus[$t,$c]}" 'BEGIN {exit !(a < b)}'; }; then
        cpus[$t,$c]=$us
      fi
      if [ "$us" != - ] && { [ -z "${cpumax[$t,$c]:-}" ] || awk -v a="$us" -v b="${cpumax[$t,$c]}" 'BEGIN {exit !(a > b)}'; }; then
        cpumax[$t,$c]=$us
      fi
    done
  done
done

echo
echo "req/s against gqlbench serve null (server on core 0, each tool on core 1), ${DURATION}s runs, best of $ROUNDS; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '| tool | checks |'; for c in $CONNS_LIST; do printf ' %s conn. |' "$c"; done; echo
printf '|---|---|'; for c in $CONNS_LIST; do printf -- '---:|'; done; echo
declare -A checks=([wrk]="nothing" [autocannon]="nothing" [hey]="nothing" [k6]="JSON check" [gqlbench]="every answer verified" [gqlbench-before]="every answer verified")
for t in "${tools[@]}"; do
  printf '| %s | %s |' "$t" "${checks[$t]}"
  for c in $CONNS_LIST; do printf ' %.0f |' "${best[$t,$c]}"; done; echo
done
printf '| gqlbench / faster of wrk and autocannon | |'
for c in $CONNS_LIST; do
  ref=${best[wrk,$c]}
  [ -n "${best[autocannon,$c]:-}" ] && ref=$(awk -v a="$ref" -v b="${best[autocannon,$c]}" 'BEGIN {print (a > b) ? a : b}')
  printf ' %.2f× |' "$(awk -v a="${best[gqlbench,$c]}" -v b="$ref" 'BEGIN {print a/b}')"
done; echo
printf '| gqlbench driver CPU %% / RSS MB / wrong | |'
for c in $CONNS_LIST; do read -r _ _ dcpu rss wrong <<< "${extra[gqlbench,$c]}"; printf ' %s %% / %s / %s |' "$dcpu" "$rss" "$wrong"; done; echo
echo
echo "CPU µs per request of each tool's process (user + system ÷ requests; the lowest of $ROUNDS rounds, and the highest)"
printf '| tool |'; for c in $CONNS_LIST; do printf ' %s conn. |' "$c"; done; echo
printf '|---|'; for c in $CONNS_LIST; do printf -- '---:|'; done; echo
for t in "${tools[@]}"; do
  printf '| %s |' "$t"
  for c in $CONNS_LIST; do printf ' %s (–%s) |' "${cpus[$t,$c]:--}" "${cpumax[$t,$c]:--}"; done; echo
done
for t in gqlbench-before gqlbench; do
  [ -n "${best[$t,${CONNS_LIST%% *}]:-}" ] || continue
  printf '| %s, its measured window only (driver CPU %% ÷ req/s, best round) |' "$t"
  for c in $CONNS_LIST; do
    read -r rps _ dcpu _ <<< "${extra[$t,$c]}"
    printf ' %s |' "$(awk -v c="$dcpu" -v r="$rps" 'BEGIN {if (r > 0) printf "%.1f", c * 1e4 / r; else print "-"}')"
  done; echo
done
for t in gqlbench-before gqlbench; do
  [ -n "${best[$t,${CONNS_LIST%% *}]:-}" ] || continue
  printf '| %s / wrk (lowest ÷ lowest) |' "$t"
  for c in $CONNS_LIST; do
    printf ' %s |' "$(awk -v a="${cpus[$t,$c]:-0}" -v b="${cpus[wrk,$c]:-0}" 'BEGIN {if (a > 0 && b > 0) printf "%.2f×", a / b; else print "-"}')"
  done; echo
  # The same ratio taken round by round: the tools of a round ran one after the other, seconds
  # apart, so a neighbour's burst moves both; the median of the rounds' ratios, and their range.
  printf '| %s / wrk, round by round: median (range) |' "$t"
  for c in $CONNS_LIST; do
    ratios=""
    for r in $(seq "$ROUNDS"); do
      a=${per_round[$t,$c,$r]:--} b=${per_round[wrk,$c,$r]:--}
      if [ "$a" != - ] && [ "$b" != - ]; then ratios+="$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.4f", a / b}') "; fi
    done
    if [ -z "$ratios" ]; then printf ' - |'; continue; fi
    printf ' %s |' "$(printf '%s\n' $ratios | sort -g | awk '{v[NR] = $1} END {
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f× (%.2f–%.2f)", m, v[1], v[NR]}')"
  done; echo
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
