#!/usr/bin/env bash
# bench/subscriptions.sh — the subscription load's memory and delivery latency as the
# subscribers grow (docs/subscriptions.md), and k6 holding the same subscriptions.
#
# A naive server over SQLite (sf 1) pinned to core 0, the load to core 1, on 127.0.0.1,
# once per setting in DEDUP (serve --subscription-dedup: true executes the subscriptions
# of one document and variables once per event, false each for itself; default both, in
# that order, so one run gives their ratio). For each setting and each N in SUBSCRIBERS: `gqlbench load --mode subscribe --subscribers N
# --per-subscriber K --publish-rate RATE --duration DURATION`, printing its peak RSS
# (/usr/bin/time), the run file's bytes per subscriber (RSS subscribed − RSS before, per
# connection), deliveries, validity, the delivery latency's p50/p99 and the server's CPU
# time per delivery. With K6=PATH,
# then k6 (bench/k6-subscriptions.js: N VUs, one connection each, the same K
# subscriptions) for DURATION seconds while a one-subscriber gqlbench run publishes at
# RATE, printing k6's peak RSS, its bytes per subscriber (peak RSS over a one-VU run's, per
# VU), the events it received and the connections it opened.
#
#   bench/subscriptions.sh                          # SUBSCRIBERS="1000 10000" K=2 RATE=1 DURATION=20
#   SUBSCRIBERS="1 500" bench/subscriptions.sh      # issue 25's 500 × 2, with and without dedup
#   K6=$HOME/go/bin/k6 SUBSCRIBERS=1000 bench/subscriptions.sh
#
# Needs: taskset, jq, /usr/bin/time; for 10,000 subscribers 20,000 file descriptors.
set -euo pipefail
cd "$(dirname "$0")/.."
SUBSCRIBERS=${SUBSCRIBERS:-"1000 10000"}; K=${K:-2}; RATE=${RATE:-1}; DURATION=${DURATION:-20}
PORT=${PORT:-4730}; NOFILE=${NOFILE:-20000}; K6=${K6:-}; DEDUP=${DEDUP:-"true false"}
ulimit -n "$NOFILE" 2>/dev/null || echo "bench/subscriptions.sh: cannot raise ulimit -n to $NOFILE" >&2
server=; work=$(mktemp -d); trap 'if [ -n "$server" ]; then kill $server 2>/dev/null || true; fi; rm -rf "$work"' EXIT
go build -o "$work/gqlbench" ./cmd/gqlbench
"$work/gqlbench" gen --sf 1 --db "sqlite:$work/s.db" --quiet
# serve DEDUP: (re)start the server with --subscription-dedup=DEDUP.
serve() {
  if [ -n "$server" ]; then kill $server; wait $server 2>/dev/null || true; fi
  : >"$work/serve.log"
  taskset -c 0 "$work/gqlbench" serve naive --db "sqlite:$work/s.db" --addr "127.0.0.1:$PORT" \
    --subscription-dedup="$1" 2>"$work/serve.log" &
  server=$!
  for _ in $(seq 100); do grep -q "serving on" "$work/serve.log" && break; sleep 0.1; done
}
url="http://127.0.0.1:$PORT/graphql"
# k6run N: k6 holding N connections × K subscriptions for DURATION seconds while a
# one-subscriber gqlbench run publishes at RATE; peak RSS in $work/k6rss (KB), counts in $work/k6sum.
k6run() {
  taskset -c 1 "$work/gqlbench" load --mode subscribe --target "$url" --subscribers 1 --publish-rate "$RATE" \
    --duration "$((DURATION + 30))s" --quiet -o /dev/null >/dev/null 2>&1 &
  local pub=$!
  URL="ws://127.0.0.1:$PORT/graphql" VUS="$1" K="$K" HOLD="$DURATION" SUMMARY="$work/k6sum" \
    /usr/bin/time -f %M -o "$work/k6rss" taskset -c 1 "$K6" run --quiet bench/k6-subscriptions.js \
    >/dev/null 2>"$work/k6.log" || true
  kill $pub 2>/dev/null || true; wait $pub 2>/dev/null || true
}
for dedup in $DEDUP; do
  serve "$dedup"; ms1=
  echo "server: naive, --subscription-dedup=$dedup (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  if [ -n "$K6" ]; then k6run 1; k6base=$(tail -n 1 "$work/k6rss"); echo "k6 with one VU: peak RSS $((k6base / 1024)) MB"; fi
  printf '%-8s %-8s %10s %12s %10s %6s %9s %9s\n' tool N peakRSS_MB bytes/sub delivered valid p50_ms p99_ms
  for n in $SUBSCRIBERS; do
    cpu0=$(awk '{print $14+$15}' /proc/$server/stat)
    /usr/bin/time -f %M -o "$work/rss" taskset -c 1 "$work/gqlbench" load --mode subscribe --target "$url" \
      --subscribers "$n" --per-subscriber "$K" --publish-rate "$RATE" --duration "${DURATION}s" \
      --warmup 120s --settle 30s --quiet -o "$work/run.jsonl" || true
    jq -r --arg n "$n" --arg rss "$(tail -n 1 "$work/rss")" 'select(.type=="summary") | .subscription |
      [ "gqlbench", $n, (($rss|tonumber)/1024|floor), .bytes_per_subscriber, .delivered, .valid,
        (.latency.p50/1e6*100|floor/100), (.latency.p99/1e6*100|floor/100) ] | @tsv' "$work/run.jsonl" |
      awk -F'\t' '{printf "%-8s %-8s %10s %12s %10s %6s %9s %9s\n", $1,$2,$3,$4,$5,$6,$7,$8}'
    cpu1=$(awk '{print $14+$15}' /proc/$server/stat)
    # the server's CPU (user+system) over the run, per delivery: it includes the connections'
    # setup and the warm-up, an upper bound that CPU contention does not inflate
    ms=$(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) )); got=$(jq -r 'select(.type=="summary") | .subscription.delivered' "$work/run.jsonl"); got=${got:-0}
    jq -r --arg ms "$ms" 'select(.type=="summary") | .subscription |
      "  server CPU \($ms) ms, \(if .delivered > 0 then ($ms|tonumber) * 1000 / .delivered | floor else "-" end) µs per delivery"' "$work/run.jsonl"
    # over the first N's run (its fixed costs: the publisher's mutations, a connection's setup)
    if [ -z "${ms1:-}" ]; then ms1=$ms; got1=$got
    elif [ "$got" -gt "$got1" ]; then
      echo "  over N=${SUBSCRIBERS%% *}: $(( (ms - ms1) * 1000 / (got - got1) )) µs of server CPU per further delivery"
    fi
    jq -r 'select(.type=="summary") | .subscription | select(.valid|not) | "  invalid: \(.invalid|join(", ")); first error: \(.first_error)"' "$work/run.jsonl"
    if [ -n "$K6" ]; then
      k6run "$n"
      kb=$(tail -n 1 "$work/k6rss")
      # per subscriber: the peak over a one-VU run's, per VU (gqlbench's figure is its RSS
      # subscribed over its RSS before connecting, per connection: the same fixed cost left out)
      printf '%-8s %-8s %10s %12s %10s %6s\n' k6 "$n" "$((kb / 1024))" "$(((kb - k6base) * 1024 / n))" \
        "$(jq -r .events "$work/k6sum")" "$(jq -r '.sessions' "$work/k6sum")/$n"
    fi
    echo "  load average after N=$n: $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
