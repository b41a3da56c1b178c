#!/usr/bin/env bash
# bench/memory.sh — the load generator's memory, rate and punctuality as clients and
# operations grow.
#
# For each number of clients in CLIENTS, closed-loop runs of DURATION seconds (--runs 1,
# 1 s intervals), the server pinned to core 0, the load to core 1, all on 127.0.0.1, in
# two workloads:
#   16 templates   the sf=1 mixed workload (queries --per-template 100 --mix all --expect)
#                  against `serve inmem` (the oracle: every answer verified in full);
#   50 operations  the same 1600 requests relabelled into 50 labels (op1..op50: a
#                  label is free text in a queries file) against `serve null`, their
#                  expected answer null's {"__typename":"Query"}, so again all verified.
# REVS names the builds compared: "." is the work tree, anything else a commit (built
# from `git archive`); their runs alternate, ROUNDS times, so a busy machine weighs on
# them alike. Printed per build: the load generator's peak RSS (/usr/bin/time's maximum
# resident set size; the highest round), its requests/s (the best round), the CPU of the
# driver and of the server (mean of the run file's interval samples, 100 = one core:
# which one was the limit), the driver's CPU time per request, the interval lines
# written against the DURATION expected (the fewest), the longest gap between two of
# them as they reached stderr (1.0 s when every line is on time) and the wall time of
# the load. A run whose RSS passes MAX_RSS_MB is killed (SIGKILL) and shown as such:
# old builds grew to gigabytes here.
#
#   bench/memory.sh                                   # CLIENTS="50 200 1000 10000" DURATION=10
#   REVS="bcf851c ." ROUNDS=2 bench/memory.sh         # an older commit against the work tree
#   CLIENTS="200 1000" WORKLOADS=16 bench/memory.sh
#
# Needs: taskset, jq, /usr/bin/time (apt-get install -y time), two cores, and, for 10,000
# clients, 10,000 file descriptors per process: the script raises `ulimit -n` to
# NOFILE (the hard limit must allow it) and says so if it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${CLIENTS:-"50 200 1000 10000"}; DURATION=${DURATION:-10}; PORT=${PORT:-4720}
WORKLOADS=${WORKLOADS:-"16 50"}; MAX_RSS_MB=${MAX_RSS_MB:-8192}; NOFILE=${NOFILE:-20000}
REVS=${REVS:-.}; ROUNDS=${ROUNDS:-1}
for tool in taskset jq /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench/memory.sh: $tool is missing" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/memory.sh: needs two cores (server on 0, load on 1)" >&2; exit 1; }
most=$(printf '%s\n' $CLIENTS | sort -n | tail -1)
if [ "$(ulimit -n)" -lt $((most + 100)) ]; then
  ulimit -n "$NOFILE" 2>/dev/null || true
  if [ "$(ulimit -n)" -lt $((most + 100)) ]; then
    echo "bench/memory.sh: ulimit -n is $(ulimit -n), too few for $most clients (raise the hard limit: ulimit -Hn)" >&2
    exit 1
  fi
fi

work=$(mktemp -d /tmp/gqlbench-memory.XXXXXX)
. bench/revs.sh # after the cd above: the repository root
build_revs
B=$(bin "${REVS##* }") # the last build serves and makes the workloads

"$B" gen --sf 1 --db "sqlite:$work/db.sqlite" --meta "$work/meta.json" >/dev/null 2>&1
"$B" queries --meta "$work/meta.json" --per-template 100 --mix all --expect -o "$work/q16.jsonl" 2>/dev/null
expect=$(printf '%s' '{"__typename":"Query"}' | sha256sum | cut -d' ' -f1)
jq -c -n --arg e "$expect" '[inputs] | to_entries[] | .value + {template: "op\(.key % 50 + 1)", expect: $e}' \
  "$work/q16.jsonl" > "$work/q50.jsonl"

# serve VARIANT starts the server on core 0.
serve() {
  stop_server
  taskset -c 0 "$B" serve "$1" --db "sqlite:$work/db.sqlite" --addr "127.0.0.1:$PORT" >"$work/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 300); do grep -q "serving on" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
  grep -q "serving on" "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }
}

# stamp prefixes each line with the seconds since the epoch, as it arrives.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done; }

# load BINARY QUERIES CLIENTS prints "peak_mb req/s driver_cpu server_cpu lines gap_s wall_s note"
load() {
  local run=$work/run.jsonl tf=$work/time.out log=$work/progress.log
  rm -f "$run" "$tf" "$log" "$work/load.pid"
  # sh writes the pid that gqlbench, exec'd, keeps: time's child, the one to watch
  taskset -c 1 /usr/bin/time -f '%M %e' -o "$tf" sh -c 'echo $$ > "$0"; exec "$@"' "$work/load.pid" \
    "$1" load --target "http://127.0.0.1:$PORT/graphql" \
    --queries "$2" --mode closed --clients "$3" --duration "${DURATION}s" --runs 1 --abort-after 30s \
    --watch-pid "$server_pid" -o "$run" 2> >(stamp > "$log") &
  local tpid=$! pid="" note="" deadline=$((SECONDS + 4 * DURATION + 60))
  while kill -0 "$tpid" 2>/dev/null; do
    [ -z "$pid" ] && [ -s "$work/load.pid" ] && pid=$(cat "$work/load.pid")
    if [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; then
      local rss; rss=$(awk '/^VmRSS:/ {print int($2/1024)}' "/proc/$pid/status" 2>/dev/null || echo 0)
      if [ "${rss:-0}" -gt "$MAX_RSS_MB" ]; then note="killed: RSS > $MAX_RSS_MB MB"; kill -KILL "$pid"; fi
    fi
    if [ $SECONDS -gt $deadline ] && [ -n "$pid" ]; then note="killed: past $((4 * DURATION + 60)) s"; kill -KILL "$pid" 2>/dev/null || true; fi
    sleep 0.2
  done
  wait "$tpid" 2>/dev/null || true
  sleep 0.2 # let stamp finish
  local peak wall
  read -r peak wall < <(grep -E '^[0-9]+ [0-9.]+$' "$tf" 2>/dev/null || echo "0 0")
  # the run file's lines that parse (a killed run's last line may be cut)
  jq -c -R 'fromjson? // empty' "$run" > "$work/lines.jsonl" 2>/dev/null || true
  local rps lines dcpu scpu
  rps=$(jq -r 'select(.type=="summary") | .throughput.mean' "$work/lines.jsonl")
  if [ -z "$rps" ]; then # no summary: the intervals written
    rps=$(jq -s '[.[] | select(.type=="interval" and (.tail | not))] | if length == 0 then 0 else
      ([.[].templates[] | .count] | add) / ((.[-1].end_ns - .[0].start_ns) / 1e9) end' "$work/lines.jsonl")
  fi
  read -r lines dcpu scpu < <(jq -r -s '[.[] | select(.type=="interval" and (.tail | not))] |
    def mean(f): (map(f | select(. != null)) | if length == 0 then 0 else add / length end);
    "\(length) \(mean(.driver.cpu_pct)) \(mean(.procs[0].cpu_pct))"' "$work/lines.jsonl")
  # the longest gap between two interval lines' progress lines
  local gap; gap=$(grep -E '^[0-9.]+ load: run 1 ' "$log" 2>/dev/null | grep -v 'in flight' |
    awk 'NR == 1 {p = $1; next} {g = $1 - p; if (g > m) m = g; p = $1} END {printf "%.2f", m}' || true)
  local code; code=$(sed -n 's/^Command exited with non-zero status \([0-9]*\)$/\1/p' "$tf" 2>/dev/null || true)
  [ -z "$note" ] && [ -n "$code" ] && note="exit $code"
  [ -z "$note" ] && grep -q 'terminated by signal' "$tf" 2>/dev/null && note=$(grep -m1 -o 'signal [0-9]*' "$tf")
  printf '%s %.0f %.0f %.0f %s %s %s %s\n' "$((peak / 1024))" "$rps" "$dcpu" "$scpu" "$lines" "${gap:-0}" "$wall" "$note"
}

echo "gqlbench load's memory: closed loop, ${DURATION}s, 1 s intervals; server on core 0, load on core 1; best of $ROUNDS"
echo "  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %8s %-8s %10s %8s %7s %7s %7s %10s %8s %8s  %s\n' workload clients build "peak RSS" "req/s" "driver" "µs/req" "server" "intervals" "max gap" "wall" note
for w in $WORKLOADS; do
  case $w in
    16) serve inmem; q=$work/q16.jsonl; name="16 templates" ;;
    50) serve null; q=$work/q50.jsonl; name="50 operations" ;;
    *) echo "bench/memory.sh: unknown workload $w (16 or 50)" >&2; exit 2 ;;
  esac
  for c in $CLIENTS; do
    for rev in $REVS; do : > "$work/rounds.${rev//\//-}"; done
    for _ in $(seq "$ROUNDS"); do
      for rev in $REVS; do load "$(bin "$rev")" "$q" "$c" >> "$work/rounds.${rev//\//-}"; done
    done
    for rev in $REVS; do
      # the highest RSS, the best rate, the fewest intervals, the longest gap of the rounds
      read -r peak rps dcpu scpu lines gap wall note < <(sort -k2,2nr "$work/rounds.${rev//\//-}" | awk '
        NR == 1 {best = $0} {if ($1 > p) p = $1; if (l == "" || $5 < l) l = $5; if ($6 > g) g = $6}
        END {split(best, b, " "); n = ""; for (i = 8; i <= length(b); i++) n = n " " b[i]
             printf "%d %s %s %s %d %.2f %s%s\n", p, b[2], b[3], b[4], l, g, b[7], n}')
      label=$rev; [ "$rev" = . ] && label=new
      us=$(awk -v c="$dcpu" -v r="$rps" 'BEGIN {if (r > 0) printf "%.1f", c * 1e4 / r; else print "-"}')
      printf '%-14s %8d %-8s %7d MB %8d %6d%% %7s %6d%% %7d/%-2d %6s s %6s s %s\n' "$name" "$c" "$label" "$peak" "$rps" "$dcpu" "$us" "$scpu" \
        "$lines" "$DURATION" "$gap" "$wall" "${note:-}"
    done
  done
done
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
