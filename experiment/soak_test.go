package experiment_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// soakArgs are a soak of a few seconds.
func soakArgs(dir string, more ...string) []string {
	return append([]string{"experiment", "soak", "--dir", dir, "--users", "4", "--requests", "400", "--think", "20ms",
		"--warmup", "500ms", "--settle", "1s", "--sample", "50ms"}, more...)
}

// TestSoakClean: a server without a leak gets "leak: no", is back at its
// baseline after the load, and its interval lines carry the runtime's
// metrics. The threshold (1 GB/h, far above what a clean server's live heap
// of a few MiB can drift in seconds, far below the injected leak of
// TestSoakLeak) keeps a short, noisy run from failing by chance; the
// verdict's false-positive rate on clean series is report's test.
func TestSoakClean(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), soakArgs(dir, "--min-leak-rate", "1e9")...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "batch leak: no ") || !strings.Contains(stdout, "back to the pre-test state: yes") {
		t.Errorf("want one verdict line, leak: no, back to the pre-test state:\n%s", stdout)
	}
	runs := runFiles(t, dir)
	wantRuns(t, runs, "soak-batch-warmup", "soak-batch")
	for name, f := range runs {
		checkCorrect(t, name, f)
		n := 0
		for _, iv := range f.Intervals {
			for _, p := range iv.Procs {
				if p.Runtime != nil && p.Runtime.Error == "" && p.Runtime.HeapLiveBytes > 0 && p.Runtime.GCCycles > 0 {
					n++
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no interval carries the server's runtime metrics", name)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "soak-batch-memory.jsonl")); err != nil || !strings.Contains(string(b), `"phase":"settle"`) || !strings.Contains(string(b), `"forced_gc":true`) {
		t.Errorf("the memory timeline lacks the settle period or the forced readings (%v)", err)
	}
	checkReport(t, dir, "Memory soak (seed 003)", "leak: no", "batch: memory over time")
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Errorf("no report.json: %v", err)
	}
	checkNoChildren(t)
}

// TestSoakLeak: a server that keeps 16 KiB per request is found leaking,
// and not back at its baseline; the experiment fails its check (exit 3).
func TestSoakLeak(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), soakArgs(dir, "--leak-bytes-per-request", "16384", "--min-leak-rate", "1e9")...)
	if code != exitcode.Check {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitcode.Check, stdout, stderr)
	}
	if !strings.Contains(stdout, "batch leak: yes +") || !strings.Contains(stdout, "back to the pre-test state: no") {
		t.Errorf("want leak: yes with its slope, not back to the baseline:\n%s", stdout)
	}
	checkReport(t, dir, "leak: yes")
}

func TestSoakBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--users", "0"}, {"--requests", "0"}, {"--think", "0s"}, {"--fit-from", "1"}, {"--level", "1.5"}, {"--variants", "rest"}, {"--sample", "1ms"},
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"experiment", "soak", "--dir", t.TempDir()}, args...)...)
		if code != exitcode.Usage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitcode.Usage, stderr)
		}
	}
}
