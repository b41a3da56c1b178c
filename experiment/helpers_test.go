package experiment_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/cmd/gqlbench/cli"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// gqlbench runs a command line in-process, as cmd/gqlbench would.
func gqlbench(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var out, errw peertest.Buffer
	code = cli.Run(ctx, cli.Env{Args: args, Stdout: &out, Stderr: &errw, Getenv: os.Getenv})
	return code, out.String(), errw.String()
}

// runFiles reads every run file in dir/runs, by base name.
func runFiles(t *testing.T, dir string) map[string]*runfile.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "runs", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*runfile.File{}
	for _, p := range paths {
		schema.CheckFile(t, p)
		f, err := runfile.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".jsonl")] = f
	}
	return out
}

// wantRuns checks that the run files named exist, and no others.
func wantRuns(t *testing.T, runs map[string]*runfile.File, names ...string) {
	t.Helper()
	for _, n := range names {
		if runs[n] == nil {
			t.Errorf("no run file %s.jsonl (have %v)", n, keys(runs))
		}
	}
	if len(runs) != len(names) {
		t.Errorf("%d run files, want %d: %v", len(runs), len(names), keys(runs))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checkLabels checks a run file's labels.
func checkLabels(t *testing.T, name string, f *runfile.File, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := f.Header.Labels[k]; got != v {
			t.Errorf("%s: label %s=%q, want %q (labels %v)", name, k, got, v, f.Header.Labels)
		}
	}
}

// checkCorrect checks that a run completed, verified answers and found no
// wrong one and no error.
func checkCorrect(t *testing.T, name string, f *runfile.File) {
	t.Helper()
	s := f.Summary
	switch {
	case s == nil:
		t.Errorf("%s: no summary", name)
	case s.Status != "ok":
		t.Errorf("%s: status %s: %s", name, s.Status, s.Reason)
	case s.Total.Verified == 0 || s.Total.Wrong != 0 || s.Total.Errors != 0:
		t.Errorf("%s: %d verified, %d wrong, %d errors", name, s.Total.Verified, s.Total.Wrong, s.Total.Errors)
	}
}

// checkGone checks that the servers the run files watched have exited.
func checkGone(t *testing.T, runs map[string]*runfile.File) {
	t.Helper()
	pids := map[int]bool{}
	for name, f := range runs {
		if len(f.Header.Watch) == 0 {
			t.Errorf("%s: the server process was not watched", name)
		}
		for _, w := range f.Header.Watch {
			pids[w.PID] = true
		}
	}
	// A stopped PostgreSQL removes its pid file, which ends pg_ctl's wait,
	// a moment before its postmaster exits: give the processes a while.
	deadline := time.Now().Add(10 * time.Second)
	for pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("watched process %d is still running", pid)
		}
	}
	checkNoChildren(t)
}

// alive reports whether process pid exists (a zombie counts: nobody waited).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// checkNoChildren checks that this process has no child processes left.
func checkNoChildren(t *testing.T) {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	me := strconv.Itoa(os.Getpid())
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == me {
			cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			t.Errorf("child process %s is still there: %s", e.Name(), bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))
		}
	}
}

// checkReport checks that the report files exist and name the runs.
func checkReport(t *testing.T, dir string, mention ...string) {
	t.Helper()
	for _, name := range []string{"report.html", "report.md"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("no %s: %v", name, err)
			continue
		}
		for _, m := range mention {
			if !bytes.Contains(b, []byte(m)) {
				t.Errorf("%s does not mention %q", name, m)
			}
		}
	}
}
