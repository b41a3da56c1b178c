package experiment_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/internal/cli"
	"github.com/gqlbench/gqlbench/report"
)

// TestRestVsGraphQL runs the experiment with tiny settings on SQLite: both
// APIs answer every task right at every user count, the paired runs give a
// paired t-test per task, and the report and the table compare both.
func TestRestVsGraphQL(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "rest-vs-graphql", "--dir", dir, "--sf", "1",
		"--sets", "display,crud", "--records", "5", "--users", "1,2", "--duration", "200ms", "--runs", "2", "--per-template", "3")
	if code != cli.ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files := runFiles(t, dir)
	tests := 0
	labels := []string{"display-overfetch-5", "display-all-5", "display-endpoints-5", "crud-read", "crud-create"}
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
				if series != "paired" {
					continue
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
	checkReport(t, dir, "rest", "graphql", "Verdict display-overfetch-5, 1 user(s): ", "paired p")
	table, err := os.ReadFile(filepath.Join(dir, "rest-vs-graphql.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range labels {
		if !strings.Contains(string(table), "| "+label+" | 2 |") {
			t.Errorf("the table has no row for %s at 2 users:\n%s", label, table)
		}
	}
	code, _, stderr = gqlbench(context.Background(), "experiment", "rest-vs-graphql", "--dir", filepath.Join(dir, "bad"), "--graphql-variant", "rest")
	if code != cli.ExitUsage || !strings.Contains(stderr, "cannot answer") {
		t.Errorf("--graphql-variant rest: exit %d, %s", code, stderr)
	}
}
