# bench/revs.sh — sourced by the bench scripts that compare builds (memory.sh,
# server-memory.sh): a work directory removed on exit with the server it started,
# and one gqlbench binary per revision in $REVS ("." is the work tree, anything else
# a commit, built from `git archive` of it).
#
#   work=$(mktemp -d /tmp/gqlbench-NAME.XXXXXX); . bench/revs.sh; build_revs   # from the repository root
#   "$(bin REV)" …; server_pid=$!; … stop_server

server_pid=""
stop_server() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; fi; }
cleanup() { stop_server; rm -rf "$work"; }
trap cleanup EXIT

# bin REV prints the path of REV's binary.
bin() { if [ "$1" = . ]; then echo "$work/gqlbench-wt"; else echo "$work/gqlbench-$1"; fi; }

# build_revs builds every revision of $REVS into $work.
build_revs() {
  local rev
  for rev in $REVS; do
    if [ "$rev" = . ]; then
      go build -o "$(bin .)" ./cmd/gqlbench
    else
      rm -rf "$work/src" && mkdir "$work/src"
      git archive "$rev" | tar -x -C "$work/src"
      (cd "$work/src" && go build -o "$(bin "$rev")" ./cmd/gqlbench)
    fi
  done
}
