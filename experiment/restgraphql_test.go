package experiment_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// TestRestVsGraphQL runs the experiment with tiny settings on SQLite: both
// APIs answer every task right at every user count, the closed-loop runs
// carry the fine series, the paired runs give a paired t-test per task,
// and the report (with seed 001's section) and the table compare both on
// the four measures. Groups of 2 pairs leave enough groups for a test even
// on a slow machine.
func TestRestVsGraphQL(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "rest-vs-graphql", "--dir", dir, "--sf", "1",
		"--sets", "display,crud", "--records", "5", "--users", "1,2", "--duration", "200ms", "--runs", "2", "--per-template", "3", "--group", "2", "--http2", "rest")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files := runFiles(t, dir)
	tests := 0
	labels := []string{"display-overfetch-5", "display-all-5", "display-endpoints-5", "crud-read", "crud-create", "crud-cycle"}
	for _, label := range labels {
		for _, u := range []string{"1", "2"} {
			for _, series := range []string{"rest", "graphql", "paired"} {
				name := "rvg-sf1-" + series + "-" + label + "-u" + u
				f := files[name]
				if f == nil {
					t.Fatalf("no run file %s (have %v)", name, keys(files))
				}
				checkCorrect(t, name, f)
				if got := f.Header.Labels["series"]; got != series {
					t.Errorf("%s: series %q", name, got)
				}
				// --http2 rest: REST over HTTP/2, GraphQL not (seed 001's setting)
				if p := f.Header.Params; p.HTTP2 != (series != "graphql") || series == "paired" && p.HTTP2API != "rest" {
					t.Errorf("%s: http2 %v (%q)", name, p.HTTP2, p.HTTP2API)
				}
				if series != "paired" {
					if f.Header.Params.SampleIntervalNS != 10e6 || !hasSeries(f) {
						t.Errorf("%s: no fine series every 10 ms (%d ns)", name, f.Header.Params.SampleIntervalNS)
					}
					continue
				}
				if f.Header.Params.Group != 2 {
					t.Errorf("%s: groups of %d pairs, want 2", name, f.Header.Params.Group)
				}
				p := f.Summary.Paired
				if p == nil || p.Labels[label] == nil || p.Labels[label].N < 1 || p.Labels[label].Broken != 0 {
					t.Fatalf("%s: no pairs for %s: %+v", name, label, p)
				}
				ps := p.Labels[label]
				tt := report.PairedFromSums(ps.N, ps.AMean, ps.BMean, ps.DMean, ps.DSD)
				if tt.P < 0 || tt.P > 1 {
					t.Errorf("%s: paired t-test %+v", name, tt)
				}
				if tt.Valid {
					tests++
				}
			}
		}
	}
	if tests == 0 {
		t.Error("no paired run had two pairs for a t-test")
	}
	// REST makes 1 + 2N calls for display-endpoints-5, GraphQL one.
	if s := files["rvg-sf1-rest-display-endpoints-5-u1"].Summary.Total; s.Calls != 11*s.Count {
		t.Errorf("REST display-endpoints-5: %d calls for %d tasks, want 11 per task", s.Calls, s.Count)
	}
	checkReport(t, dir, "rest", "graphql", "Verdict display-overfetch-5, 1 user(s): ", "tasks per 10 ms", "REST against GraphQL: seed 001",
		"Paired t-tests per case and measure", "Box-plot parameters per case, measure and API")
	checkReport(t, dir, "paired p") // in the Markdown escaped: "paired p &lt; 0.001"
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, m := range []string{"rt", "throughput", "cpu", "memory"} {
		if !strings.Contains(string(html), `<figure id="box-rvg-`+m) {
			t.Errorf("report.html has no box plots of %s", m)
		}
	}
	table, err := os.ReadFile(filepath.Join(dir, "rest-vs-graphql.md"))
	if err != nil {
		t.Fatal(err)
	}
	// how it ran heads the file; REST over HTTP/2 makes the bytes unlike
	if !strings.HasPrefix(string(table), "serve rest (REST) against serve batch (GraphQL)") || !strings.Contains(string(table), "REST client: HTTP/2") ||
		!strings.Contains(string(table), "Bytes are not comparable between the APIs here: REST speaks HTTP/2") {
		t.Errorf("the table's head does not say how it ran:\n%.600s", table)
	}
	full := 0 // rows with a p-value for each of the four measures
	for _, label := range labels {
		if !strings.Contains(string(table), "| "+label+" | 2 |") {
			t.Errorf("the table has no row for %s at 2 users:\n%s", label, table)
		}
	}
	for _, row := range strings.Split(string(table), "\n") {
		if len(pCell.FindAllString(row, -1)) == 4 {
			full++
		}
	}
	if full == 0 {
		t.Errorf("no case has a p-value for each of the four measures:\n%s", table)
	}
	code, _, stderr = gqlbench(context.Background(), "experiment", "rest-vs-graphql", "--dir", filepath.Join(dir, "bad"), "--graphql-variant", "rest")
	if code != exitcode.Usage || !strings.Contains(stderr, "cannot answer") {
		t.Errorf("--graphql-variant rest: exit %d, %s", code, stderr)
	}
}

// pCell is a p-value cell of the table.
var pCell = regexp.MustCompile(`\| p (=|<) [0-9.]+ \|`)

// hasSeries reports whether a run file's measured intervals carry fine
// series with samples of a watched process.
func hasSeries(f *runfile.File) bool {
	for _, iv := range f.Intervals {
		if !iv.Warmup && !iv.Tail && iv.Series != nil && len(iv.Series.Procs) > 0 && len(iv.Series.Procs[0].CPU) > 0 {
			return true
		}
	}
	return false
}
