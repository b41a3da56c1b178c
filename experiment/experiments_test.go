package experiment_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/runfile"
)

// optimizationsArgs are tiny parameters: two variants, two templates, two
// mixes, aQETq at two scale factors.
var optimizationsArgs = []string{"experiment", "optimizations", "--sf", "1,2", "--variants", "naive,batch", "--templates", "3,5",
	"--duration", "200ms", "--runs", "2", "--per-template", "5", "--mixes", "2", "--mix-per", "3", "--mix-duration", "200ms",
	"--seq-queries", "2", "--passes", "2"}

// checkOptimizations checks the run files of optimizationsArgs.
func checkOptimizations(t *testing.T, dir, db string) {
	t.Helper()
	runs := runFiles(t, dir)
	var names []string
	for _, v := range []string{"naive", "batch"} {
		names = append(names, "atpt-sf1-"+v+"-QT03", "atpt-sf1-"+v+"-QT05", "atpm-sf1-"+v+"-mix1", "atpm-sf1-"+v+"-mix2",
			"aqetq-sf1-"+v, "aqetq-sf2-"+v)
	}
	wantRuns(t, runs, names...)
	for name, f := range runs {
		checkCorrect(t, name, f)
		part := strings.Split(name, "-")
		want := map[string]string{"server": part[2], "sf": strings.TrimPrefix(part[1], "sf"), "pool": "10", "clients": "1", "db": db}
		switch part[0] {
		case "atpt":
			want["workload"] = "QT" + strings.TrimPrefix(part[3], "QT0")
			if f.Header.Mode != "closed" || f.Header.Params.Runs != 2 {
				t.Errorf("%s: %s, %d runs; want closed, 2 runs", name, f.Header.Mode, f.Header.Params.Runs)
			}
		case "atpm":
			want["workload"] = part[3]
			if got := f.Header.Queries.Templates; len(got) != 2 || f.Header.Params.Runs != 1 {
				t.Errorf("%s: templates %v, %d runs; want QT3 and QT5 mixed, one run", name, got, f.Header.Params.Runs)
			}
		case "aqetq":
			want["server"] = part[2]
			if f.Header.Mode != "sequential" || f.Header.Params.Passes != 2 || len(f.Queries) != 4 {
				t.Errorf("%s: %s, %d passes, %d query lines; want sequential, 2 passes, 4 queries", name, f.Header.Mode, f.Header.Params.Passes, len(f.Queries))
			}
		}
		checkLabels(t, name, f, want)
	}
	// The mixes are the same queries in different orders.
	m1, m2 := runs["atpm-sf1-naive-mix1"], runs["atpm-sf1-naive-mix2"]
	if m1 != nil && m2 != nil && (m1.Header.Queries.Instances != 6 || m1.Header.Queries.SHA256 == m2.Header.Queries.SHA256) {
		t.Errorf("mixes: %d instances, sha %s and %s; want 6, two orders", m1.Header.Queries.Instances, m1.Header.Queries.SHA256, m2.Header.Queries.SHA256)
	}
	mix1 := readLines(t, filepath.Join(dir, "queries", "sf1-mix1.jsonl"))
	mix2 := readLines(t, filepath.Join(dir, "queries", "sf1-mix2.jsonl"))
	slices.Sort(mix1)
	slices.Sort(mix2)
	if !slices.Equal(mix1, mix2) {
		t.Errorf("the mixes hold different queries:\n%v\n%v", mix1, mix2)
	}
	// aQETq measures the same queries at every scale factor, with answers
	// of that scale factor.
	q1, q2 := runs["aqetq-sf1-naive"], runs["aqetq-sf2-naive"]
	if q1 != nil && q2 != nil {
		if ids(q1) != ids(q2) {
			t.Errorf("aQETq queries differ between scale factors: %s and %s", ids(q1), ids(q2))
		}
		if q1.Header.Queries.SHA256 == q2.Header.Queries.SHA256 {
			t.Error("aQETq: the same expected answers at sf=1 and sf=2")
		}
	}
	checkGone(t, runs)
	checkReport(t, dir, "naive", "batch", "mix2")
}

func ids(f *runfile.File) string {
	var s []string
	for _, q := range f.Queries {
		s = append(s, q.ID)
	}
	slices.Sort(s)
	return strings.Join(s, ",")
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestOptimizations runs §6.2 end to end on SQLite with tiny parameters.
func TestOptimizations(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), append(optimizationsArgs, "--dir", dir)...)
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	checkOptimizations(t, dir, "sqlite")
	if !strings.Contains(stdout, "report: "+filepath.Join(dir, "report.html")) {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestPooling runs §6.3 end to end with two pool sizes and two client
// counts: one server per pool size, a run per template and client count.
func TestPooling(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "pooling", "--dir", dir, "--sf", "1",
		"--templates", "3,5", "--clients", "1,3", "--pools", "1,4", "--duration", "200ms", "--runs", "1", "--per-template", "5")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs := runFiles(t, dir)
	var names []string
	for _, pool := range []int{1, 4} {
		for _, tm := range []int{3, 5} {
			for _, c := range []int{1, 3} {
				name := fmt.Sprintf("pool%02d-batch-QT%02d-c%02d", pool, tm, c)
				names = append(names, name)
				if f := runs[name]; f != nil {
					checkCorrect(t, name, f)
					checkLabels(t, name, f, map[string]string{"server": "batch", "sf": "1", "pool": fmt.Sprint(pool),
						"clients": fmt.Sprint(c), "workload": fmt.Sprintf("QT%d", tm), "db": "sqlite"})
					if f.Header.Params.Clients != c {
						t.Errorf("%s: %d clients", name, f.Header.Params.Clients)
					}
				}
			}
		}
	}
	wantRuns(t, runs, names...)
	// One server per pool size, started with it.
	for _, pool := range []int{1, 4} {
		b, err := os.ReadFile(filepath.Join(dir, "logs", fmt.Sprintf("batch-sf1-pool%d.log", pool)))
		if err != nil || !strings.Contains(string(b), fmt.Sprintf("pool %d,", pool)) {
			t.Errorf("server log of pool %d: %s %v", pool, b, err)
		}
	}
	checkGone(t, runs)
	checkReport(t, dir, "batch")
}

// TestExperimentUsage: the experiment command names its experiments, and
// bad flags are usage errors.
func TestExperimentUsage(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"experiment", "optimizations"},                                       // lists them
		{"experiment nope", `unknown experiment "nope"`},                      // and names the wrong one
		{"experiment nope", "pooling"},                                        // with the list
		{"experiment optimizations --sf 0", "--sf"},                           // scale factors positive
		{"experiment optimizations --mixes 1", "--mixes 2 or more"},           // a mean of one
		{"experiment optimizations --variants naive,nope", `unknown variant`}, // checked
		{"experiment optimizations --runs 0", "at least 1"},                   // a run at least
		{"experiment pooling --clients 1,x", "--clients"},                     // integers
		{"experiment pooling --pools 0", "--pools"},                           // positive
		{"experiment pooling --templates 99", "--templates"},                  // real templates
		{"experiment pooling --variants null", "canned"},                      // verifiable variants
		{"experiment pooling --variants postgraphile", "its own schema"},      // the benchmark's schema
		{"experiment layers --iterations 1", "--iterations"},                  // the first is cold: one is not a table
	} {
		code, _, stderr := gqlbench(context.Background(), strings.Fields(c.args)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitcode.Usage, c.want)
		}
	}
	code, stdout, _ := gqlbench(context.Background(), "experiment", "--help")
	if code != exitcode.OK || !strings.Contains(stdout, "pooling") {
		t.Errorf("experiment --help: exit %d\n%s", code, stdout)
	}
}
