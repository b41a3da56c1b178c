package experiment

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// seed001 are seed 001's (Lawi et al.) Tables 1–4, GraphQL then REST per
// row: response time (ms, group means), throughput (requests per 10 ms),
// CPU load (%), memory (MB).
var seed001 = [4][20][2]float64{
	{{1840, 938}, {1830, 969}, {1860, 906}, {1830, 907}, {1860, 891}, {2020, 906}, {1860, 907}, {1810, 922}, {2130, 891}, {1860, 891},
		{1840, 906}, {1860, 907}, {1840, 922}, {1860, 906}, {1840, 891}, {1810, 938}, {1840, 1000}, {1830, 938}, {1840, 921}, {1830, 1000}},
	{{3117, 5175}, {3000, 4500}, {2666, 4666}, {2750, 4500}, {2800, 4200}, {3000, 4333}, {2857, 4285}, {2875, 4250}, {2777, 4555}, {2900, 4500},
		{2818, 4545}, {2917, 4583}, {2923, 4615}, {2857, 4571}, {2867, 4600}, {2875, 4625}, {2823, 4584}, {2778, 4611}, {2789, 4631}, {2750, 4600}},
	{{48.0, 82.5}, {49.0, 73.4}, {44.4, 77.8}, {45.8, 75.0}, {46.7, 70.0}, {50.0, 72.2}, {47.6, 70.0}, {47.9, 70.8}, {46.3, 75.9}, {48.3, 80.8},
		{47.0, 75.8}, {48.6, 72.0}, {48.7, 76.9}, {47.6, 76.2}, {47.8, 78.8}, {47.9, 77.1}, {47.1, 76.4}, {46.3, 76.9}, {46.5, 75.0}, {45.8, 76.7}},
	{{45.20, 67.50}, {43.50, 77.63}, {38.66, 69.99}, {39.88, 67.50}, {40.60, 63.00}, {43.50, 65.00}, {41.43, 78.33}, {41.69, 63.75}, {40.27, 68.33}, {42.05, 57.50},
		{40.86, 65.18}, {42.30, 78.75}, {42.38, 69.23}, {41.43, 68.57}, {41.57, 59.00}, {41.69, 69.38}, {40.93, 68.76}, {40.28, 69.17}, {40.44, 79.47}, {39.88, 69.00}},
}

// seedColumn is column api (0 GraphQL, 1 REST) of seed 001's table i.
func seedColumn(i, api int) []float64 {
	var out []float64
	for _, row := range seed001[i] {
		out = append(out, row[api])
	}
	return out
}

// closedRunFile writes a closed-loop run file of api whose measured
// intervals carry the given fine series, split over two intervals; a
// warm-up interval and a tail carry series that must not count.
func closedRunFile(t *testing.T, dir, api string, steps, cpu, mib []float64) string {
	t.Helper()
	series := func(steps, cpu, mib []float64) *runfile.Series {
		s := &runfile.Series{EveryNS: int64(10 * time.Millisecond), Completed: map[string][]int64{api: nil},
			Procs: []runfile.ProcSeries{{PID: 7}}}
		for _, n := range steps {
			s.Completed[api] = append(s.Completed[api], int64(n))
		}
		for i := range cpu {
			s.Procs[0].CPU = append(s.Procs[0].CPU, cpu[i])
			s.Procs[0].RSSKiB = append(s.Procs[0].RSSKiB, int64(math.Round(mib[i]*1024)))
		}
		return s
	}
	junk := []float64{1e6, 1e6, 1e6}
	h := len(steps) / 2
	ivs := []*runfile.Interval{
		{Run: 1, Warmup: true, EndNS: 1e8, Series: series(junk, junk, junk)},
		{Run: 2, EndNS: 1e8, Series: series(steps[:h], cpu[:h], mib[:h]), Procs: []runfile.ProcSample{{PID: 7, CPUPercent: 50}}},
		{Run: 2, Index: 1, StartNS: 1e8, EndNS: 2e8, Series: series(steps[h:], cpu[h:], mib[h:]), Procs: []runfile.ProcSample{{PID: 7, CPUPercent: 50}}},
		{Run: 2, Index: 2, StartNS: 2e8, EndNS: 3e8, Tail: true, Series: series(junk, junk, junk)},
	}
	var b bytes.Buffer
	w := runfile.NewWriter(&b)
	w.Write(&runfile.Header{Tool: runfile.Tool{Name: "gqlbench"}, Mode: "closed", Hist: runfile.StandardHist, Watch: []runfile.Watched{{PID: 7}}})
	for _, iv := range ivs {
		iv.Templates = map[string]*runfile.TemplateInterval{}
		w.Write(iv)
	}
	w.Write(&runfile.Summary{Status: "ok"})
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	schema.Check(t, b.Bytes())
	path := filepath.Join(dir, api+".jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// seedCase is a case built from run files that carry seed 001's Tables
// 1–4: the closed-loop runs' fine series (Tables 2–4, GraphQL's two steps
// longer: cut to REST's) and the paired run's groups (Table 1).
func seedCase(t *testing.T) (*rgCases, *rgCase) {
	dir := t.TempDir()
	gqlSteps := append(seedColumn(1, 0), 9999, 9999) // cut: REST has 20 steps
	rest := closedRunFile(t, dir, "rest", seedColumn(1, 1), seedColumn(2, 1), seedColumn(3, 1))
	gql := closedRunFile(t, dir, "graphql", gqlSteps, seedColumn(2, 0), seedColumn(3, 0))
	c := &rgCases{sample: "10 ms", group: 100}
	cs := c.at("crud-read", 1)
	cs.rest = sideOf(rest, "rest", &runfile.Summary{Total: runfile.TemplateSummary{Count: 100, SentBytes: 20000, RecvBytes: 50000, Calls: 200}})
	cs.gql = sideOf(gql, "graphql", &runfile.Summary{Total: runfile.TemplateSummary{Count: 100, SentBytes: 40000, RecvBytes: 20000}})
	paired := &runfile.Summary{Paired: &runfile.Paired{APIs: [2]string{"graphql", "rest"}, Group: 100,
		Labels: map[string]*runfile.PairStats{"crud-read": {N: 2000}}},
		Templates: map[string]*runfile.TemplateSummary{
			"rest/crud-read":    {Count: 10, SentBytes: 1000, RecvBytes: 6000, Calls: 20},
			"graphql/crud-read": {Count: 10, SentBytes: 3000, RecvBytes: 2400},
		}}
	for _, row := range seed001[0] {
		g := &paired.Paired.Labels["crud-read"].Groups
		*g = append(*g, [2]float64{row[0] * 1e6, row[1] * 1e6}) // ns, GraphQL (A) first
	}
	cs.pair = pairOf("crud-read", paired)
	return c, cs
}

// TestRestGraphQLStatsSeed001: from run files carrying seed 001's Tables 1–4, the
// experiment's statistics give the seed's Table 5 (p-values to the digits
// printed for response time and throughput; within 10 % for CPU and
// memory, whose tables print rounded samples), Table 6's parameters, Eq.
// 1's efficiencies, and verdicts in words.
func TestRestGraphQLStatsSeed001(t *testing.T) {
	c, cs := seedCase(t)
	stats := c.stats(cs)
	for i, want := range []struct {
		p, tol    float64
		restMean  float64
		gqlMedian float64
		eff       float64
	}{
		{7.37117e-21, 1e-5, 922.85, 1840, 50.50},
		{2.10916e-19, 1e-5, 4546.45, 2857, 37.16},
		{2.35697e-18, 0.1, 75.51, 47.6, 37.27},
		{4.69417e-14, 0.1, 68.752, 41.43, 39.74},
	} {
		st := stats[i]
		if st.missing != "" || st.n != 20 || !st.test.Valid || math.Abs(st.test.P-want.p) > want.tol*want.p {
			t.Errorf("%s: n %d, %+v (%s); want p %g", st.m.name, st.n, st.test, st.missing, want.p)
		}
		if math.Abs(st.rest.Mean-want.restMean) > 0.01 || math.Abs(st.gql.Median-want.gqlMedian) > 0.01 || math.Abs(st.eff-want.eff) > 0.01 {
			t.Errorf("%s: REST mean %g, GraphQL median %g, efficiency %g; want %g, %g, %g", st.m.name, st.rest.Mean, st.gql.Median, st.eff,
				want.restMean, want.gqlMedian, want.eff)
		}
	}
	v := c.verdicts()
	want := "Verdict crud-read, 1 user(s): REST faster by 51 % (paired p < 0.001, 20 groups); REST more tasks per 10 ms, GraphQL 37 % fewer (p < 0.001); " +
		"GraphQL 37 % less CPU (p < 0.001); GraphQL 40 % less memory (p < 0.001); GraphQL 60 % fewer bytes received (exact); REST 67 % fewer bytes sent (exact); " +
		"REST 2 calls per task, GraphQL 1 (exact)"
	if len(v) != 1 || v[0] != want {
		t.Errorf("verdicts\n%q\nwant\n%q", v, want)
	}
	// The closed-loop runs' server CPU per task, from the measured intervals only: 50 % of 0.2 s for 100 tasks.
	if cs.rest.cpuUS != 1000 {
		t.Errorf("CPU per task %g µs, want 1000", cs.rest.cpuUS)
	}
}

// TestRestGraphQLStatsTooFew: a case whose paired run has fewer than minSamples
// groups gets no response-time test, and says so; a measure whose means
// do not differ significantly is said to show no significant difference;
// without a paired run the counts are each API's own.
func TestRestGraphQLStatsTooFew(t *testing.T) {
	c, cs := seedCase(t)
	cs.pair.restMS, cs.pair.gqlMS = cs.pair.restMS[:3], cs.pair.gqlMS[:3]
	cs.gql.cpu = append([]float64(nil), cs.rest.cpu...)
	cs.gql.cpu[0]++ // nearly the same: not significant
	st := c.stats(cs)
	if st[0].missing == "" || st[0].verdict() != "response time: too few groups (3, 5 needed)" || st[0].rest.N != 3 {
		t.Errorf("3 groups: %+v, %q", st[0], st[0].verdict())
	}
	if v := st[2].verdict(); !strings.HasPrefix(v, "no significant difference in CPU (p = 0.") {
		t.Errorf("CPU verdict %q", v)
	}
	cs.pair = nil
	if v := c.stats(cs)[0].verdict(); v != "response time: no paired run" {
		t.Errorf("no paired run: %q", v)
	}
	if got := cs.exactVerdicts("")[0]; got != "GraphQL 60 % fewer bytes received (counted, each API's own run)" {
		t.Errorf("counts without a paired run: %q", got)
	}
	// one API over HTTP/2 counts bodies only: its bytes are not the other's
	if got := cs.exactVerdicts("REST speaks HTTP/2"); len(got) != 2 || got[0] != "bytes not compared: REST speaks HTTP/2" {
		t.Errorf("bytes under unlike protocols: %q", got)
	}
}

// TestRestGraphQLTableAndSection: the Markdown table has a p-value per measure, and
// the report section Table 5 and 6 rows and a box per API, case and
// measure.
func TestRestGraphQLTableAndSection(t *testing.T) {
	c, _ := seedCase(t)
	var b bytes.Buffer
	if err := c.table(&b); err != nil {
		t.Fatal(err)
	}
	row := strings.Split(strings.TrimSpace(b.String()), "\n")[2]
	if !strings.HasPrefix(row, "| crud-read | 1 | 922.9 / 1864 (20) | p < 0.001 | 4546 / 2857 (20) | p < 0.001 | 75.5 / 47.4 (20) | p < 0.001 | 68.8 / 41.4 (20) | p < 0.001 |") {
		t.Errorf("table row %s", row)
	}
	s := c.section()
	if len(s.Tables) != 2 || len(s.Tables[0].Rows) != 7 || len(s.Tables[1].Rows) != 8 || len(s.Boxes) != 4 {
		t.Fatalf("section: %d tables, %d boxes", len(s.Tables), len(s.Boxes))
	}
	for _, bp := range s.Boxes {
		if len(bp.Boxes) != 2 || bp.Boxes[0].Series != "rest" || bp.Boxes[1].Series != "graphql" || bp.Boxes[0].N != 20 {
			t.Errorf("box plot %s: %+v", bp.ID, bp.Boxes)
		}
	}
	if r := s.Tables[1].Rows[0]; strings.Join(r, " ") != "crud-read 1 response time REST 20 922.9 33.0 891.0 906.0 907.0 938.0 1000" {
		t.Errorf("Table 6 row %q", r)
	}
}
