#!/usr/bin/env bash
# bench/rest-load.sh — the load generator's REST path beside wrk, and what HTTP/2 changes.
#
# The server runs pinned to core 0, the load tools pinned to core 1, one after the other,
# the same GET, the same headers, the same connections and duration, ROUNDS rounds
# alternating, the best round of each counting:
#   (a) wrk -t1 GET of one REST endpoint, the reference (it checks nothing);
#   (b) gqlbench load --api rest on a one-call task of that endpoint: every answer
#       assembled, its hash checked against the expected one, HDR histograms recorded;
#   (c) the same over HTTP/2 (--http2: h2c, Go's net/http, one connection per client).
# Two endpoints: `gqlbench serve null` answering GET /graphql?query={__typename} (no
# database: the generator's own ceiling) and, when the server binary has it,
# `gqlbench serve rest` answering GET /rest/universities/1 over an sf=1 SQLite file.
# Then, against serve rest, a task of many calls — display-endpoints-50, the first 50
# graduate students, then an advisor and the courses of each (101 calls, up to --parallel
# at a time) — over HTTP/1.1 (6 connections per client) and HTTP/2 (one, multiplexed).
# Last, the GraphQL side: `gqlbench serve batch` over the same file asked the GraphQL
# form of two tasks (QT3, one small query; display-all-50, a large answer) over HTTP/1.1
# (gqlbench's own client) and HTTP/2 (--http2: net/http, h2c), at 1 and CLIENTS_MANY clients.
# Printed: req/s of wrk and gqlbench, the ratio (target >= 0.9), and the HTTP/2 effect.
#
#   bench/rest-load.sh                                  # CONNS=32 DURATION=8 ROUNDS=2
#   SERVER_BIN=/path/to/gqlbench bench/rest-load.sh     # a server binary with serve rest
#
# Needs: taskset, wrk, jq, two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNS=${CONNS:-32}; DURATION=${DURATION:-8}; ROUNDS=${ROUNDS:-2}; PORT=${PORT:-4720}
CLIENTS_MANY=${CLIENTS_MANY:-8}
for tool in taskset wrk jq; do
  command -v "$tool" >/dev/null || { echo "bench/rest-load.sh: $tool is missing" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/rest-load.sh: needs two cores (server on 0, load on 1)" >&2; exit 1; }

work=$(mktemp -d /tmp/gqlbench-rest-load.XXXXXX)
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
S=${SERVER_BIN:-$B}
version=$("$B" version | awk '{print $2}')
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
cleanup() { stop_server; rm -rf "$work"; }
trap cleanup EXIT

# start_server VARIANT [flags] starts a server on core 0 and waits for it.
start_server() {
  stop_server
  taskset -c 0 "$S" serve "$@" --addr "127.0.0.1:$PORT" >"$work/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do grep -q "serving on" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
  grep -q "serving on" "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }
}

# one_task PATH FILE writes a one-call task of GET PATH whose right answer is the
# server's own (fetched once: the server is trusted, the bench measures speed).
one_task() {
  local answer; answer=$(curl -sf "http://127.0.0.1:$PORT$1")
  # the hash of the canonical JSON (keys sorted, compact) of the assembled answer
  local expect; expect=$(jq -cnS --argjson a "$answer" '{r: $a}' | tr -d '\n' | sha256sum | cut -d' ' -f1)
  jq -cn --arg p "$1" --arg e "$expect" '{id: "one-0001", template: "one", plan: [{call: ("GET " + $p), as: "r"}], expect: $e}' > "$2"
}

# wrk_run PATH prints req/s
wrk_run() {
  taskset -c 1 wrk -t1 -c"$CONNS" -d"${DURATION}s" -H "Accept: application/json" -H "User-Agent: gqlbench/$version" \
    "http://127.0.0.1:$PORT$1" | awk '/^Requests\/sec:/ {print $2}'
}
# gq_run TASKS CLIENTS [flags] prints "req/s p50_ms verified wrong errors calls_per_task driver_cpu% server_cpu%"
# (API=graphql: the GraphQL target /graphql instead of the REST base)
gq_run() {
  local tasks=$1 clients=$2; shift 2
  local run=$work/run.jsonl
  local target=(--api rest --target "http://127.0.0.1:$PORT")
  if [ "${API:-rest}" = graphql ]; then target=(--target "http://127.0.0.1:$PORT/graphql"); fi
  taskset -c 1 "$B" load "${target[@]}" --queries "$tasks" --mode closed \
    --clients "$clients" --duration "${DURATION}s" --runs 1 --watch-pid "$server_pid" --quiet -o "$run" "$@" || true
  local cpu; cpu=$(jq -s '[.[] | select(.type=="interval" and (.tail|not))] | "\(([.[].driver.cpu_pct]|add)/length|floor) \(([.[].procs[0].cpu_pct]|add)/length|floor)"' -r "$run")
  jq -r --arg cpu "$cpu" 'select(.type=="summary") | "\(.throughput.mean) \(.total.qet.p50/1e6) \(.total.verified) \(.total.wrong) \(.total.errors) \((.total.calls // .total.count) / ([.total.count,1]|max)) \($cpu)"' "$run"
}
best() { sort -g -r -k1,1 | head -1; }

# compare NAME PATH: wrk, gqlbench HTTP/1.1 and HTTP/2 on a one-call task of PATH
compare() {
  one_task "$2" "$work/one.jsonl"
  : > "$work/wrk.r"; : > "$work/h1.r"; : > "$work/h2.r"
  for r in $(seq "$ROUNDS"); do # the order alternates: no tool always follows another
    if [ $((r % 2)) -eq 1 ]; then wrk_run "$2" >> "$work/wrk.r"; fi
    gq_run "$work/one.jsonl" "$CONNS" --parallel 1 >> "$work/h1.r"
    if [ $((r % 2)) -eq 0 ]; then wrk_run "$2" >> "$work/wrk.r"; fi
    gq_run "$work/one.jsonl" "$CONNS" --http2 >> "$work/h2.r"
  done
  local wrk h1 h1p50 h1v h1w h1e h1d h1s h2 h2p50 h2d h2s _
  wrk=$(best < "$work/wrk.r")
  read -r h1 h1p50 h1v h1w h1e _ h1d h1s < <(best < "$work/h1.r")
  read -r h2 h2p50 _ _ _ _ h2d h2s < <(best < "$work/h2.r")
  printf "  %-44s wrk %8.0f req/s | gqlbench %8.0f req/s (p50 %.3f ms, %s verified, %s wrong, %s errors; CPU driver %s%% server %s%%) | ratio %.2f | HTTP/2 %8.0f req/s (p50 %.3f ms; CPU driver %s%% server %s%%)\n" \
    "$1" "$wrk" "$h1" "$h1p50" "$h1v" "$h1w" "$h1e" "$h1d" "$h1s" "$(awk -v a="$h1" -v b="$wrk" 'BEGIN {print a/b}')" "$h2" "$h2p50" "$h2d" "$h2s"
}

echo "gqlbench load --api rest vs wrk (server on core 0, load on core 1), $CONNS connections, ${DURATION}s, best of $ROUNDS"
echo "  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); wrk $(wrk --version 2>&1 | awk 'NR==1{print $2}')"
start_server null
compare "serve null, GET /graphql?query={__typename}" "/graphql?query=%7B__typename%7D"

serve_help=$("$S" serve --help 2>&1 || true)
if grep -qE '^  rest ' <<< "$serve_help"; then
  "$B" gen --sf 1 --db "sqlite:$work/sf1.db" --meta "$work/sf1.meta.json" >/dev/null 2>&1
  start_server rest --db "sqlite:$work/sf1.db"
  compare "serve rest, GET /rest/universities/1" "/rest/universities/1"
  "$B" tasks --meta "$work/sf1.meta.json" --sets display --records 50 -o "$work/tasks.jsonl" 2>/dev/null
  jq -c 'select(.template == "display-endpoints-50")' "$work/tasks.jsonl" > "$work/many.jsonl"
  : > "$work/m1.r"; : > "$work/m2.r"
  for _ in $(seq "$ROUNDS"); do
    gq_run "$work/many.jsonl" "$CLIENTS_MANY" >> "$work/m1.r"
    gq_run "$work/many.jsonl" "$CLIENTS_MANY" --http2 >> "$work/m2.r"
  done
  read -r m1 m1p50 m1v m1w m1e m1c m1d m1s < <(best < "$work/m1.r")
  read -r m2 m2p50 m2v m2w m2e m2c m2d m2s < <(best < "$work/m2.r")
  printf "  %-44s HTTP/1.1 (6 connections per client) %6.1f tasks/s, p50 %.2f ms, CPU driver %s%% server %s%% | HTTP/2 (one) %6.1f tasks/s, p50 %.2f ms, CPU driver %s%% server %s%% | %.0f calls per task, wrong %s/%s, errors %s/%s\n" \
    "serve rest, display-endpoints-50, $CLIENTS_MANY clients" "$m1" "$m1p50" "$m1d" "$m1s" "$m2" "$m2p50" "$m2d" "$m2s" "$m1c" "$m1w" "$m2w" "$m1e" "$m2e"

  start_server batch --db "sqlite:$work/sf1.db"
  "$B" tasks --meta "$work/sf1.meta.json" --sets display,lingbm --records 50 --per-template 10 -o "$work/all.jsonl" 2>/dev/null
  for label in QT3 display-all-50; do
    jq -c --arg l "$label" 'select(.template == $l) | del(.plan)' "$work/all.jsonl" > "$work/g.jsonl"
    for clients in 1 "$CLIENTS_MANY"; do
      : > "$work/g1.r"; : > "$work/g2.r"
      for _ in $(seq "$ROUNDS"); do
        API=graphql gq_run "$work/g.jsonl" "$clients" >> "$work/g1.r"
        API=graphql gq_run "$work/g.jsonl" "$clients" --http2 >> "$work/g2.r"
      done
      read -r g1 g1p50 g1v g1w g1e _ g1d g1s < <(best < "$work/g1.r")
      read -r g2 g2p50 g2v g2w g2e _ g2d g2s < <(best < "$work/g2.r")
      printf "  %-44s HTTP/1.1 %7.0f req/s, p50 %.3f ms, CPU driver %s%% server %s%% | HTTP/2 %7.0f req/s, p50 %.3f ms, CPU driver %s%% server %s%% | ratio %.2f | wrong %s/%s, errors %s/%s\n" \
        "serve batch (GraphQL), $label, $clients client(s)" "$g1" "$g1p50" "$g1d" "$g1s" "$g2" "$g2p50" "$g2d" "$g2s" \
        "$(awk -v a="$g2" -v b="$g1" 'BEGIN {print a/b}')" "$g1w" "$g2w" "$g1e" "$g2e"
    done
  done
else
  echo "  (the server binary has no serve rest: SERVER_BIN=... for the REST endpoint and the HTTP/2 effect on many calls)"
fi
