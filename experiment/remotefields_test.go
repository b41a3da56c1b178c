package experiment_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestRemoteFields runs seed 002's remote-fields study end to end on
// SQLite with a tiny grid: every answer verified, and the remote calls of
// one request, counted by the remote service, one per object in SINGLE and
// one per remote field in BATCH and in compiled.
func TestRemoteFields(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := gqlbench(context.Background(), "experiment", "remote-fields", "--dir", dir, "--sf", "1",
		"--variants", "naive,compiled", "--latencies", "0,1ms", "--fan-outs", "3,20", "--per-call-max", "3",
		"--clients", "1", "--duration", "150ms", "--runs", "1")
	if code != exitcode.OK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs := runFiles(t, dir)
	// per latency: naive single shared 4, naive single per-call 2 (n=3),
	// naive batch 4, compiled 4
	if len(runs) != 2*14 {
		t.Errorf("%d run files, want 28: %v", len(runs), keys(runs))
	}
	for name, f := range runs {
		checkCorrect(t, name, f)
	}
	checkGone(t, runs)
	checkReport(t, dir, "Remote custom fields (seed 002)", "BATCH/SINGLE")
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Sections []struct {
			ID     string `json:"id"`
			Tables []struct {
				Title string     `json:"title"`
				Head  []string   `json:"head"`
				Rows  [][]string `json:"rows"`
			} `json:"tables"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if s.ID != "remote-fields" || tb.Title != "Every point" {
				continue
			}
			col := func(name string) int { return slices.Index(tb.Head, name) }
			for _, row := range tb.Rows {
				fields, _ := strconv.Atoi(row[col("remote fields")])
				n, _ := strconv.Atoi(row[col("fan-out")])
				calls, _ := strconv.Atoi(row[col("remote calls/request")])
				want := fields // BATCH, compiled: one call per remote field
				if row[col("mode")] == "single" {
					want = fields * n // one per object: each of the n students has one of each
				}
				if calls != want {
					t.Errorf("%v: %d remote calls per request, want %d", row, calls, want)
				}
				checked++
			}
		}
	}
	if checked != len(runs) {
		t.Errorf("%d points in the report's table, %d runs", checked, len(runs))
	}
}
