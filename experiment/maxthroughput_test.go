package experiment_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestMaxThroughput ramps batch briefly on SQLite: the ramp's run file
// has its result, the verdict line names the throughput, the users, why it
// stopped, the server's CPU and memory and the load generator's share;
// the report has the section.
func TestMaxThroughput(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "max-throughput", "--dir", dir, "--ramp-rate", "20",
		"--max-users", "20", "--duration", "3s", "--slo", "p99<30s", "--warmup", "300ms")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs := runFiles(t, dir)
	wantRuns(t, runs, "mt-batch-warmup", "mt-batch")
	f := runs["mt-batch"]
	checkCorrect(t, "mt-batch", f)
	if r := f.Summary.Ramp; r == nil || r.MaxThroughput <= 0 || r.UsersAtMax < 1 || r.Stop == "" {
		t.Fatalf("ramp summary %+v", f.Summary.Ramp)
	}
	if f.Header.Params.RampRate != 20 || f.Header.Params.MaxClients != 20 || f.Header.Params.ThinkNS != 15e6 {
		t.Errorf("ramp params %+v", f.Header.Params)
	}
	for _, want := range []string{"batch max throughput ", " answers/s at ", "stopped at ", "server CPU ", "heap in use ", "load generator CPU ", "the limit? "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the verdict line lacks %q:\n%s", want, stdout)
		}
	}
	checkReport(t, dir, "Max throughput until failure (seed 003)", "57,919 req/s")
	checkNoChildren(t)
}

// TestMaxThroughputWrongAnswers: a server that answers wrong stops the
// ramp at once, and the experiment fails its check.
func TestMaxThroughputWrongAnswers(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "max-throughput", "--dir", dir, "--variants", "test-wrong",
		"--max-users", "20", "--duration", "3s", "--warmup", "0s")
	if code != exitcode.Check {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitcode.Check, stdout, stderr)
	}
	if !strings.Contains(stdout, "wrong answers at ") {
		t.Errorf("the stop must name the wrong answers:\n%s", stdout)
	}
}

func TestMaxThroughputBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--ramp-rate", "0"}, {"--max-users", "0"}, {"--duration", "0s"}, {"--slo", "p99<"}, {"--max-error-rate", "1"}, {"--think", "-1ms"}, {"--warmup", "-1s"},
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"experiment", "max-throughput", "--dir", t.TempDir()}, args...)...)
		if code != exitcode.Usage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitcode.Usage, stderr)
		}
	}
}
