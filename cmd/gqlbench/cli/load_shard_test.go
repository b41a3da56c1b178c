package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/runfile"
)

// childEnv names the command line a re-executed test binary runs as
// gqlbench (its arguments separated by newlines): the shards of a split
// run are separate processes, as on separate machines.
const childEnv = "GQLBENCH_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Run(ctx, Env{Args: strings.Split(args, "\n"), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	pgtest.Main(m) // the tests' PostgreSQL (gen --target-db), started when first asked for
}

// startChild starts gqlbench args in a process of its own.
func startChild(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\n"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &errb
}

// shardArgs is the command line of shard i of n of an open run.
func shardArgs(url, q, out string, i, n int, start time.Time, duration string) []string {
	return []string{"load", "--target", url, "--queries", q, "--mode", "open", "--rate", "150", "--duration", duration,
		"--runs", "1", "--interval", "250ms", "--seed", "5", "--quiet", "-o", out,
		"--shard", strconv.Itoa(i) + "/" + strconv.Itoa(n), "--start-at", start.UTC().Format(time.RFC3339Nano)}
}

// sends is a file's sends per template: completed and dropped, which
// together are the schedule's sends in the window, whatever the timing.
func sends(f *runfile.File) map[string]int64 {
	out := map[string]int64{}
	for _, iv := range f.Intervals {
		for name, t := range iv.Templates {
			out[name] += t.Count + t.Dropped
		}
	}
	return out
}

// TestLoadShardsMerge: three processes that split an open run, merged, send
// exactly the single process's sends, template by template; each shard
// sends its third of the schedule; the merged file is whole (exit 0).
func TestLoadShardsMerge(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 3, "")
	single := filepath.Join(dir, "single.jsonl")
	if code, _, stderr := run("load", "--target", url, "--queries", q, "--mode", "open", "--rate", "150", "--duration", "1s",
		"--runs", "1", "--interval", "250ms", "--seed", "5", "--quiet", "-o", single); code != exitcode.OK {
		t.Fatalf("single: exit %d: %s", code, stderr)
	}
	start := time.Now().Add(2 * time.Second)
	var files []string
	var cmds []*exec.Cmd
	var errs []*bytes.Buffer
	for i := range 3 {
		out := filepath.Join(dir, "shard"+strconv.Itoa(i)+".jsonl")
		cmd, errb := startChild(t, shardArgs(url, q, out, i, 3, start, "1s")...)
		files, cmds, errs = append(files, out), append(cmds, cmd), append(errs, errb)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("shard %d: %v: %s", i, err, errs[i])
		}
	}
	for i, p := range files {
		f := readRun(t, p)
		if sh := f.Header.Shard; sh == nil || sh.Index != i || sh.Count != 3 || sh.Rate != 150 || f.Header.Params.Rate != 50 {
			t.Errorf("shard %d's header: %+v, rate %v", i, sh, f.Header.Params.Rate)
		}
		var n int64
		for _, k := range sends(f) {
			n += k
		}
		if n != 50 { // sends 3k+i of the 150 due in the window
			t.Errorf("shard %d sent %d, want 50", i, n)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if code, _, stderr := run(append([]string{"load", "merge", "-o", merged}, files...)...); code != exitcode.OK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	m, one := readRun(t, merged), readRun(t, single)
	got, want := sends(m), sends(one)
	if len(want) != 2 || len(got) != len(want) {
		t.Fatalf("merged sends %v, single %v", got, want)
	}
	for name, n := range want {
		if got[name] != n {
			t.Errorf("%s: the merged shards sent %d, the single process %d", name, got[name], n)
		}
	}
	s := m.Summary
	if s.Status != "ok" || s.Shards == nil || !s.Shards.Complete() || len(s.Shards.Merged) != 3 || m.Header.Params.Rate != 150 || m.Header.Shard != nil {
		t.Errorf("merged: status %s %s, shards %+v, rate %v", s.Status, s.Reason, s.Shards, m.Header.Params.Rate)
	}
	if s.Total.Count+s.Total.Dropped != one.Summary.Total.Count+one.Summary.Total.Dropped || s.Total.QET.N != s.Total.Count-s.Total.Errors {
		t.Errorf("merged total %+v, single %+v", s.Total, one.Summary.Total)
	}

	// A shard left out is named, and the merge fails.
	code, _, stderr := run("load", "merge", "-o", merged, files[0], files[2])
	if code != exitcode.Failure || !strings.Contains(stderr, "missing shard(s) 1 of 3") {
		t.Errorf("merge without shard 1: exit %d: %s", code, stderr)
	}
	if m := readRun(t, merged); m.Summary.Status != "incomplete" || !strings.Contains(m.Summary.Reason, "shard 1 of 3 missing") {
		t.Errorf("merged without shard 1: %s: %s", m.Summary.Status, m.Summary.Reason)
	}
	// A shard's file that cannot be read is left out and named.
	code, _, stderr = run("load", "merge", "-o", merged, files[0], filepath.Join(dir, "gone.jsonl"), files[2])
	if code != exitcode.Failure || !strings.Contains(stderr, "left out "+filepath.Join(dir, "gone.jsonl")) || !strings.Contains(stderr, "missing shard(s) 1 of 3") {
		t.Errorf("merge with an unreadable shard: exit %d: %s", code, stderr)
	}
	// Shards of different runs are not merged.
	other := filepath.Join(dir, "other.jsonl")
	if code, _, stderr := run(shardArgs(url, q, other, 1, 3, time.Now().Add(100*time.Millisecond), "300ms")...); code != exitcode.OK {
		t.Fatalf("other run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run("load", "merge", files[0], other); code != exitcode.Failure || !strings.Contains(stderr, "another run") {
		t.Errorf("merge of shards of two runs: exit %d: %s", code, stderr)
	}
	// --shard without a common start, or with a mode it cannot split.
	for _, args := range [][]string{
		{"--mode", "open", "--rate", "10", "--shard", "0/2"},
		{"--mode", "sequential", "--shard", "0/2", "--start-at", "1795766400"},
		{"--mode", "open", "--rate", "10", "--shard", "2/2", "--start-at", "1795766400"},
	} {
		if code, _, stderr := run(append([]string{"load", "--target", url, "--queries", q}, args...)...); code != exitcode.Usage {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// TestLoadShardDies: a shard killed mid-run is reported by the merge — its
// file ends before its summary — and the merge exits 1; what it measured
// before it died is kept.
func TestLoadShardDies(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 3, "")
	start := time.Now().Add(1500 * time.Millisecond)
	var files []string
	var cmds []*exec.Cmd
	for i := range 3 {
		out := filepath.Join(dir, "shard"+strconv.Itoa(i)+".jsonl")
		cmd, _ := startChild(t, shardArgs(url, q, out, i, 3, start, "3s")...)
		files, cmds = append(files, out), append(cmds, cmd)
	}
	// Kill shard 1 once it has written an interval.
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(files[1])
		if bytes.Count(b, []byte("\n")) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("shard 1 wrote no interval")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmds[1].Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmds[1].Wait()
	for _, i := range []int{0, 2} {
		if err := cmds[i].Wait(); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	code, _, stderr := run(append([]string{"load", "merge", "-o", merged}, files...)...)
	if code != exitcode.Failure || !strings.Contains(stderr, "shard 1: the file ends before its summary line") {
		t.Fatalf("merge with a dead shard: exit %d: %s", code, stderr)
	}
	m := readRun(t, merged)
	s := m.Summary
	if s.Status != "incomplete" || s.Shards == nil || len(s.Shards.Failed) != 1 || len(s.Shards.Merged) != 3 || !strings.Contains(s.Reason, "file 2") {
		t.Errorf("merged: %s (%s), shards %+v", s.Status, s.Reason, s.Shards)
	}
	var dead int64
	for _, n := range sends(readRun(t, files[1])) {
		dead += n
	}
	if dead == 0 {
		t.Error("the dead shard's measurements are lost")
	}
}

// TestLoadShardsClosed: two processes split 5 closed clients: shard i runs
// clients i, i+2, ... (their numbers in the records), and the merged run
// has the 5 clients.
func TestLoadShardsClosed(t *testing.T) {
	dir := t.TempDir()
	url, q := graphqlServer(t), writeQueries(t, dir, 3, "")
	start := time.Now().Add(1500 * time.Millisecond)
	var files []string
	var cmds []*exec.Cmd
	for i := range 2 {
		out := filepath.Join(dir, "shard"+strconv.Itoa(i)+".jsonl")
		cmd, _ := startChild(t, "load", "--target", url, "--queries", q, "--mode", "closed", "--clients", "5", "--duration", "400ms",
			"--runs", "2", "--interval", "200ms", "--quiet", "-o", out, "--records", out+".csv",
			"--shard", strconv.Itoa(i)+"/2", "--start-at", start.UTC().Format(time.RFC3339Nano))
		files, cmds = append(files, out), append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		b, err := os.ReadFile(files[i] + ".csv")
		if err != nil {
			t.Fatal(err)
		}
		clients := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			clients[strings.SplitN(l, ",", 2)[0]] = true
		}
		want := map[int]string{0: "0 2 4", 1: "1 3"}[i]
		for _, c := range strings.Fields(want) {
			if !clients[c] {
				t.Errorf("shard %d: client %s sent nothing (clients %v)", i, c, clients)
			}
		}
		if len(clients) != len(strings.Fields(want)) {
			t.Errorf("shard %d ran clients %v, want %s", i, clients, want)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if code, _, stderr := run(append([]string{"load", "merge", "-o", merged}, files...)...); code != exitcode.OK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	m := readRun(t, merged)
	if m.Header.Params.Clients != 5 || m.Intervals[0].Users != 5 || m.Summary.Shards == nil || !m.Summary.Shards.Complete() {
		t.Errorf("merged: %d clients, %d users, shards %+v", m.Header.Params.Clients, m.Intervals[0].Users, m.Summary.Shards)
	}
}
