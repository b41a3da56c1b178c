package experiment_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// subsArgs are a subscription load of a few seconds.
func subsArgs(dir string, more ...string) []string {
	return append([]string{"experiment", "subscriptions", "--dir", dir, "--subscribers", "10", "--per-subscriber", "2",
		"--publish-rate", "5", "--duration", "1s", "--warmup", "10s", "--settle", "2s"}, more...)
}

// TestSubscriptionsExperiment: batch serves subscriptions, its run is
// valid, its latency judged against the SLO and its run file and report
// written; compiled serves none and is passed by with the reason, not
// failed. A lenient SLO passes (exit 0), an impossible one fails the
// check (exit 3) with the run still valid.
func TestSubscriptionsExperiment(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), subsArgs(dir, "--variants", "batch,compiled", "--slo", "p99<1m")...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"batch valid run: lost 0, duplicates 0, out of order 0 (threshold 0 of each): PASS",
		"batch delivery latency: p99 ", "(threshold p99<1m0s): PASS (10 × 2 at 5/s;",
		"batch generator bytes per subscriber: ", ": INFO", // 10 subscribers: shown, not judged
		"compiled subscriptions: not measured", "compiled serves no subscriptions", ": N/A",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	runs := runFiles(t, dir)
	wantRuns(t, runs, "subs-batch")
	if f := runs["subs-batch"]; f != nil {
		s := f.Summary.Subscription
		if s == nil || !s.Valid || s.Delivered == 0 || s.Delivered != s.Expected || f.Header.Labels["server"] != "batch" {
			t.Errorf("the run file's account: %+v, labels %v", s, f.Header.Labels)
		}
	}
	checkReport(t, dir, "Subscriptions under load: verdicts", "compiled serves no subscriptions", "delivery latency")
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || !json.Valid(b) {
		t.Errorf("report.json: %v, valid JSON %v", err, json.Valid(b))
	}
	checkNoChildren(t)

	dir = t.TempDir()
	code, stdout, stderr = gqlbench(context.Background(), subsArgs(dir, "--slo", "p99<1us")...)
	if code != exitcode.Check {
		t.Fatalf("an impossible SLO: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitcode.Check, stdout, stderr)
	}
	if !strings.Contains(stdout, "(threshold p99<1µs): FAIL") || !strings.Contains(stdout, "out of order 0 (threshold 0 of each): PASS") {
		t.Errorf("want the latency failed and the run valid:\n%s", stdout)
	}
}

// TestSubscriptionsOnlyWithout: a run whose every variant serves no
// subscriptions ends without a report and without an error, saying why.
func TestSubscriptionsOnlyWithout(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), subsArgs(dir, "--variants", "compiled")...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "compiled serves no subscriptions") || !strings.Contains(stderr, "no report: no variant serves subscriptions") {
		t.Errorf("want the reason:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

func TestSubscriptionsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--subscribers", "0"}, {"--per-subscriber", "101"}, {"--publish-rate", "0"}, {"--slo", "p99"}, {"--protocol", "x"}, {"--max-bytes-per-subscriber", "0"},
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"experiment", "subscriptions", "--dir", t.TempDir()}, args...)...)
		if code != exitcode.Usage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitcode.Usage, stderr)
		}
	}
}
