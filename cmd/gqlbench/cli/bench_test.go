package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/enginebench"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
)

// TestBenchEngine: bench engine writes its engine file (valid against its
// schema, a checked result per engine, shape and phase) and the three
// reports; report renders the file again and compares it with itself
// without a significant difference.
func TestBenchEngine(t *testing.T) {
	peertest.Install(t, enginebench.NodePackage())
	dir := t.TempDir()
	code, stdout, stderr := run("bench", "engine", "--samples", "2", "--sample-time", "1ms", "--warmup", "1ms",
		"--shapes", "one-object,list-10,introspection,QT3", "-o", dir)
	if code != exitcode.OK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	path := filepath.Join(dir, "engine.jsonl")
	schema.CheckEngineFile(t, path)
	f, err := runfile.ReadEngineFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// gqlgen 3 phases × 4 shapes, compiled 2 × 3 (no introspection),
	// graphql-js 3 × 4, graphql-jit 2 × 4.
	if len(f.Results) != 12+6+12+8 {
		t.Errorf("%d results", len(f.Results))
	}
	for _, r := range f.Results {
		if !r.Checked || len(r.Samples) != 2 {
			t.Errorf("%+v", r)
		}
	}
	for _, name := range []string{"report.html", "report.md", "report.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), "list-10") {
			t.Errorf("%s: %v", name, err)
		}
	}
	code, stdout, stderr = run("report", path, path, "--format", "md")
	if code != exitcode.OK || !strings.Contains(stdout, "Comparison with") || !strings.Contains(stderr, "0 of 38 differences significant") {
		t.Errorf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestBenchEngineUsage: wrong command lines are usage errors that say
// what is known; a run file and an engine file do not mix in a report.
func TestBenchEngineUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench"},
		{"bench", "engines"},
		{"bench", "engine", "--engines", "graphql-go", "-o", t.TempDir()},
		{"bench", "engine", "--samples", "-1", "-o", t.TempDir()},
	} {
		if code, _, stderr := run(args...); code != exitcode.Usage {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	dir := t.TempDir()
	code, _, stderr := run("bench", "engine", "--engines", "gqlgen", "--shapes", "one-object", "--samples", "1",
		"--sample-time", "1ms", "--warmup", "0s", "-o", dir)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	runFile := reportFixtures(t)[0]
	if code, _, stderr := run("report", filepath.Join(dir, "engine.jsonl"), runFile); code == exitcode.OK || !strings.Contains(stderr, "cannot be reported together") {
		t.Errorf("mixed files: exit %d: %s", code, stderr)
	}
}
