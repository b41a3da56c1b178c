#!/usr/bin/env bash
# bench/rest.sh — the REST API's throughput, measured by wrk.
#
# `gqlbench serve rest` over the sf=$SF dataset runs pinned to core 0 (with the database:
# SQLite in process, or with DB=postgres a throwaway PostgreSQL pinned there too); wrk -t1,
# pinned to core 1, GETs one URL at a time with each of CONNS_LIST connections for DURATION
# seconds, ROUNDS rounds; the best round counts:
#   resource     /rest/universities/3                          one row, {"id":"3"}: the API's floor
#   student      /rest/graduateStudents/2                      a full resource of 7 fields
#   relation     /rest/departments/0/graduateStudents          a department's graduate students (a list)
#   page+embed   /rest/departments/0/graduateStudents?limit=10&offset=10&embed=advisor,takeGraduateCourses
#                                                              a page, each item with its advisor and courses
# Every one is one SQL statement (checked here with --trace's Server-Timing before the runs).
# Printed: req/s, the CPU per request (µs, from /proc) of the server process (the REST layer,
# and for SQLite the database too) and of PostgreSQL (postmaster and backends), the response
# size, and wrk's non-2xx count (must be 0).
#
#   bench/rest.sh                                   # SF=10 CONNS_LIST="1 50" DURATION=5 ROUNDS=2, SQLite
#   DB=postgres bench/rest.sh
#
# Needs: taskset, wrk, curl, two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-10}; CONNS_LIST=${CONNS_LIST:-"1 50"}; DURATION=${DURATION:-5}; ROUNDS=${ROUNDS:-2}
DB=${DB:-sqlite}; PORT=${PORT:-4750}
for tool in taskset wrk curl; do
  command -v "$tool" >/dev/null || { echo "bench/rest.sh: $tool is missing (apt-get install -y wrk curl)" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench/rest.sh: needs two cores (server on 0, wrk on 1)" >&2; exit 1; }

work=$(mktemp -d /tmp/gqlbench-rest.XXXXXX); chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null
  [ "$DB" = postgres ] && { "$B" pg destroy >/dev/null 2>&1 || true; }
  rm -rf "$work"
}
trap cleanup EXIT
case $DB in
  sqlite) URLDB=sqlite:$work/bench.db ;;
  postgres)
    "$B" pg start >/dev/null 2>&1
    URLDB=$("$B" pg createdb bench)
    pgpid=$(head -1 "$(sed -n 's/.*"data_dir": *"\([^"]*\)".*/\1/p' "$GQLBENCH_PG_DIR/cluster.json")/postmaster.pid")
    taskset -a -c -p 0 "$pgpid" >/dev/null ;;  # the database is part of the system under test
  *) echo "bench/rest.sh: DB=sqlite or DB=postgres" >&2; exit 2 ;;
esac
"$B" gen --sf "$SF" --db "$URLDB" --quiet 2>/dev/null

# serve starts the server on core 0 with extra flags.
serve() {
  taskset -c 0 "$B" serve rest --db "$URLDB" --addr "127.0.0.1:$PORT" "$@" >"$work/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return; sleep 0.1; done
  cat "$work/serve.log" >&2; exit 1
}
base=http://127.0.0.1:$PORT
names=(resource student relation page+embed)
paths=(/rest/universities/3 /rest/graduateStudents/2 /rest/departments/0/graduateStudents
  "/rest/departments/0/graduateStudents?limit=10&offset=10&embed=advisor,takeGraduateCourses")
serve --trace
for p in "${paths[@]}"; do
  timing=$(curl -s -o /dev/null -D - "$base$p" | tr -d '\r' | sed -n 's/^Server-Timing: //p')
  case $timing in *"sql;count=1") ;; *) echo "bench/rest.sh: $p: $timing, want one statement" >&2; exit 1 ;; esac
done
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
serve   # measured without --trace

ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }   # user + system, in ticks
# dbcpu is PostgreSQL's CPU, in ticks: the postmaster with its reaped children, and its
# live backends (0 for SQLite, whose work is the server's). A process may end between the
# glob and the read: cat's complaint is not an error.
dbcpu() {
  [ "$DB" = postgres ] || { echo 0; return; }
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v pm="$pgpid" '$1 == pm {t += $14 + $15 + $16 + $17} $4 == pm {t += $14 + $15} END {print t + 0}'
}
echo "REST API, sf=$SF, $DB; server on core 0, wrk -t1 on core 1, best of $ROUNDS rounds of ${DURATION}s"
printf '| %-11s | %11s | %7s | %13s | %12s | %14s | %s\n' endpoint connections req/s "server µs/req" "db µs/req" "response bytes" non-2xx
printf '|%s|%s|%s|%s|%s|%s|%s\n' ------------- ------------: --------: --------------: -------------: ---------------: ---------
for i in "${!paths[@]}"; do
  url=$base${paths[$i]}
  bytes=$(curl -s "$url" | wc -c)
  for c in $CONNS_LIST; do
    best=0; best_cpu=0; best_db=0; bad=0
    for _ in $(seq "$ROUNDS"); do
      before=$(cpu); dbefore=$(dbcpu)
      out=$(taskset -c 1 wrk -t1 -c"$c" -d"${DURATION}s" "$url")
      after=$(cpu); dafter=$(dbcpu)
      rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
      total=$(awk '/requests in/ {print $1}' <<<"$out")
      bad=$((bad + $(awk '/Non-2xx/ {print $NF}' <<<"$out" | grep . || echo 0)))
      if awk -v a="$rps" -v b="$best" 'BEGIN {exit !(a > b)}'; then
        best=$rps
        best_cpu=$(awk -v t="$((after - before))" -v k="$ticks" -v n="$total" 'BEGIN {printf "%.0f", t / k / n * 1e6}')
        best_db=$(awk -v t="$((dafter - dbefore))" -v k="$ticks" -v n="$total" 'BEGIN {printf "%.0f", t / k / n * 1e6}')
      fi
    done
    [ "$DB" = postgres ] || best_db="(in server)"
    printf '| %-11s | %11s | %7.0f | %13s | %12s | %14s | %s\n' "${names[$i]}" "$c" "$best" "$best_cpu" "$best_db" "$bytes" "$bad"
  done
done
