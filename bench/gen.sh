#!/usr/bin/env bash
# bench/gen.sh — dataset generation and loading, measured in one run.
#
# (a) `gqlbench gen --sf $SF --db postgres://...` end to end: generate, binary COPY,
#     primary keys, foreign-key indexes and constraints, ANALYZE, metadata.
#     (a-data) is the part that compares with a plain COPY: from the start until the
#     last row is stored (gqlbench's "keys" progress line).
# (b) a plain `COPY ... FROM` of the very same rows from CSV files (psql \copy, one table
#     after the other, into tables without keys: the fastest a naive loader can be),
#     and (b+) the same plus the keys, indexes and constraints gqlbench builds.
# (c) sf=$BIG into PostgreSQL with the peak RSS of gqlbench, and (d) sf=$SF into SQLite.
# Each timing is the best of $RUNS runs. A throwaway PostgreSQL is started and removed.
#
#   bench/gen.sh              # SF=10 BIG=100 RUNS=3
#   SF=1 BIG=10 bench/gen.sh  # quick
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-10}; BIG=${BIG:-100}; RUNS=${RUNS:-3}
work=$(mktemp -d /tmp/gqlbench-bench.XXXXXX)
chmod 755 "$work"
B=$work/gqlbench
go build -o "$B" ./cmd/gqlbench
export GQLBENCH_PG_DIR=$work/pg
cleanup() { "$B" pg destroy >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
"$B" pg start >/dev/null 2>&1
now() { date +%s.%N; }
best() { # best <command...>: prints the best wall time in seconds over RUNS runs
  local b=""
  for _ in $(seq "$RUNS"); do
    local t0 t1; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
    b=$(echo "$t0 $t1 ${b:-999999}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  echo "$b"
}

GEN=$("$B" pg createdb bench_gen)
COPY=$("$B" pg createdb bench_copy)
rows=$("$B" gen --sf "$SF" --format csv -o "$work/csv" 2>&1 | sed -n 's/.*: \([0-9]*\) rows into.*/\1/p')
grep -E '^CREATE TABLE [A-Za-z]+ \(' "$work/csv/load.sql" > "$work/schema.sql"
{ grep -E '^DROP TABLE' "$work/csv/load.sql"; cat "$work/schema.sql"; } > "$work/reset.sql"
grep -E '^\\copy' "$work/csv/load.sql" > "$work/copy.sql"
grep -E '^(ALTER TABLE|CREATE INDEX)' "$work/csv/load.sql" > "$work/after.sql"; echo "ANALYZE;" >> "$work/after.sql"

t_gen=999999; t_data=999999
for _ in $(seq "$RUNS"); do # the "keys" progress line says when the last row was stored
  t0=$(now); log=$("$B" gen --sf "$SF" --db "$GEN" 2>&1); t1=$(now)
  d=$(echo "$log" | sed -n 's/^gen: keys .* \([0-9.]*\)s$/\1/p')
  t_gen=$(echo "$t0 $t1 $t_gen" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  t_data=$(echo "$d $t_data" | awk '{print ($1<$2)?$1:$2}')
done
plain_copy() { psql -q -X "$COPY" -f "$work/reset.sql" && (cd "$work/csv" && psql -q -X "$COPY" -f "$work/copy.sql"); }
copy_only() { (cd "$work/csv" && psql -q -X "$COPY" -f "$work/copy.sql"); }
# time only the COPY statements: reset outside the timed region
t_copy=999999
for _ in $(seq "$RUNS"); do
  psql -q -X "$COPY" -f "$work/reset.sql" >/dev/null 2>&1
  t0=$(now); copy_only >/dev/null; t1=$(now)
  t_copy=$(echo "$t0 $t1 $t_copy" | awk '{d=$2-$1; print (d<$3)?d:$3}')
done
t0=$(now); psql -q -X "$COPY" -f "$work/after.sql" >/dev/null; t1=$(now)
t_after=$(echo "$t0 $t1" | awk '{print $2-$1}')
t_sqlite=$(best "$B" gen --sf "$SF" --db "sqlite:$work/bench.db" --quiet)

BIGDB=$("$B" pg createdb bench_big)
big=$( { /usr/bin/time -f "TIME %e %M" "$B" gen --sf "$BIG" --db "$BIGDB" --quiet; } 2>&1 | grep '^TIME')
t_big=$(echo "$big" | awk '{print $2}'); rss_big=$(echo "$big" | awk '{printf "%.0f", $3/1024}')

awk -v sf="$SF" -v rows="$rows" -v g="$t_gen" -v gd="$t_data" -v c="$t_copy" -v a="$t_after" -v s="$t_sqlite" \
    -v big="$BIG" -v tb="$t_big" -v rb="$rss_big" 'BEGIN {
  printf "gqlbench bench/gen.sh  sf=%d  rows=%d  (best of runs; %s)\n", sf, rows, strftime("%Y-%m-%d %H:%M")
  printf "%-58s %8.2f s  %9.0f rows/s\n", "(a) gqlbench gen --db postgres (generate+COPY+keys+indexes)", g, rows/g
  printf "%-58s %8.2f s  %9.0f rows/s\n", "(a-data) of which generate + COPY, until the last row is stored", gd, rows/gd
  printf "%-58s %8.2f s  %9.0f rows/s\n", "(b) plain COPY FROM csv (psql \\copy, no keys)", c, rows/c
  printf "%-58s %8.2f s  %9.0f rows/s\n", "(b+) plain COPY + the same keys, indexes, ANALYZE", c+a, rows/(c+a)
  printf "%-58s %8.2f s\n", "(d) gqlbench gen --db sqlite", s
  printf "%-58s %8.2f s  rss %d MB\n", sprintf("(c) gqlbench gen --sf %d --db postgres", big), tb, rb
  printf "rate ratios: (a-data)/(b) %.2f   (a)/(b+) %.2f   (a)/(b) %.2f\n", c/gd, (c+a)/g, c/g
}'
