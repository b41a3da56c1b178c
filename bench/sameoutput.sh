#!/usr/bin/env bash
# bench/sameoutput.sh — a change that should alter no behaviour, checked on the outputs users see.
#
# Runs `gqlbench quickstart` and `gqlbench experiment generic --quick` with two builds (OLD and
# NEW: a path to a binary, or a git revision built here), one after the other, and compares
# their run files and reports with bench/sameoutput.py: equal except for measured numbers
# (and where the build or the moment shows: version, host, pids, ports, paths). Exit 0 when
# they are the same; 1 with the differences printed.
#
#   bench/sameoutput.sh main~5 HEAD
#   bench/sameoutput.sh /tmp/gqlbench-old ./gqlbench
#
# Needs: python3; generic --quick starts a throwaway PostgreSQL (initdb, pg_ctl on PATH) and
# PostGraphile from npm, like the experiment itself. A few minutes per build.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { sed -n 2,13p "$0" >&2; exit 2; }
work=$(mktemp -d /tmp/gqlbench-same.XXXXXX)
build() { # build NAME REV-OR-BINARY: a binary named gqlbench in $work/NAME
  mkdir -p "$work/$1"
  if [ -x "$2" ] && [ -f "$2" ]; then cp "$2" "$work/$1/gqlbench"; return; fi
  git worktree add -q --detach "$work/src-$1" "$2"
  (cd "$work/src-$1" && go build -o "$work/$1/gqlbench" ./cmd/gqlbench)
  git worktree remove --force "$work/src-$1"
}
build old "$1"; build new "$2"
for side in old new; do
  echo "sameoutput: $side: quickstart and experiment generic --quick" >&2
  # Each side's results under the same relative path, so the commands recorded are equal.
  (cd "$work/$side" && ./gqlbench quickstart --dir results/qs >qs.out 2>qs.err) || { echo "sameoutput: $side quickstart failed: $work/$side/qs.err" >&2; exit 1; }
  (cd "$work/$side" && ./gqlbench experiment generic --quick --dir results/generic >generic.out 2>generic.err) || { echo "sameoutput: $side generic failed: $work/$side/generic.err" >&2; exit 1; }
done
python3 bench/sameoutput.py "$work/old/results" "$work/new/results" "$work/old/gqlbench" "$work/new/gqlbench"
echo "sameoutput: outputs kept in $work" >&2
