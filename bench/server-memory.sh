#!/usr/bin/env bash
# bench/server-memory.sh — the servers' memory under many users of a large answer, REST and
# every GraphQL variant side by side, in one run.
#
# For each number of users in USERS and each server in VARIANTS (rest first: the
# reference), the server runs pinned to core 0 over an sf=1 SQLite file, and `gqlbench load`
# pinned to core 1 sends TASK (default display-all-100: the first 100 graduate students and
# their advisors with every field, a ~44 KB answer; REST's form of it to `serve rest`) in a
# closed loop, USERS clients, DURATION seconds (--runs 1), every answer verified. Printed
# per server: its peak RSS (VmHWM of /proc/PID/status when the load has ended: the
# kernel's own high-water mark, no sample missed), its ratio to REST's at the same users
# and build, the tasks per second, and the wrong answers and errors.
# REVS names the builds compared as in bench/memory.sh: "." is the work tree, anything else
# a commit (built from `git archive`); the builds alternate per server and users.
#
#   bench/server-memory.sh                                 # USERS="100 1000" DURATION=8
#   REVS="main ." USERS=1000 bench/server-memory.sh        # main against the work tree
#   VARIANTS="rest batch" EXTRA="--max-executing -1" bench/server-memory.sh
#
# Needs: taskset, jq, two cores, ulimit -n above the largest USERS.
set -euo pipefail
cd "$(dirname "$0")/.."
USERS=${USERS:-"100 1000"}; DURATION=${DURATION:-8}; PORT=${PORT:-4730}; TASK=${TASK:-display-all-100}
LOAD_TIMEOUT=${LOAD_TIMEOUT:-300s} # the client's per-task timeout: a thousand users wait long on a busy machine
# The load's --max-response is 16 MiB, which makes its response buffer budget 128 MiB: a thousand
# 44 KB answers at once take 64 MiB of buffers, over the default budget of 32 MiB (whose
# overflow is a bad_response).
VARIANTS=${VARIANTS:-"rest naive memo batch batch-memo compiled inmem"}; REVS=${REVS:-.}; EXTRA=${EXTRA:-}
for tool in taskset jq; do
  command -v "$tool" >/dev/null || { echo "bench/server-memory.sh: $tool is missing" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/server-memory.sh: needs two cores (server on 0, load on 1)" >&2; exit 1; }
most=$(printf '%s\n' $USERS | sort -n | tail -1)
ulimit -n $((most * 2 + 200)) 2>/dev/null || true
[ "$(ulimit -n)" -ge $((most + 100)) ] || { echo "bench/server-memory.sh: ulimit -n is $(ulimit -n), too few for $most users" >&2; exit 1; }

work=$(mktemp -d /tmp/gqlbench-server-memory.XXXXXX)
. bench/revs.sh # after the cd above: the repository root
build_revs
B=$(bin "${REVS##* }") # the last build makes the database and the task
"$B" gen --sf 1 --db "sqlite:$work/db.sqlite" --meta "$work/meta.json" >/dev/null 2>&1
"$B" tasks --meta "$work/meta.json" --sets display --records "${TASK##*-}" -o "$work/tasks.jsonl" 2>/dev/null
jq -c --arg t "$TASK" 'select(.template == $t)' "$work/tasks.jsonl" > "$work/task.jsonl"
[ -s "$work/task.jsonl" ] || { echo "bench/server-memory.sh: no task $TASK" >&2; exit 1; }

# measure BINARY VARIANT USERS prints "peak_MiB tasks/s wrong errors"
measure() {
  local b=$1 v=$2 u=$3 target api=() extra=()
  stop_server
  [ "$v" != rest ] && [ -n "$EXTRA" ] && read -r -a extra <<< "$EXTRA"
  taskset -c 0 "$b" serve "$v" --db "sqlite:$work/db.sqlite" --addr "127.0.0.1:$PORT" "${extra[@]}" >"$work/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 300); do grep -q "serving on" "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
  grep -q "serving on" "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }
  if [ "$v" = rest ]; then target=http://127.0.0.1:$PORT; api=(--api rest); else target=http://127.0.0.1:$PORT/graphql; fi
  rm -f "$work/run.jsonl"
  taskset -c 1 "$b" load --target "$target" "${api[@]}" --queries "$work/task.jsonl" --mode closed --clients "$u" \
    --duration "${DURATION}s" --runs 1 --timeout "$LOAD_TIMEOUT" --max-response $((16 << 20)) --quiet -o "$work/run.jsonl" >/dev/null 2>&1 || true
  local hwm; hwm=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$server_pid/status")
  stop_server
  jq -r --arg p "$hwm" 'select(.type=="summary") | "\($p) \(.throughput.mean) \(.total.wrong // 0) \(.total.errors // 0)"' "$work/run.jsonl" 2>/dev/null |
    grep . || echo "$hwm 0 - -"
}

echo "servers' peak RSS under $TASK, closed loop, ${DURATION}s; server on core 0, load on core 1"
echo "  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| users | server | build | peak RSS MiB | ÷ REST | tasks/s | wrong | errors |\n|---:|---|---|---:|---:|---:|---:|---:|\n'
for u in $USERS; do
  declare -A rest=()
  for v in $VARIANTS; do
    for rev in $REVS; do
      read -r peak rps wrong errors < <(measure "$(bin "$rev")" "$v" "$u")
      [ "$v" = rest ] && rest[$rev]=$peak
      ratio=$(awk -v a="$peak" -v b="${rest[$rev]:-0}" 'BEGIN {if (b > 0) printf "%.2f×", a / b; else print "-"}')
      label=$rev; [ "$rev" = . ] && label=new
      printf '| %d | %s | %s | %d | %s | %.1f | %s | %s |\n' "$u" "$v" "$label" "$peak" "$ratio" "$rps" "$wrong" "$errors"
    done
  done
done
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
