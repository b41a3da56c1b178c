package experiment_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/experiment"
	"github.com/gqlbench/gqlbench/server/peer/node"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
	"github.com/gqlbench/gqlbench/server/peer/postgraphile"
)

// installPeers installs PostGraphile and the Node variants (once per
// machine), or skips outside CI when they cannot be.
func installPeers(t *testing.T) {
	peertest.Install(t, postgraphile.Package)
	peertest.Install(t, node.Package())
}

// TestGeneric runs §6.4 on a throwaway PostgreSQL: compiled, PostGraphile
// in its dialect and node-batch, every answer mapped back and verified, the
// statements per request counted by the database for each. Runs of a
// second: at a load average of 25 a run of 200 ms measured a single
// PostGraphile request, too few for a statements-per-request figure.
func TestGeneric(t *testing.T) {
	installPeers(t)
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "generic", "--dir", dir, "--sf", "1",
		"--variants", "compiled,postgraphile,node-batch", "--templates", "3,10,16", "--duration", "1s", "--runs", "2", "--per-template", "5")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files := runFiles(t, dir)
	for _, v := range []string{"compiled", "postgraphile", "node-batch"} {
		for _, tm := range []string{"QT03", "QT10", "QT16"} {
			name := fmt.Sprintf("generic-sf1-%s-%s-c1", v, tm)
			f := files[name]
			if f == nil {
				t.Fatalf("no run file %s (have %d)", name, len(files))
			}
			s := f.Summary
			if s.Total.Count == 0 || s.Total.Wrong != 0 || s.Total.Errors != 0 || s.Total.Verified != s.Total.Count {
				t.Errorf("%s: %+v", name, s.Total)
			}
			if s.Statements == nil || s.Statements.PerRequest < 1 {
				t.Errorf("%s: statements %+v: the database counted none", name, s.Statements)
			}
		}
	}
	// compiled and PostGraphile send one statement per request, whatever the template
	for _, v := range []string{"compiled", "postgraphile"} {
		if st := files["generic-sf1-"+v+"-QT03-c1"].Summary.Statements; st.PerRequest != 1 {
			t.Errorf("%s QT3: %.2f statements per request, want 1", v, st.PerRequest)
		}
	}
	checkReport(t, dir, "postgraphile", "node-batch", "SQL stmts/req")
	q, _ := os.ReadFile(filepath.Join(dir, "queries", "sf1-generic-postgraphile.jsonl"))
	if !strings.Contains(string(q), `"dialect":"postgraphile"`) {
		t.Error("the PostGraphile queries are not in its dialect")
	}
}

// TestGenericTarget measures a server given by URL, in the benchmark's
// schema, on a dataset of the same scale factor and seed; bad settings are
// usage errors.
func TestGenericTarget(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "target.db")
	if code, _, stderr := gqlbench(context.Background(), "gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatal(stderr)
	}
	srv, err := experiment.StartServer(context.Background(), experiment.ServerSpec{Exe: os.Args[0], Variant: "batch", DB: db, Pool: 2, CPU: -1, LogPath: filepath.Join(dir, "target.log")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	out := filepath.Join(dir, "out")
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "generic", "--dir", out, "--db", "sqlite", "--sf", "1",
		"--variants", "", "--target", srv.URL, "--target-name", "mine", "--templates", "2,11", "--duration", "200ms", "--runs", "2", "--per-template", "5")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files := runFiles(t, out)
	for _, name := range []string{"generic-sf1-mine-QT02-c1", "generic-sf1-mine-QT11-c1"} {
		f := files[name]
		if f == nil || f.Summary.Total.Wrong != 0 || f.Summary.Total.Verified == 0 {
			t.Fatalf("%s: %+v", name, f)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--variants", "batch", "--dialect", "postgraphile"}, "--dialect is the dialect of --target"},
		{[]string{"--variants", ""}, "nothing to measure"},
		{[]string{"--target", "localhost:4000"}, "want an http:// or https:// URL"},
		{[]string{"--target", srv.URL, "--dialect", "hasura"}, "--dialect"},
		{[]string{"--variants", "rest"}, "rest cannot answer the templates"},
		{[]string{"--variants", "node-batch", "--db", "sqlite"}, "PostgreSQL only"},
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"experiment", "generic", "--dir", filepath.Join(dir, "bad")}, c.args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want a usage error with %q", c.args, code, stderr, c.want)
		}
	}
}
