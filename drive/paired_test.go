package drive

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// pairedRun runs paired mode against two fake servers and returns its
// file and records' rows.
func pairedRun(t *testing.T, a, b *fakeServer, clients int) (*runfile.Summary, *runfile.File, [][]string, error) {
	t.Helper()
	var out, rec bytes.Buffer
	cfg := Config{Mode: Paired, Transport: a, Partner: b, APIs: [2]string{"graphql", "rest"}, Settings: PairedSettings{ClosedSettings: ClosedSettings{Clients: clients, Repeat: Repeat{Duration: 2 * time.Second, Runs: 1}}, Group: 10}, Requests: requests(5, "QT1", "QT3"), Interval: 500 * time.Millisecond, Records: measure.NewRecordWriter(&rec)}
	w := runfile.NewWriter(&out)
	w.Write(&runfile.Header{Mode: string(Paired), Hist: runfile.StandardHist})
	sum, runErr := Run(context.Background(), cfg, w)
	schema.Check(t, out.Bytes())
	f, err := runfile.Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&rec).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return sum, f, rows, runErr
}

// TestPairedEverySampleHasAPartner: in paired mode every task goes to
// both APIs at the same moment and every sample has its partner — the
// same task, the same start, the other API — and the pairs add up to the
// samples: a paired t-test needs nothing more. Virtual time: one API
// answers in 2 ms, the other in 5 ms.
func TestPairedEverySampleHasAPartner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sum, f, rows, err := pairedRun(t, newFake(2*time.Millisecond), newFake(5*time.Millisecond), 4)
		if err != nil {
			t.Fatal(err)
		}
		var countA, countB, pairs int64
		for _, iv := range f.Intervals {
			for name, ti := range iv.Templates {
				switch {
				case strings.HasPrefix(name, "graphql/"):
					countA += ti.Count
				case strings.HasPrefix(name, "rest/"):
					countB += ti.Count
				default:
					t.Errorf("template %q of neither side", name)
				}
			}
			for _, p := range iv.Pairs {
				pairs += p.N + p.Broken
			}
		}
		// each client makes a pair every 5 ms for 2 s
		if countA != countB || countA != pairs || countA != 4*400 {
			t.Errorf("graphql %d, rest %d samples, %d pairs; want 1600 of each", countA, countB, pairs)
		}
		p := sum.Paired
		if p == nil || p.APIs != [2]string{"graphql", "rest"} || p.Group != 10 || p.Total.N != 1600 ||
			p.Total.AMean != 2e6 || p.Total.BMean != 5e6 || p.Total.DMean != -3e6 || p.Total.DSD != 0 {
			t.Fatalf("paired summary %+v", p.Total)
		}
		groups := 0
		for _, l := range p.Labels {
			groups += int(l.N) / 10 // groups of consecutive pairs of a label
		}
		if len(p.Total.Groups) != groups || groups < 150 {
			t.Errorf("%d groups, want %d", len(p.Total.Groups), groups)
		}
		if g := p.Labels["QT1"].Groups[0]; g != [2]float64{2e6, 5e6} {
			t.Errorf("a group's means: %v", g)
		}
		// The records: every pair number twice, once per API, both sent at
		// the same moment for the same task.
		type side struct{ query, template, start string }
		seen := map[string][]side{}
		for _, r := range rows[1:] {
			seen[r[14]] = append(seen[r[14]], side{r[1], r[4], r[9]})
		}
		for pair, s := range seen {
			if pair == "" || len(s) != 2 || s[0].query != s[1].query || s[0].start != s[1].start || s[0].template[:4] == s[1].template[:4] {
				t.Fatalf("pair %q: %+v", pair, s)
			}
		}
		if len(seen) != 1600 {
			t.Errorf("%d pairs in the records", len(seen))
		}
	})
}

// TestPairedBroken: a pair whose one side fails is counted broken, kept
// out of the means, and the failure is the failing side's error.
func TestPairedBroken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newFake(time.Millisecond)
		b.answer = func(i int, _ int) (int, []byte) {
			if i%2 == 0 {
				return 404, []byte(`{"plan_error":"GET /rest/x: HTTP 404, want 200"}`)
			}
			return 200, okBody
		}
		sum, _, _, err := pairedRun(t, newFake(time.Millisecond), b, 1)
		var check *CheckError
		if !errors.As(err, &check) {
			t.Errorf("run: %v, want a check failure (errors)", err)
		}
		p := sum.Paired.Total
		rest, gql := sum.Templates["rest/QT1"], sum.Templates["graphql/QT1"]
		if p.Broken == 0 || p.N == 0 || rest.Errors == 0 || gql.Errors != 0 || p.AMean != 1e6 {
			t.Errorf("pairs %+v; rest %+v; graphql %+v", p, rest, gql)
		}
	})
}
