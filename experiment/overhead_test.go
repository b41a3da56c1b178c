package experiment_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestOverhead runs the experiment with tiny settings on SQLite: the
// GraphQL endpoint and the REST control of one process, at the matched
// rate and at the seed's, every answer of both verified; the verdict lines
// and the report's table. The thresholds are wide, so that the noise of a
// second's run cannot fail it.
func TestOverhead(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "overhead", "--dir", dir, "--scale", "0.01", "--duration", "1s",
		"--warmup", "300ms", "--runs", "2", "--max-cpu-increase", "100", "--max-gc-increase", "100", "--max-throughput-drop", "99")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs := runFiles(t, dir)
	var names []string
	for _, api := range []string{"graphql", "rest"} {
		names = append(names, "ovh-batch-"+api+"-warmup", "ovh-batch-"+api+"-matched-r1", "ovh-batch-"+api+"-matched-r2")
	}
	for _, r := range []string{"1", "2"} {
		names = append(names, "ovh-batch-rest-seed-r"+r, "ovh-batch-graphql-closed-r"+r, "ovh-batch-rest-closed-r"+r)
	}
	wantRuns(t, runs, names...)
	for name, f := range runs {
		checkCorrect(t, name, f)
		if f.Summary.Templates["one-read"] == nil || f.Summary.Templates["one-write"] == nil {
			t.Errorf("%s: want the querying and the mutating users: %v", name, keys(f.Summary.Templates))
		}
		switch p := f.Header.Params; {
		case strings.Contains(name, "matched"): // the same arrivals: open loop at the rate the warm-ups set
			if f.Header.Mode != "open" || p.Rate <= 0 || p.Rate != runs["ovh-batch-graphql-matched-r1"].Header.Params.Rate {
				t.Errorf("%s: mode %s at %v/s: want open loop, one rate for both APIs", name, f.Header.Mode, p.Rate)
			}
		case p.Clients != 6 || p.ThinkNS != 30e6 && !strings.Contains(name, "seed"):
			t.Errorf("%s: %d clients, think %d ns", name, p.Clients, p.ThinkNS)
		}
		if strings.Contains(name, "seed") && f.Header.Params.ThinkNS != 15e6 {
			t.Errorf("%s: the seed's REST think time is 15ms, got %d ns", name, f.Header.Params.ThinkNS)
		}
		if pid := f.Header.Watch[0].PID; pid != runs["ovh-batch-graphql-matched-r1"].Header.Watch[0].PID {
			t.Errorf("%s: server pid %d: REST and GraphQL must share one process", name, pid)
		}
	}
	for _, want := range []string{"batch matched CPU: ", "batch matched GC time: ", "batch closed throughput: ", "batch seed throughput: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no verdict line %q:\n%s", want, stdout)
		}
	}
	checkReport(t, dir, "GraphQL overhead over a REST control (seed 003)", "batch: GraphQL against REST at the same arrival rate", "37,490 req/s")
	checkNoChildren(t)
}

func TestOverheadBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--scale", "0"}, {"--scale", "2"}, {"--runs", "0"}, {"--duration", "0s"}, {"--max-throughput-drop", "100"}, {"--variants", "null"}, {"--variants", "rest"},
	} {
		code, _, stderr := gqlbench(context.Background(), append([]string{"experiment", "overhead", "--dir", t.TempDir()}, args...)...)
		if code != exitcode.Usage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitcode.Usage, stderr)
		}
	}
}
