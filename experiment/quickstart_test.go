package experiment_test

import (
	"context"
	"github.com/gqlbench/gqlbench/server/peer/peertest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/experiment"
)

// TestQuickstart runs the command end to end with two variants and two
// templates: a run file per variant and template plus the null server's,
// labelled, every answer verified and right, the report written, the
// summary on stdout, and no server left running.
func TestQuickstart(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "quickstart", "--dir", dir, "--duration", "200ms",
		"--variants", "naive,batch", "--templates", "3,5", "--per-template", "5")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs := runFiles(t, dir)
	wantRuns(t, runs, "naive-QT03", "naive-QT05", "batch-QT03", "batch-QT05", "null-typename")
	for _, v := range []string{"naive", "batch"} {
		for _, tm := range []string{"QT3", "QT5"} {
			name := v + "-QT0" + tm[2:]
			f := runs[name]
			if f == nil {
				continue
			}
			checkLabels(t, name, f, map[string]string{"server": v, "sf": "1", "pool": "10", "clients": "1", "workload": tm, "db": "sqlite"})
			checkCorrect(t, name, f)
			if f.Header.Params.Runs != 1+experiment.QuickstartMeasuredRuns || f.Header.Params.DurationNS != int64(200*time.Millisecond) || f.Header.Mode != "closed" {
				t.Errorf("%s: mode %s, %d runs of %v; want closed, a warm-up and 3 measured runs of 200ms", name,
					f.Header.Mode, f.Header.Params.Runs, time.Duration(f.Header.Params.DurationNS))
			}
			if got := f.Header.Queries.Templates; len(got) != 1 || got[0] != tm {
				t.Errorf("%s: templates %v, want %s alone", name, got, tm)
			}
		}
	}
	if f := runs["null-typename"]; f != nil {
		checkLabels(t, "null-typename", f, map[string]string{"server": "null", "role": "ceiling"})
		checkCorrect(t, "null-typename", f)
	}
	checkGone(t, runs)
	checkReport(t, dir, "naive", "batch", "QT5")
	for _, want := range []string{"naive", "batch", "QT3", "report: " + filepath.Join(dir, "report.html")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"server naive: pid", "naive QT3", "batch QT5"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks the progress line %q:\n%s", want, stderr)
		}
	}
	for _, sub := range []string{"queries/sf1.jsonl", "logs/naive-sf1.log", "sf1-seed0.db"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("no %s: %v", sub, err)
		}
	}
}

// TestServerDies: a server whose process exits mid-run (test-crash, after
// a few dozen answers) ends its variant with an error that quotes the
// tail of its log; the run file of the run it died in is kept with what was
// measured, the other variant runs, the report is written, nothing is left
// running, and the exit code is 1.
func TestServerDies(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "quickstart", "--dir", dir, "--duration", "300ms",
		"--variants", "test-crash,naive", "--templates", "3,5", "--per-template", "5", "--ceiling=false")
	if code != exitcode.Failure {
		t.Errorf("exit %d, want %d (a server died)\nstderr:\n%s", code, exitcode.Failure, stderr)
	}
	for _, want := range []string{"server test-crash (pid", "died", crashMessage, "test-crash QT3", "keeps what was measured"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	runs := runFiles(t, dir)
	wantRuns(t, runs, "test-crash-QT03", "naive-QT03", "naive-QT05")
	if f := runs["test-crash-QT03"]; f != nil {
		// it died in the warm-up run or the measured one, as fast as the
		// machine let it answer its 30 requests: either run kept its count
		answered := int64(0)
		if f.Summary != nil {
			for _, r := range f.Summary.Runs {
				answered += r.Count
			}
		}
		if f.Summary == nil || f.Summary.Status == "ok" || answered == 0 {
			t.Errorf("the crashed run's file: %+v", f.Summary)
		}
	}
	for _, name := range []string{"naive-QT03", "naive-QT05"} {
		if f := runs[name]; f != nil {
			checkCorrect(t, name, f)
		}
	}
	checkGone(t, runs)
	checkReport(t, dir, "test-crash")
	if !strings.Contains(stdout, "report: ") {
		t.Errorf("stdout does not say where the report is:\n%s", stdout)
	}
}

// TestWrongAnswers: a variant that answers wrong runs to the end like the
// others; the report is written and flags it, and the exit code is 3.
func TestWrongAnswers(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "quickstart", "--dir", dir, "--duration", "200ms",
		"--variants", "test-wrong,naive", "--templates", "3", "--per-template", "5", "--ceiling=false")
	if code != exitcode.Check {
		t.Errorf("exit %d, want %d (wrong answers)\nstderr:\n%s", code, exitcode.Check, stderr)
	}
	if !strings.Contains(stderr, "test-wrong QT3") || !strings.Contains(stderr, "wrong answers") {
		t.Errorf("stderr does not name the failed check:\n%s", stderr)
	}
	runs := runFiles(t, dir)
	wantRuns(t, runs, "test-wrong-QT03", "naive-QT03")
	if f := runs["test-wrong-QT03"]; f != nil && (f.Summary == nil || f.Summary.Total.Wrong == 0 || f.Summary.Total.Wrong != f.Summary.Total.Verified) {
		t.Errorf("test-wrong: %+v", f.Summary)
	}
	if f := runs["naive-QT03"]; f != nil {
		checkCorrect(t, "naive-QT03", f)
	}
	checkGone(t, runs)
	checkReport(t, dir, "test-wrong", "Check failed")
	if !strings.Contains(stdout, "report: ") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestInterrupted: cancelling the context (Ctrl-C) mid-experiment stops
// the servers, keeps the run files measured so far and reports them.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Interrupt once the first run file is complete (has a summary).
		for ctx.Err() == nil {
			if f, err := os.ReadFile(filepath.Join(dir, "runs", "naive-QT03.jsonl")); err == nil && strings.Contains(string(f), `"type":"summary"`) {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	log := &peertest.Buffer{}
	res, err := experiment.Quickstart{
		Common:   experiment.Common{Dir: dir, Pin: true, Log: log},
		Variants: []string{"naive", "batch"}, Templates: []int{3, 5, 8}, Duration: 300 * time.Millisecond, PerTemplate: 5,
	}.Run(ctx)
	if err == nil || ctx.Err() == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("err %v (context: %v), want the interruption\n%s", err, ctx.Err(), log)
	}
	runs := runFiles(t, dir)
	if runs["naive-QT03"] == nil || len(runs) >= 6 || res == nil || len(res.Runs) != len(runs) {
		t.Errorf("after the interruption: run files %v, result %+v", keys(runs), res)
	}
	checkGone(t, runs)
	checkReport(t, dir, "naive")
}

// TestQuickstartUsage: bad command lines are usage errors that say what is
// wrong, before anything runs.
func TestQuickstartUsage(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"--variants nope", `unknown variant "nope"`},         // not a variant
		{"--variants null", "canned"},                         // null cannot be verified
		{"--variants naive,naive", "twice"},                   // duplicate
		{"--templates 17", "--templates"},                     // no such template
		{"--duration 0s", "--duration must be positive"},      // no run
		{"--sf 0", "scale factor must be a positive integer"}, // no dataset
		{"--per-template 0", "--per-template and --pool"},     // no instance
		{"--timeout -1s", "--timeout must be positive"},       // no request
		{"extra", `unexpected argument "extra"`},              // positional
		{"--dir", "flag needs an argument"},                   // missing value
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"quickstart"}, strings.Fields(c.args)...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("quickstart %s: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitcode.Usage, c.want)
		}
	}
}
