#!/usr/bin/env bash
# bench/load.sh — the load generator's own ceiling, measured in one run against wrk.
#
# `gqlbench serve null` (a canned answer, no parsing, no database) runs pinned to core 0;
# the load tools run pinned to core 1, one after the other, with the same POST body, the
# same number of connections and the same duration:
#   (a) Debian's wrk (-t1, a Lua script setting method, body and headers), the reference;
#   (b) gqlbench load --mode closed: every response verified (status, no errors, the data's
#       hash equal to the queries file's "expect") and recorded in HDR histograms;
#   (c) the same on Go's net/http client (--client net/http), for comparison;
#   (d) gqlbench load --mode open at a high constant rate (OPEN_FRACTION of (b)'s rate):
#       corrected and uncorrected latency, late sends, whether the driver calls itself
#       the bottleneck.
#   (e) wrk and gqlbench closed on ONE connection: with nothing queued at the server, the
#       difference of the medians is the latency the driver itself adds.
# Each closed-loop tool runs ROUNDS times, alternating; the best round of each counts.
# Printed: req/s of wrk and gqlbench and their ratio (target ≥ 0.9), and the latency the
# driver itself adds: gqlbench p50 − wrk p50, at CONNS connections and at one.
#
#   bench/load.sh                       # CONNS=32 DURATION=10 ROUNDS=2
#   CONNS=64 DURATION=20 bench/load.sh
#
# Needs: taskset, wrk (apt-get install -y wrk), jq, two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNS=${CONNS:-32}; DURATION=${DURATION:-10}; ROUNDS=${ROUNDS:-2}; PORT=${PORT:-4710}
OPEN_FRACTION=${OPEN_FRACTION:-0.8}
for tool in taskset wrk jq; do
  command -v "$tool" >/dev/null || { echo "bench/load.sh: $tool is missing (wrk: apt-get install -y wrk)" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/load.sh: needs two cores (server on 0, load on 1)" >&2; exit 1; }

work=$(mktemp -d /tmp/gqlbench-load.XXXXXX)
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# The workload: one QT15 instance whose expected answer is the null server's
# {"__typename":"Query"}, so that gqlbench verifies every answer in full.
"$B" gen --sf 1 --format csv -o "$work/data" >/dev/null 2>&1
"$B" queries --meta "$work/data.meta.json" --per-template 1 --templates 15 -o "$work/one.jsonl" 2>/dev/null
expect=$(printf '%s' '{"__typename":"Query"}' | sha256sum | cut -d' ' -f1)
jq -c --arg e "$expect" '. + {expect: $e}' "$work/one.jsonl" > "$work/queries.jsonl"
jq -j -c '{query, variables}' "$work/queries.jsonl" > "$work/body.json"
# wrk sends what gqlbench sends: the same body and headers (wrk adds Host and
# Content-Length itself, as gqlbench does).
version=$("$B" version | awk '{print $2}')
cat > "$work/post.lua" <<EOF
local f = assert(io.open("$work/body.json", "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["User-Agent"] = "gqlbench/$version"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json, application/json"
EOF

URL=http://127.0.0.1:$PORT/graphql
taskset -c 0 "$B" serve null --addr "127.0.0.1:$PORT" >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "serving on" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
grep -q "serving on" "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }

# wrk_run [CONNS] prints "req/s p50_ms"
wrk_run() {
  local out; out=$(taskset -c 1 wrk -t1 -c"${1:-$CONNS}" -d"${DURATION}s" --latency -s "$work/post.lua" "$URL")
  echo "$out" > "$work/wrk.last"
  local rps p50
  rps=$(echo "$out" | awk '/^Requests\/sec:/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; print v}')
  echo "$rps $p50"
}
# gq_run CLIENT [CONNS] prints "req/s p50_ms wrong errors driver_limit verified"
gq_run() {
  local run=$work/closed-${1//\//-}.jsonl
  taskset -c 1 "$B" load --target "$URL" --queries "$work/queries.jsonl" --mode closed --clients "${2:-$CONNS}" \
    --duration "${DURATION}s" --runs 1 --client "$1" --watch-pid "$server_pid" --quiet -o "$run"
  jq -r 'select(.type=="summary") | "\(.throughput.mean) \(.total.qet.p50/1e6) \(.total.wrong) \(.total.errors) \(.driver_limit) \(.total.verified)"' "$run"
}
best() { sort -g -r -k1,1 | head -1; }

: > "$work/wrk.rounds"; : > "$work/gq.rounds"; : > "$work/std.rounds"
for r in $(seq "$ROUNDS"); do
  wrk_run >> "$work/wrk.rounds"
  gq_run gqlbench >> "$work/gq.rounds"
  gq_run net/http >> "$work/std.rounds"
done
read -r wrk_rps wrk_p50 < <(best < "$work/wrk.rounds")
read -r gq_rps gq_p50 gq_wrong gq_errors gq_limit gq_verified < <(best < "$work/gq.rounds")
read -r std_rps std_p50 _ < <(best < "$work/std.rounds")

# One connection: the round trip with nothing queued; the lowest median counts.
: > "$work/wrk1.rounds"; : > "$work/gq1.rounds"
for r in $(seq "$ROUNDS"); do
  wrk_run 1 >> "$work/wrk1.rounds"
  gq_run gqlbench 1 >> "$work/gq1.rounds"
done
lowest() { sort -g -k2,2 | head -1; }
read -r wrk1_rps wrk1_p50 < <(lowest < "$work/wrk1.rounds")
read -r gq1_rps gq1_p50 _ < <(lowest < "$work/gq1.rounds")

# Open loop at a high constant rate.
rate=$(awk -v r="$gq_rps" -v f="$OPEN_FRACTION" 'BEGIN {printf "%d", r*f}')
open_run=$work/open.jsonl
taskset -c 1 "$B" load --target "$URL" --queries "$work/queries.jsonl" --mode open --rate "$rate" \
  --connections "$CONNS" --duration "${DURATION}s" --quiet -o "$open_run" || true
read -r o_tp o_p50 o_p99 o_qp50 o_qp99 o_late o_dlate o_drop o_limit o_why < <(jq -r 'select(.type=="summary") |
  "\(.throughput.mean) \(.total.latency.p50/1e6) \(.total.latency.p99/1e6) \(.total.qet.p50/1e6) \(.total.qet.p99/1e6) \(.total.late) \(.total.driver_late) \(.total.dropped) \(.driver_limit) \(.driver_why // "")"' "$open_run")

echo "gqlbench load vs wrk against gqlbench serve null (server on core 0, load on core 1)"
echo "  $CONNS connections, ${DURATION}s each, best of $ROUNDS rounds; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf "  wrk (Debian %s)                  %10.0f req/s   p50 %.3f ms\n" "$(wrk --version 2>&1 | awk 'NR==1{print $2}')" "$wrk_rps" "$wrk_p50"
printf "  gqlbench closed (own HTTP/1.1)     %10.0f req/s   p50 %.3f ms   verified %s, wrong %s, errors %s, driver limit %s\n" \
  "$gq_rps" "$gq_p50" "$gq_verified" "$gq_wrong" "$gq_errors" "$gq_limit"
printf "  gqlbench closed (net/http)         %10.0f req/s   p50 %.3f ms\n" "$std_rps" "$std_p50"
printf "  ratio gqlbench / wrk               %10.2f   (target >= 0.90)\n" "$(awk -v a="$gq_rps" -v b="$wrk_rps" 'BEGIN {print a/b}')"
printf "  ratio net/http / wrk               %10.2f\n" "$(awk -v a="$std_rps" -v b="$wrk_rps" 'BEGIN {print a/b}')"
printf "  latency added by the driver        %+10.3f ms (gqlbench p50 - wrk p50, %d connections)\n" "$(awk -v a="$gq_p50" -v b="$wrk_p50" 'BEGIN {print a-b}')" "$CONNS"
printf "  one connection: wrk %.0f req/s p50 %.3f ms, gqlbench %.0f req/s p50 %.3f ms: the driver adds %+.3f ms\n" \
  "$wrk1_rps" "$wrk1_p50" "$gq1_rps" "$gq1_p50" "$(awk -v a="$gq1_p50" -v b="$wrk1_p50" 'BEGIN {print a-b}')"
printf "  gqlbench open at %d/s: %.0f req/s, corrected p50 %.3f p99 %.3f ms, uncorrected p50 %.3f p99 %.3f ms, late %s (driver %s), dropped %s, driver limit %s %s\n" \
  "$rate" "$o_tp" "$o_p50" "$o_p99" "$o_qp50" "$o_qp99" "$o_late" "$o_dlate" "$o_drop" "$o_limit" "$o_why"
