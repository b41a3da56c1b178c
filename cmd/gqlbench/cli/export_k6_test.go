package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/runfile"
)

// TestExportK6AgainstGqlbenchServers: the benchmark's own templates,
// exported to k6 and run in k6 against gqlbench's batch server over SQLite
// (every answer right) and its null server (a canned answer: every answer
// wrong), imported into run files that count exactly that. (interop's
// tests run JMeter and Locust too, against servers right and wrong.)
func TestExportK6AgainstGqlbenchServers(t *testing.T) {
	k6 := os.Getenv("GQLBENCH_K6")
	if k6 == "" {
		k6, _ = exec.LookPath("k6")
	}
	if k6 == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("k6 is not installed: set $GQLBENCH_K6 (.ci/run installs it)")
		}
		t.Skip("k6 is not installed: set $GQLBENCH_K6")
	}
	dir := t.TempDir()
	db, meta, q := filepath.Join(dir, "x.db"), filepath.Join(dir, "m.json"), filepath.Join(dir, "q.jsonl")
	if code, _, stderr := run("gen", "--sf", "1", "--db", "sqlite:"+db, "--meta", meta, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run("queries", "--meta", meta, "--per-template", "1", "--expect", "-o", q); code != exitcode.OK {
		t.Fatalf("queries: exit %d, %s", code, stderr)
	}
	script := filepath.Join(dir, "script.js")
	if code, _, stderr := run("export", "k6", "--queries", q, "-o", script); code != exitcode.OK {
		t.Fatalf("export: exit %d, %s", code, stderr)
	}
	for _, c := range []struct {
		variant     string
		right, want int64
	}{{"batch", 32, 0}, {"null", 0, 32}} {
		url, stderr, cancel, exit := startServe(t, "serve", c.variant, "--db", "sqlite:"+db, "--addr", "127.0.0.1:0")
		csv := filepath.Join(dir, c.variant+".csv")
		cmd := exec.Command(k6, "run", "-q", "--address", "", "--vus", "2", "--iterations", "32", "-e", "TARGET="+url, "--out", "csv="+csv, script)
		out, err := cmd.CombinedOutput()
		cancel()
		<-exit
		if err != nil {
			t.Fatalf("k6 against %s: %v\n%s\n%s", c.variant, err, out, stderr)
		}
		runPath := filepath.Join(dir, c.variant+".jsonl")
		if code, _, stderr := run("import", "k6", csv, "--queries", q, "--label", "server="+c.variant, "-o", runPath); code != exitcode.OK {
			t.Fatalf("import: exit %d, %s", code, stderr)
		}
		f, err := runfile.ReadFile(runPath)
		if err != nil {
			t.Fatal(err)
		}
		if s := f.Summary.Total; s.Count != 32 || s.OK != c.right || s.Wrong != c.want || s.Errors != 0 || len(f.Summary.Templates) != 16 {
			t.Errorf("%s: %d requests, %d right, %d wrong, %d errors over %d templates; want 32 requests, %d right, %d wrong",
				c.variant, s.Count, s.OK, s.Wrong, s.Errors, len(f.Summary.Templates), c.right, c.want)
		}
	}
}
