package experiment_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/experiment"
)

// tinySuite are settings that make every part of the suite a few seconds.
var tinySuite = []string{
	"--set", "overhead.scale=0.01", "--set", "overhead.duration=1s", "--set", "overhead.warmup=500ms", "--set", "overhead.runs=1",
	"--set", "max-throughput.duration=2s", "--set", "max-throughput.warmup=300ms",
	"--set", "soak.users=4", "--set", "soak.requests=150", "--set", "soak.think=20ms", "--set", "soak.warmup=500ms", "--set", "soak.settle=1s", "--set", "soak.sample=50ms",
	"--set", "subscriptions.subscribers=10", "--set", "subscriptions.duration=1s", "--set", "subscriptions.publish-rate=5", "--set", "subscriptions.settle=2s",
}

// lenient are thresholds no tiny run on a busy machine can break but by a
// defect: the verdicts are judged, the exit code is not left to noise.
const lenient = "cpu-increase>100,gc-increase>100,throughput-drop>99,leak-rate>1000000,delivery-p99>1m,bytes-per-subscriber>1GB,peak<1"

// suiteReport is the part of the suite's report.json the tests read.
type suiteReport struct {
	Variant  string                 `json:"variant"`
	Verdict  string                 `json:"verdict"`
	Parts    []experiment.SuitePart `json:"parts"`
	Verdicts []experiment.Verdict   `json:"verdicts"`
}

func readSuiteReport(t *testing.T, dir string) suiteReport {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r suiteReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	return r
}

// TestSuite: the whole suite for one variant on tiny settings: every part
// runs, writes its own report in its directory and has rows in the one
// table, on the terminal and in report.html, .md and .json; thresholds
// that only a defect breaks pass (exit 0), and the threshold the suite
// judges itself (peak) is applied.
func TestSuite(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), append([]string{"suite", "batch", "--dir", dir, "--fail-if", lenient}, tinySuite...)...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, part := range experiment.SuiteParts {
		if !strings.Contains(stdout, "\n"+part+" ") {
			t.Errorf("the table has no row of %s:\n%s", part, stdout)
		}
		if _, err := os.Stat(filepath.Join(dir, part, "report.html")); err != nil {
			t.Errorf("%s wrote no report of its own: %v", part, err)
		}
	}
	if !strings.Contains(stdout, "\nPASS: ") || strings.Contains(stdout, "FAIL") {
		t.Errorf("want every verdict passed:\n%s", stdout)
	}
	r := readSuiteReport(t, dir)
	if r.Variant != "batch" || r.Verdict != "pass" || len(r.Parts) != len(experiment.SuiteParts) {
		t.Errorf("report.json: variant %q, verdict %q, %d parts", r.Variant, r.Verdict, len(r.Parts))
	}
	seen := map[string]bool{}
	for _, v := range r.Verdicts {
		seen[v.Part] = true
		if v.Result != experiment.Pass && v.Result != experiment.NA && v.Result != experiment.Info {
			t.Errorf("verdict %s", v.Text())
		}
		if v.Metric == "peak" && (v.Result != experiment.Pass || v.Threshold != "≥ 1") {
			t.Errorf("peak<1 is not applied: %s", v.Text())
		}
	}
	for _, part := range experiment.SuiteParts {
		if !seen[part] {
			t.Errorf("report.json has no verdict of %s", part)
		}
	}
	for _, m := range []string{"leak-rate", "delivery-p99", "cpu-increase", "throughput-drop", "wrong"} {
		if !containsMetric(r.Verdicts, m) {
			t.Errorf("no verdict on %s", m)
		}
	}
	checkReport(t, dir, "gqlbench suite batch", "PASS: ", "max-throughput", "subscriptions", "delivery latency")
	checkNoChildren(t)
}

func containsMetric(vs []experiment.Verdict, m string) bool {
	for _, v := range vs {
		if v.Metric == m {
			return true
		}
	}
	return false
}

// TestSuiteFailIf: an impossible threshold fails its verdict and the
// suite exits with the threshold's code (3), the report saying so.
func TestSuiteFailIf(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), append([]string{"suite", "batch", "--dir", dir, "--parts", "max-throughput", "--fail-if", "peak<1000000000"}, tinySuite...)...)
	if code != exitcode.Check {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitcode.Check, stdout, stderr)
	}
	if !strings.Contains(stdout, "≥ 1000000000") || !strings.Contains(stdout, "FAIL: ") {
		t.Errorf("want the peak's row failed:\n%s", stdout)
	}
	if r := readSuiteReport(t, dir); r.Verdict != "fail" {
		t.Errorf("report.json's verdict %q", r.Verdict)
	}
	checkReport(t, dir, "FAIL: ")
}

// TestSuitePartFails: a part whose server dies is a failed row with the
// error, the parts after it still run, and the suite exits 1 (it could
// not measure), its table written.
func TestSuitePartFails(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), append([]string{"suite", "test-crash", "--dir", dir, "--parts", "max-throughput,subscriptions", "--fail-if", lenient}, tinySuite...)...)
	if code != exitcode.Failure {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitcode.Failure, stdout, stderr)
	}
	r := readSuiteReport(t, dir)
	var failed, after bool
	for _, v := range r.Verdicts {
		failed = failed || v.Part == "max-throughput" && v.Measure == "run" && v.Result == experiment.Fail && strings.Contains(v.Detail, "test-crash")
		after = after || v.Part == "subscriptions" && v.Result == experiment.NA && strings.Contains(v.Detail, "serves no subscriptions")
	}
	if !failed || !after {
		t.Errorf("want max-throughput's run failed with its error and subscriptions still run (n/a): %+v\nstdout:\n%s", r.Verdicts, stdout)
	}
	if len(r.Parts) != 2 || r.Parts[0].Error == "" {
		t.Errorf("parts %+v", r.Parts)
	}
	checkNoChildren(t)
}

func TestSuiteBadInput(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nosuch"},
		{"null"},
		{"batch", "naive"},
		{"node-batch"}, // a peer on SQLite
		{"batch", "--parts", "overhead,nosuch"},
		{"batch", "--fail-if", "peak>5"},
		{"batch", "--fail-if", "nosuch>5"},
		{"batch", "--fail-if", "delivery-p99>fast"},
		{"batch", "--set", "soak.nosuch=1"},
		{"batch", "--set", "nosuch.requests=1"},
		{"batch", "--set", "soak.users=0"},
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"suite", "--dir", t.TempDir()}, args...)...)
		if code != exitcode.Usage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitcode.Usage, stderr)
		}
	}
}
