#!/bin/bash
# Makes the real run files of report/testdata: naive and batch on SQLite sf=1,
# one-template and mixed closed runs, sequential passes, and a capacity search.
# Prepare with: go build -o /tmp/gqlbench ./cmd/gqlbench
#   /tmp/gqlbench gen --sf 1 --db sqlite:/tmp/r/db.sqlite
#   /tmp/gqlbench queries --db sqlite:/tmp/r/db.sqlite --per-template 20 --expect -o /tmp/r/q.jsonl
# Then: bash report/testdata/make.sh report/testdata && go test ./report -update
set -e
B=/tmp/gqlbench; D=sqlite:/tmp/r/db.sqlite; Q=/tmp/r/q.jsonl; O=${1:-/tmp/r/out}
mkdir -p $O
port=4101
for s in naive batch; do
  $B serve $s --db $D --addr 127.0.0.1:$port 2>/dev/null & pid=$!
  sleep 0.5
  T=http://127.0.0.1:$port/graphql
  L="--target $T --queries $Q --quiet --watch-pid $pid --label server=$s --label sf=1 --label pool=10"
  $B load $L --templates 3 --duration 1s --runs 3 --interval 500ms -o $O/$s-qt3.jsonl
  $B load $L --templates 5 --duration 1s --runs 3 --interval 500ms -o $O/$s-qt5.jsonl
  $B load $L --templates 3,5,11 --duration 1s --runs 3 --interval 500ms --label workload=mix1 -o $O/$s-mix1.jsonl
  $B load $L --templates 3,5,11 --mode sequential --passes 3 -o $O/$s-seq.jsonl
  kill $pid; wait $pid 2>/dev/null || true
  port=$((port+1))
done
port=4111
for s in batch; do
  $B serve $s --db $D --addr 127.0.0.1:$port 2>/dev/null & pid=$!
  sleep 0.5
  T=http://127.0.0.1:$port/graphql
  L="--target $T --queries $Q --quiet --watch-pid $pid --label server=$s --label sf=1 --label pool=10"
  $B load $L --templates 3 --mode capacity --slo 'p99<20ms' --rate 200 --duration 500ms --max-steps 5 --interval 500ms -o $O/$s-capacity.jsonl || true
  kill $pid; wait $pid 2>/dev/null || true
  port=$((port+1))
done
