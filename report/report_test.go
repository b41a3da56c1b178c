package report

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/report/plot"
	"github.com/gqlbench/gqlbench/runfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixtures are real run files (testdata/make.sh): naive and batch on
// SQLite sf=1, one-template and mixed closed runs, sequential passes and a
// capacity search.
func fixtures(t *testing.T) []*Run {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	runs, err := ReadRuns(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func fixtureReport(t *testing.T) *Report {
	t.Helper()
	r, err := Build(fixtures(t), Options{Title: "gqlbench report (test fixture)",
		Config: [][2]string{{"experiment", "fixture"}, {"database", "sqlite sf=1"}},
		Notes:  []string{"Real runs of the naive and batch servers, a few seconds each: not a benchmark result."}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func render(t *testing.T, r *Report, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b, format); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGolden renders the fixtures in every format and compares with the
// golden files (go test ./report -update rewrites them).
func TestGolden(t *testing.T) {
	r := fixtureReport(t)
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			got := render(t, r, f)
			path := filepath.Join("testdata", "golden", "report."+f)
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run go test ./report -update if the change is intended):\n%s", f, path, firstDiff(got, want))
			}
		})
	}
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return "line " + itoa(int64(i+1)) + ":\n got: " + trim(g[i]) + "\nwant: " + trim(w[i])
		}
	}
	return "lengths differ"
}

func trim(s string) string { return s[:min(len(s), 300)] }

// TestDeterministic builds the same report twice: same bytes in every format.
func TestDeterministic(t *testing.T) {
	a, b := fixtureReport(t), fixtureReport(t)
	for _, f := range Formats {
		if !bytes.Equal(render(t, a, f), render(t, b, f)) {
			t.Errorf("%s: two builds of the same runs differ", f)
		}
	}
}

// TestHTMLSelfContained: no network reference, no script, one <svg> per chart.
func TestHTMLSelfContained(t *testing.T) {
	r := fixtureReport(t)
	html := string(render(t, r, "html"))
	for _, re := range []string{`(?i)(src|href)\s*=\s*["']?\s*(https?:)?//`, `(?i)<script`, `(?i)<link`, `(?i)@import`, `(?i)url\(`} {
		if m := regexp.MustCompile(re).FindString(html); m != "" {
			t.Errorf("the HTML has an external reference or script: %q", m)
		}
	}
	drawn := 0
	for _, c := range r.charts {
		if c.SVG == "" {
			t.Errorf("chart %s was not drawn: %s", c.ID, c.Caption)
			continue
		}
		drawn++
		if n := strings.Count(c.SVG, "<svg"); n != 1 {
			t.Errorf("chart %s has %d <svg> elements", c.ID, n)
		}
	}
	plots := regexp.MustCompile(`<div class="plot"><div style="min-width:\d+px">\s*<svg`).FindAllString(html, -1)
	if n := len(plots); n != drawn || n < 6 {
		t.Errorf("%d charts' <svg> elements in the page for %d charts (want one each, and at least 6 from the fixtures)", n, drawn)
	}
	for _, id := range []string{"heatmap-closed-sf-1-clients-1-pool-10", "atpt-bars-closed-sf-1-clients-1-pool-10", "atpw-bars-closed-sf-1-clients-1-pool-10",
		"qett-boxes-closed-sf-1-clients-1-pool-10", "latency-throughput", "time-throughput", "time-cpu", "time-rss",
		"tmpl-throughput-qt3", "tmpl-qet-qt5"} {
		if !strings.Contains(html, `<figure id="`+id+`"`) {
			t.Errorf("no chart %s", id)
		}
	}
}

// TestFixtureMetrics checks the model against what the run files say.
func TestFixtureMetrics(t *testing.T) {
	runs := fixtures(t)
	r, err := Build(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reference != "naive" || len(r.Series) != 2 {
		t.Fatalf("reference %q, series %+v", r.Reference, r.Series)
	}
	// aTPt of a one-template run is the run file's own throughput (the
	// warm-up run excluded).
	for _, run := range runs {
		if run.Key().Mode != "closed" || run.mixed() {
			continue
		}
		k := run.Key()
		found := false
		for _, row := range r.Throughput {
			if row.Key == k {
				found = true
				if row.N != 2 || row.Warmups != 1 || !near(row.Mean, run.Summary.Throughput.Mean) || !near(row.SD, run.Summary.Throughput.SD) {
					t.Errorf("%s: aTPt %+v, the file's summary %+v", run.Path, row.Stat, run.Summary.Throughput)
				}
			}
		}
		if !found {
			t.Errorf("%s: no aTPt row", run.Path)
		}
	}
	// The mixed workload's per-template throughputs add up to aTPw.
	for _, w := range r.Workloads {
		var sum float64
		for _, row := range r.Throughput {
			if row.Key == w.Key {
				sum += row.Mean
			}
		}
		if !near(sum, w.Mean) {
			t.Errorf("%s %s: templates add up to %g, aTPw %g", w.Series, w.Workload, sum, w.Mean)
		}
	}
	// Quartiles are ordered and within the extremes.
	for _, l := range r.Latency {
		q := l.QET
		if !(q.Min <= q.P25 && q.P25 <= q.P50 && q.P50 <= q.P75 && q.P75 <= q.P99 && q.P99 <= q.Max) || q.N == 0 {
			t.Errorf("%s %s: quantiles out of order: %+v", l.Series, l.Template, q)
		}
	}
	if len(r.Queries) == 0 || len(r.Processes) == 0 || len(r.Curve) == 0 || len(r.Welch) == 0 {
		t.Errorf("queries %d, processes %d, curve %d, welch %d: want some of each", len(r.Queries), len(r.Processes), len(r.Curve), len(r.Welch))
	}
	// A query row is its run file's query line, whole, under its key (the
	// golden JSON shows it without the line's type).
	lines := map[runfile.Query]bool{}
	for _, run := range runs {
		for _, q := range run.File.Queries {
			lines[*q] = true
		}
	}
	for _, q := range r.Queries {
		if !lines[q.Query] || q.Type != "" {
			t.Errorf("query row %+v is no run file's query line", q)
		}
	}
	// CPU per query is the CPU rate over the query rate: for a one-template
	// closed-loop point, mean CPU % / aTPt (its intervals are of one length).
	checked := 0
	for _, p := range r.Processes {
		for _, row := range r.Throughput {
			if row.Key != p.Key || p.Mode != "closed" || p.Name == "load generator" || !isTemplate(p.Workload) {
				continue
			}
			want := p.CPUMean / 100 / row.Mean * 1e6
			if d := p.CPUPerQuery - want; d > 0.05*want || d < -0.05*want || p.CPUPerQuery <= 0 {
				t.Errorf("%s %s: %.1f CPU µs per query, %.1f %% of a core at %.1f queries/s make %.1f", p.Series, p.Name, p.CPUPerQuery, p.CPUMean, row.Mean, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no process of a one-template closed-loop point to check CPU per query on")
	}
	paired := map[string]bool{}
	for _, p := range r.Matched {
		paired[p.Metric] = true
		if p.Against != "naive" || p.Series != "batch" || p.Pairs < 2 {
			t.Errorf("paired %+v", p)
		}
	}
	if !paired["aTPt"] || !paired["aQETq"] {
		t.Errorf("paired tests over %v: want aTPt over templates and aQETq over queries", paired)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-6*max(1, a, b) && d > -1e-6*max(1, a, b) }

// TestWrongSeriesNeverWins: a faster series with wrong answers ranks after
// the correct one, is flagged everywhere and fails wrong>0.
func TestWrongSeriesNeverWins(t *testing.T) {
	good := synthRun(t, synth{series: "naive", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{100, 102, 98}})
	fast := synthRun(t, synth{series: "fast", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{1000, 1010, 990}, wrong: 3})
	r, err := Build([]*Run{fast, good}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Throughput {
		if row.Series == "fast" && (row.Rank != 2 || !row.Flagged) {
			t.Errorf("fast, wrong series: rank %d, flagged %v", row.Rank, row.Flagged)
		}
		if row.Series == "naive" && row.Rank != 1 {
			t.Errorf("correct series: rank %d", row.Rank)
		}
	}
	html := string(render(t, r, "html"))
	md := string(render(t, r, "md"))
	for _, s := range []string{"fast returned 12 wrong answer(s)", "fast (WRONG ANSWERS)", "fast ✗"} {
		if !strings.Contains(html, s) {
			t.Errorf("the HTML does not say %q", s)
		}
	}
	if !strings.Contains(md, "fast returned 12 wrong answer(s)") || !strings.Contains(md, "**naive is faster than fast on QT1") {
		t.Errorf("markdown: %s", md)
	}
	if v := r.Check(mustThresholds(t, "wrong>0")); len(v) != 1 || !strings.Contains(v[0], "fast") {
		t.Errorf("wrong>0: %q", v)
	}
	if v := r.Check(mustThresholds(t, "wrong>20")); len(v) != 0 {
		t.Errorf("wrong>20: %q", v)
	}
	if v := r.Check(mustThresholds(t, "wrong>0.1%")); len(v) != 1 {
		t.Errorf("wrong>0.1%%: %q", v)
	}
}

// TestUncheckedSeries: a run that checked the status of its responses only
// is marked so wherever it shows, has no goodput, and cannot pass a goodput
// gate.
func TestUncheckedSeries(t *testing.T) {
	checked := synthRun(t, synth{series: "mine", workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 102}})
	status := synthRun(t, synth{series: "theirs", workload: "Book", templates: []string{"Book"}, perRun: []int64{200, 202}, check: "status"})
	r, err := Build([]*Run{checked, status}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := string(render(t, r, "md"))
	for _, want := range []string{"theirs (answers not checked)", "only the status of its responses was checked", "| –"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report does not say %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "mine (answers not checked)") {
		t.Error("a checked series is marked unchecked")
	}
	v := r.Check(mustThresholds(t, "goodput<1"))
	if len(v) != 1 || !strings.Contains(v[0], "not checked") {
		t.Errorf("goodput<1: %q", v)
	}
}

// TestNoisySeries: a series whose runs disagree by more than 5 % (CV) is
// marked in the CV cell and named on the first screen, with where; a steady
// one is not.
func TestNoisySeries(t *testing.T) {
	noisy := synthRun(t, synth{series: "jumpy", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{100, 120, 90}})
	steady := synthRun(t, synth{series: "calm", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{100, 101, 100}})
	r, err := Build([]*Run{steady, noisy}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Throughput {
		if row.Noisy != (row.Series == "jumpy") {
			t.Errorf("%s: noisy %v at CV %.3f", row.Series, row.Noisy, row.CV)
		}
	}
	if cv := r.Runs[1].CV; cv == nil || math.Abs(*cv-0.1478) > 0.001 {
		t.Errorf("the noisy file's CV %v, want 14.8 %%", cv)
	}
	md := string(render(t, r, "md"))
	overview := md[:strings.Index(md, "## Correctness")]
	for _, want := range []string{"**⚠ jumpy: the throughput of its runs varies by more than 5.0 %", "QT1 14.8 %",
		"Run-to-run CV of a file's throughput: 14.8 % at the highest"} {
		if !strings.Contains(overview, want) {
			t.Errorf("the overview does not say %q:\n%s", want, overview)
		}
	}
	if strings.Contains(overview, "calm:") {
		t.Errorf("the steady series is called out:\n%s", overview)
	}
	if !strings.Contains(md, "| 14.8 % ⚠ |") || !strings.Contains(md, "| 0.6 % |") {
		t.Errorf("the CV cells are not marked as they should be:\n%s", md)
	}
	var b bytes.Buffer
	r.Summary(&b)
	if !strings.Contains(b.String(), "NOISY: jumpy") || strings.Contains(b.String(), "NOISY: calm") {
		t.Errorf("terminal summary:\n%s", b.String())
	}
}

func mustThresholds(t *testing.T, spec string) []Threshold {
	t.Helper()
	ts, err := ParseThresholds(spec)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestRegressionOnlyWhenSignificant: a drop beyond the threshold fails only
// when Welch's test finds it significant.
func TestRegressionOnlyWhenSignificant(t *testing.T) {
	base := synthRun(t, synth{series: "batch", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{1000, 1010, 990, 1005, 995}})
	for _, c := range []struct {
		name   string
		perRun []int64
		fail   bool
	}{
		{"steady drop of 10 %", []int64{900, 905, 895, 902, 898}, true},
		{"noise: mean 7 % lower, runs all over the place", []int64{1200, 700, 1100, 650, 1000}, false},
		{"significant drop of 2 %, under the threshold", []int64{980, 981, 979, 980, 980}, false},
		{"faster", []int64{1100, 1110, 1090, 1105, 1095}, false},
	} {
		cur := synthRun(t, synth{series: "batch", workload: "QT1", templates: []string{"QT1"}, perRun: c.perRun})
		r, err := Build([]*Run{cur}, Options{Baseline: []*Run{base}})
		if err != nil {
			t.Fatal(err)
		}
		v := r.Check(mustThresholds(t, "regression>5%"))
		if (len(v) > 0) != c.fail {
			t.Errorf("%s: violations %q, want failure %v (regressions %+v)", c.name, v, c.fail, r.Regressions)
		}
	}
	// Without a matching baseline, the gate cannot pass silently.
	other := synthRun(t, synth{series: "memo", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{1, 2, 3}})
	r, _ := Build([]*Run{other}, Options{Baseline: []*Run{base}})
	if v := r.Check(mustThresholds(t, "regression>5%")); len(v) != 1 || !strings.Contains(v[0], "nothing compared") {
		t.Errorf("no matching baseline: %q", v)
	}
}

// TestChecks covers errors, goodput and latency quantiles.
func TestChecks(t *testing.T) {
	run := synthRun(t, synth{series: "batch", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{100, 100}, errors: 2})
	r, err := Build([]*Run{run}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec string
		n    int
	}{
		{"errors>0", 1},              // 6 errors
		{"errors>6", 0},              // not more than 6
		{"errors>1%", 1},             // 2 %
		{"goodput<99", 1},            // 98 correct answers/s
		{"goodput<90", 0},            //
		{"p99>1ms", 1},               // QETs reach 1.99 ms
		{"p99>2ms", 0},               //
		{"p50>1ms,errors>0", 2},      // both
		{"wrong>0,regression>5%", 1}, // no baseline: says so
	} {
		if v := r.Check(mustThresholds(t, c.spec)); len(v) != c.n {
			t.Errorf("%s: %d violations %q, want %d", c.spec, len(v), v, c.n)
		}
	}
}

// TestScalingCharts: runs at several scale factors, clients and pool sizes
// get the line charts of paper Fig. 9 and 10.
func TestScalingCharts(t *testing.T) {
	var runs []*Run
	for _, s := range []string{"naive", "batch"} {
		for _, sf := range []string{"1", "2", "4"} {
			runs = append(runs, synthRun(t, synth{series: s, sf: sf, pool: "10", workload: "QT5", templates: []string{"QT5"}, perRun: []int64{400 / int64(len(sf)), 390}}))
		}
		for _, c := range []int{2, 4} {
			for _, pool := range []string{"5", "10"} {
				runs = append(runs, synthRun(t, synth{series: s, sf: "1", pool: pool, clients: c, workload: "QT5", templates: []string{"QT5"}, perRun: []int64{int64(100 * c), int64(100*c + 5)}}))
			}
		}
	}
	r, err := Build(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range r.charts {
		if c.SVG == "" {
			t.Errorf("%s not drawn: %s", c.ID, c.Caption)
		}
		ids[c.ID] = true
	}
	for _, want := range []string{"sf-atpt-closed-clients-1-pool-10-qt5", "clients-atpt-closed-sf-1-qt5"} {
		if !ids[want] {
			t.Errorf("no chart %s among %v", want, ids)
		}
	}
	if len(r.Varying) != 3 || r.Varying[0] != "sf" {
		t.Errorf("varying %v, want sf, clients, pool", r.Varying)
	}
	// A heat map per condition: the first on the first screen, the others
	// opening the throughput section.
	if all, first := len(r.chartsWith("heatmap")), len(r.overviewMaps()); all < 2 || first != 1 {
		t.Errorf("%d heat maps, %d of them in the overview: want several, one", all, first)
	}
	if !strings.Contains(r.Headline[0], "under 7 conditions") {
		t.Errorf("headline %q: want the count of conditions", r.Headline)
	}
}

// TestLoadErrorsNameTheFile: a missing or corrupt file is an error that
// names it (and the line).
func TestLoadErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.jsonl")
	if _, err := ReadRuns(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	data, _ := os.ReadFile("testdata/batch-qt3.jsonl")
	lines := strings.SplitAfter(string(data), "\n")
	lines[2] = `{"type":"interval","run":"one"}` + "\n" // a string for a number
	os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644)
	if _, err := ReadRuns(bad); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("corrupt file: %v", err)
	}
	if _, err := Build(nil, Options{}); err == nil {
		t.Error("a report of no runs built")
	}
	if _, err := NewRun("x", &runfile.File{}); err == nil {
		t.Error("a run without a header accepted")
	}
}

// TestSummaryText: the terminal summary names every series and template.
func TestSummaryText(t *testing.T) {
	var b bytes.Buffer
	fixtureReport(t).Summary(&b)
	for _, s := range []string{"naive", "batch", "QT3", "QT5", "QT11", "throughput/s", "warm-up runs excluded"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("summary lacks %q:\n%s", s, b.String())
		}
	}
	// Two series: a row per condition and template, a column per series,
	// the other series' throughput with its ratio to the reference.
	r := fixtureReport(t)
	var naive, batch Throughput
	for _, tp := range r.Throughput {
		if tp.Mode == "closed" && tp.Workload == "QT3" {
			if tp.Series == "naive" {
				naive = tp
			} else {
				batch = tp
			}
		}
	}
	row := ""
	for _, l := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(l); len(f) > 4 && f[0] == "closed" && f[2] == "QT3" && f[3] == "QT3" {
			row = l
		}
	}
	for _, want := range []string{meanSDCell(naive.Stat), meanSDCell(batch.Stat), fmt.Sprintf("(%.2f×)", batch.Mean/naive.Mean)} {
		if !strings.Contains(row, want) {
			t.Errorf("the closed-loop QT3 row %q lacks %q:\n%s", row, want, b.String())
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := fixtureReport(t).Write(&bytes.Buffer{}, "pdf"); err == nil {
		t.Error("pdf accepted")
	}
}

// TestHTMLEscapesRunText: labels come from run files; in the HTML (tables
// and SVG text alike) they are text, never markup.
func TestHTMLEscapesRunText(t *testing.T) {
	run := synthRun(t, synth{series: `<img src=x onerror=alert(1)>&`, workload: "QT1", templates: []string{"QT1"}, perRun: []int64{10, 12, 11}})
	r, err := Build([]*Run{run}, Options{Notes: []string{"<script>alert(1)</script>"}})
	if err != nil {
		t.Fatal(err)
	}
	html := string(render(t, r, "html"))
	if strings.Contains(html, "<img") || strings.Contains(html, "<script") {
		t.Errorf("run text reached the page as markup")
	}
	if !strings.Contains(html, "&lt;img src=x") {
		t.Errorf("the series name is missing from the page")
	}
}

// TestOddRuns: a file with a header alone, or cut short before its
// summary, still makes a report that says so.
func TestOddRuns(t *testing.T) {
	data, err := os.ReadFile("testdata/naive-qt3.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for name, text := range map[string]string{
		"header only": lines[0],
		"cut short":   strings.Join(lines[:3], "") + lines[3][:40],
	} {
		f, err := runfile.Read(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		run, err := NewRun(name, f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, err := Build([]*Run{run}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, format := range Formats {
			out := string(render(t, r, format))
			if format == "html" && !strings.Contains(out, `status &#34;incomplete&#34;`) {
				t.Errorf("%s: the HTML does not say the run is incomplete", name)
			}
		}
	}
}

// TestMarkdownTables: every table's delimiter row has one cell per header
// cell, as GitHub-flavoured Markdown requires to recognise a table at all.
func TestMarkdownTables(t *testing.T) {
	lines := strings.Split(string(render(t, fixtureReport(t), "md")), "\n")
	tables := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "|---") {
			continue
		}
		tables++
		cells := func(row string) int {
			row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
			return len(strings.Split(strings.ReplaceAll(row, `\|`, ""), "|"))
		}
		if i == 0 || cells(l) != cells(lines[i-1]) || strings.HasSuffix(l, "||") {
			t.Errorf("line %d: delimiter row %q under header %q", i+1, l, lines[max(i-1, 0)])
		}
	}
	if tables < 5 {
		t.Errorf("%d tables in the Markdown report", tables)
	}
}

// TestCPUChart: a query's CPU splits into the server (the first watched
// process) and its database (the others), stacked per series and template;
// the load generator is left out.
func TestCPUChart(t *testing.T) {
	k := func(series, tmpl string) Key {
		return Key{Series: series, Mode: "closed", SF: "10", Clients: 1, Workload: tmpl}
	}
	r := &Report{Series: []Series{{Name: "naive"}, {Name: "batch"}}}
	for _, p := range []Process{
		{Key: k("naive", "QT2"), Name: "gqlbench", CPUPerQuery: 943},
		{Key: k("naive", "QT2"), Name: "postgres", CPUPerQuery: 395},
		{Key: k("naive", "QT2"), Name: "load generator", CPUPerQuery: 30},
		{Key: k("batch", "QT2"), Name: "gqlbench", CPUPerQuery: 848},
		{Key: k("batch", "QT2"), Name: "postgres", CPUPerQuery: 315},
		{Key: k("batch", "mix1"), Name: "gqlbench", CPUPerQuery: 500}, // a mixed workload: not per template
	} {
		r.Processes = append(r.Processes, p)
	}
	gs := r.cpuGroups()
	if len(gs) != 1 || len(gs[0].rows) != 2 {
		t.Fatalf("groups %+v", gs)
	}
	for _, c := range gs[0].rows {
		want := map[string][2]float64{"naive": {943, 395}, "batch": {848, 315}}[c.Series]
		if c.server != want[0] || c.database != want[1] || c.dbName != "postgres" {
			t.Errorf("%s: server %v, database %v (%s); want %v", c.Series, c.server, c.database, c.dbName, want)
		}
	}
	cs := r.cpuCharts(gs[0])
	if len(cs) != 1 || cs[0].SVG == "" || !strings.HasPrefix(cs[0].ID, "cpu-per-query") || cs[0].Bars != 2 ||
		!slices.ContainsFunc(cs[0].Legend, func(e plot.Legend) bool { return e.Name == "database (postgres)" }) {
		t.Errorf("charts %+v", cs)
	}
}
