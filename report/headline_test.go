package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/report/plot"
)

// TestQuickstartFirstScreen: a quickstart-shaped report opens on its
// answer: with one measured run per template no template has a clear
// winner (no test can tell), but the speed-ups over all templates are
// given; then the caveat of one short run, the ceiling as a reference, and
// correctness in one line; the conditions every run shares are said once,
// not repeated in columns.
func TestQuickstartFirstScreen(t *testing.T) {
	r, err := Build(quickstartRuns(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"No clear winner on any of the 16 templates: each figure rests on one measured run, too few for a test.",
		"Over all 16 templates, the geometric mean speed-up over naive: inmem 2.10×, compiled 2.10×, batch-memo 1.05×, memo 0.97×, batch 0.90×."}
	if !slices.Equal(r.Headline, want) {
		t.Errorf("headline\n%q\nwant\n%q", r.Headline, want)
	}
	for _, c := range []string{"Each figure is one measured run of 1s: with no confidence interval",
		"null measures the load generator's ceiling: 9,000 queries/s on typename (the dashed line in the throughput charts)."} {
		if !slices.ContainsFunc(r.Caveats, func(s string) bool { return strings.Contains(s, c) }) {
			t.Errorf("caveats %q lack %q", r.Caveats, c)
		}
	}
	var verified int64
	for _, s := range r.Series {
		verified += s.Verified
	}
	if v := fmt.Sprintf("97 run files, %s answers verified, 0 wrong, 0 errors.", thousands(verified)); r.Verdict != v {
		t.Errorf("verdict %q, want %q", r.Verdict, v)
	}
	null := r.Series[len(r.Series)-1]
	if null.Name != "null" || !null.Ceiling || !null.Apart || r.Reference != "naive" {
		t.Errorf("series %+v, reference %q: want null a ceiling apart, naive the reference", r.Series, r.Reference)
	}
	if !slices.Equal(r.Varying, []string{"workload"}) || len(r.Constant) != 5 {
		t.Errorf("varying %v, held constant %v: want the workload alone to vary", r.Varying, r.Constant)
	}
	md := string(render(t, r, "md"))
	if !strings.Contains(md, "Held constant (so the tables leave these columns out): mode closed, sf 1, clients 1, pool 10, workload one template per run.") {
		t.Error("no held-constant line")
	}
	if !strings.Contains(md, "| series | template | runs | mean ± sd /s |") {
		t.Errorf("the aTPt table repeats constant columns:\n%s", md[strings.Index(md, "### aTPt"):][:600])
	}
	for _, row := range r.Throughput {
		if row.Series == "null" && (row.Rank != 0 || row.Ratio != 0) {
			t.Errorf("the ceiling is ranked: %+v", row)
		}
	}
}

// TestMarkdownOrder: Markdown follows the page: the headline, the
// verdict, the matrix, then the details.
func TestMarkdownOrder(t *testing.T) {
	r, err := Build(quickstartRuns(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := string(render(t, r, "md"))
	at := -1
	for _, s := range []string{"**No clear winner", "✓ 97 run files", "### Speed-up over naive (closed, sf=1, clients=1, pool=10)",
		"| QT1 | 2,193/s |", "| QT3 | 2,450/s | 0.99× | 0.94× | 1.05× | 2.65× | 2.18× |", "## Throughput per template (aTPt)", "## Per template",
		"- **QT8**: No clear winner: inmem, 32.0/s (2.13× naive), then compiled, 28.0/s.", "## Reproduction"} {
		i := strings.Index(md, s)
		if i <= at {
			t.Errorf("%q at %d, after %d: out of order or missing", s, i, at)
			continue
		}
		at = i
	}
}

// TestChartsReadable holds every chart of several reports to the issue's
// bar: at most plot.MaxBars bars or boxes (counted in the SVG as well), a log
// scale said so in its label when the values span more than logSpan, the
// same colour for a series everywhere, and the ceiling never a chart of
// its own, only a reference line.
func TestChartsReadable(t *testing.T) {
	qs, err := Build(quickstartRuns(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	barFill := regexp.MustCompile(`fill:(#[0-9A-F]{6})`)
	series := map[string]bool{}
	for _, c := range plot.Palette[:len(plot.Palette)-1] {
		series[strings.ToUpper(plot.HexColor(c))] = true
	}
	for _, r := range []*Report{qs, fixtureReport(t)} {
		colour := map[string]string{} // a series' colour in this report
		for _, c := range r.charts {
			drawn := 0
			for _, m := range barFill.FindAllStringSubmatch(c.SVG, -1) {
				if series[m[1]] {
					drawn++
				}
			}
			if c.Bars > plot.MaxBars || drawn > plot.MaxBars || drawn != c.Bars && !strings.HasPrefix(c.ID, "heatmap") && c.Bars > 0 {
				t.Errorf("%s: %d bars counted, %d drawn (at most %d)", c.ID, c.Bars, drawn, plot.MaxBars)
			}
			if c.LogY != strings.Contains(c.SVG, "(log scale)") {
				t.Errorf("%s: log scale %v, but its label says otherwise", c.ID, c.LogY)
			}
			only := ""
			for _, e := range c.Legend {
				if strings.HasPrefix(c.ID, "heatmap") {
					continue
				}
				if strings.HasPrefix(e.Name, "null") && (e.Mark != "line" || e.Dash == "") {
					t.Errorf("%s: the ceiling is drawn as a series: %+v", c.ID, e)
				}
				if prev, ok := colour[e.Name]; ok && prev != e.Color && e.Mark == "box" {
					t.Errorf("%s: %s is %s here, %s elsewhere", c.ID, e.Name, e.Color, prev)
				}
				if e.Mark == "box" {
					colour[e.Name] = e.Color
				}
				only = e.Name
			}
			if len(c.Legend) == 1 && strings.HasPrefix(only, "null") {
				t.Errorf("%s: a chart of the ceiling alone", c.ID)
			}
		}
	}
	// The aTPt bars come in three charts of six, five and five templates;
	// the second holds QT8, two orders of magnitude below the rest.
	parts := 0
	for _, c := range qs.charts {
		if id, ok := strings.CutPrefix(c.ID, "atpt-bars-closed-sf-1-clients-1-pool-10-"); ok {
			parts++
			if c.LogY != (id == "2") {
				t.Errorf("%s (%s): log scale %v", c.ID, c.Title, c.LogY)
			}
		}
	}
	if parts != 3 {
		t.Errorf("the aTPt bars of 6 series × 16 templates in %d charts, want 3", parts)
	}
}

// TestHeadlineAnySeries: the headline reads the same for any series and
// labels: other servers, operations that are not LinGBM templates, repeated
// runs (a significance test), a single series, and a baseline.
func TestHeadlineAnySeries(t *testing.T) {
	var runs []*Run
	for _, s := range []struct {
		name string
		book []int64
		auth []int64
	}{
		{"postgraphile", []int64{500, 510, 490}, []int64{300, 305, 295}},
		{"node-batch", []int64{700, 690, 710}, []int64{302, 290, 310}},
		{"rest", []int64{900, 905, 895}, []int64{200, 202, 198}},
	} {
		runs = append(runs, synthRun(t, synth{series: s.name, workload: "Book", templates: []string{"Book"}, perRun: s.book}),
			synthRun(t, synth{series: s.name, workload: "Author", templates: []string{"Author"}, perRun: s.auth}))
	}
	r, err := Build(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// node-batch's lead on Author (1.00×) is within the noise: no winner there
	want := []string{"rest is the fastest on Book, 1.80× postgraphile; no clear winner on Author (the fastest is not significantly faster than the runner-up: Welch's t-test, α = 0.05).",
		"Over all 2 templates, the geometric mean speed-up over postgraphile: node-batch 1.18×, rest 1.10×."}
	if !slices.Equal(r.Headline, want) {
		t.Errorf("headline\n%q\nwant\n%q", r.Headline, want)
	}
	one, err := Build(runs[:2], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "postgraphile over 2 templates: a median of 400 queries/s, from 300 on Author to 500 on Book."; !slices.Equal(one.Headline, []string{want}) {
		t.Errorf("one series: %q, want %q", one.Headline, want)
	}
	slow := synthRun(t, synth{series: "postgraphile", workload: "Book", templates: []string{"Book"}, perRun: []int64{450, 452, 448}})
	base, err := Build([]*Run{slow}, Options{Baseline: runs[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if h := base.Headline[0]; !strings.HasPrefix(h, "Against the baseline, 1 of 1 throughputs dropped significantly: postgraphile Book -10.0 %") {
		t.Errorf("baseline: %q", h)
	}
}

// TestWrongSeriesInHeadline: a fast series with wrong answers wins
// nothing; the verdict names it.
func TestWrongSeriesInHeadline(t *testing.T) {
	good := synthRun(t, synth{series: "naive", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{100, 102, 98}})
	fast := synthRun(t, synth{series: "fast", workload: "QT1", templates: []string{"QT1"}, perRun: []int64{1000, 1010, 990}, wrong: 3})
	r, err := Build([]*Run{fast, good}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Headline[0]; !strings.HasPrefix(h, "naive is faster than fast on QT1") {
		t.Errorf("headline %q", h)
	}
	if !strings.HasSuffix(r.Verdict, "12 wrong (fast 12), 0 errors.") {
		t.Errorf("verdict %q", r.Verdict)
	}
	html := string(render(t, r, "html"))
	if !strings.Contains(html, `class="verdict bad"`) || !strings.Contains(html, "✗ 10.0×") {
		t.Error("the page does not mark the wrong series in the verdict and the heat map")
	}
}

// TestMDText: a < that could open HTML is escaped, one that cannot (p <
// 0.001, p<0.0001) is kept as written; emphasis characters are escaped.
func TestMDText(t *testing.T) {
	for in, want := range map[string]string{
		"p < 0.001":          "p < 0.001",
		"slo p99<20ms":       "slo p99<20ms",
		"<script>x</script>": "&lt;script>x&lt;/script>",
		"a_b *c*":            `a\_b \*c\*`,
		"<!-- x -->":         "&lt;!-- x -->",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}
