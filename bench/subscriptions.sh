#!/usr/bin/env bash
# bench/subscriptions.sh — the subscription load's memory and delivery latency as the
# subscribers grow (docs/subscriptions.md), and k6 holding the same subscriptions.
#
# A naive server over SQLite (sf 1) pinned to core 0, the load to core 1, on 127.0.0.1.
# For each N in SUBSCRIBERS: `gqlbench load --mode subscribe --subscribers N
# --per-subscriber K --publish-rate RATE --duration DURATION`, printing its peak RSS
# (/usr/bin/time), the run file's bytes per subscriber (RSS subscribed − RSS before, per
# connection), deliveries, validity and the delivery latency's p50/p99. With K6=PATH,
# then k6 (bench/k6-subscriptions.js: N VUs, one connection each, the same K
# subscriptions) for DURATION seconds while a one-subscriber gqlbench run publishes at
# RATE, printing k6's peak RSS and per VU.
#
#   bench/subscriptions.sh                          # SUBSCRIBERS="1000 10000" K=2 RATE=1 DURATION=20
#   K6=$HOME/go/bin/k6 SUBSCRIBERS=1000 bench/subscriptions.sh
#
# Needs: taskset, jq, /usr/bin/time; for 10,000 subscribers 20,000 file descriptors.
set -euo pipefail
cd "$(dirname "$0")/.."
SUBSCRIBERS=${SUBSCRIBERS:-"1000 10000"}; K=${K:-2}; RATE=${RATE:-1}; DURATION=${DURATION:-20}
PORT=${PORT:-4730}; NOFILE=${NOFILE:-20000}; K6=${K6:-}
ulimit -n "$NOFILE" 2>/dev/null || echo "bench/subscriptions.sh: cannot raise ulimit -n to $NOFILE" >&2
work=$(mktemp -d); trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/gqlbench" ./cmd/gqlbench
"$work/gqlbench" gen --sf 1 --db "sqlite:$work/s.db" --quiet
taskset -c 0 "$work/gqlbench" serve naive --db "sqlite:$work/s.db" --addr "127.0.0.1:$PORT" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q "serving on" "$work/serve.log" && break; sleep 0.1; done
url="http://127.0.0.1:$PORT/graphql"
printf '%-8s %-8s %10s %12s %10s %6s %9s %9s\n' tool N peakRSS_MB bytes/sub delivered valid p50_ms p99_ms
for n in $SUBSCRIBERS; do
  /usr/bin/time -f %M -o "$work/rss" taskset -c 1 "$work/gqlbench" load --mode subscribe --target "$url" \
    --subscribers "$n" --per-subscriber "$K" --publish-rate "$RATE" --duration "${DURATION}s" \
    --warmup 120s --settle 30s --quiet -o "$work/run.jsonl" || true
  jq -r --arg n "$n" --arg rss "$(cat "$work/rss")" 'select(.type=="summary") | .subscription |
    [ "gqlbench", $n, (($rss|tonumber)/1024|floor), .bytes_per_subscriber, .delivered, .valid,
      (.latency.p50/1e6*100|floor/100), (.latency.p99/1e6*100|floor/100) ] | @tsv' "$work/run.jsonl" |
    awk -F'\t' '{printf "%-8s %-8s %10s %12s %10s %6s %9s %9s\n", $1,$2,$3,$4,$5,$6,$7,$8}'
  if [ -n "$K6" ]; then
    taskset -c 1 "$work/gqlbench" load --mode subscribe --target "$url" --subscribers 1 --publish-rate "$RATE" \
      --duration "$((DURATION + 30))s" --quiet -o /dev/null >/dev/null 2>&1 &
    pub=$!
    URL="ws://127.0.0.1:$PORT/graphql" VUS="$n" K="$K" SECONDS="$DURATION" /usr/bin/time -f %M -o "$work/k6rss" \
      taskset -c 1 "$K6" run --quiet --no-summary bench/k6-subscriptions.js >/dev/null 2>"$work/k6.log" || true
    kill $pub 2>/dev/null || true; wait $pub 2>/dev/null || true
    kb=$(cat "$work/k6rss")
    printf '%-8s %-8s %10s %12s\n' k6 "$n" "$((kb / 1024))" "$((kb * 1024 / n))"
  fi
done
