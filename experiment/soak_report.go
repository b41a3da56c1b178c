package experiment

import (
	"fmt"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// soakResult is one variant's soak: its timeline, its readings and the
// verdicts.
type soakResult struct {
	variant   string
	goRuntime bool // the live heap is measured (else RSS)
	users     int
	points    []memPoint
	sum       *runfile.Summary // the load's run
	warmRate  float64          // the warm-up's answers/s: the load's length for --requests

	baseline, after  memPoint // read after a forced GC
	settled          bool     // the settle period completed
	loadFrom, loadTo float64  // the load's span on the timeline, s

	fitX, fitY []float64 // the fitted series: s, bytes
	trend      report.Trend
	fitted     bool
	inUse      bool   // fitted on the heap in use: too few GC cycles for the live heap
	why        string // why there is no verdict
	leak       bool
	returned   bool
}

// minFitPoints is the fewest points a leak verdict is fitted on.
const minFitPoints = 8

// maxFitPoints bounds the points fitted: Theil–Sen weighs every pair, so
// a long soak's points are thinned to every k-th (2,000 points are
// 2 million pairs).
const maxFitPoints = 2000

// thin keeps every k-th of xs, so that at most n remain.
func thin(xs []float64, n int) []float64 {
	if len(xs) <= n {
		return xs
	}
	k := (len(xs) + n - 1) / n
	var out []float64
	for i := 0; i < len(xs); i += k {
		out = append(out, xs[i])
	}
	return out
}

// judge fits the trend and reaches the verdicts.
func (r *soakResult) judge(e Soak) {
	from := r.loadFrom + e.FitFrom*(r.loadTo-r.loadFrom)
	last := int64(-1)
	for _, p := range r.points {
		if p.Phase != "load" || p.T < from || p.Forced {
			continue
		}
		switch {
		case !r.goRuntime:
			r.fitX, r.fitY = append(r.fitX, p.T), append(r.fitY, float64(p.RSSBytes))
		case p.Runtime != nil && p.Runtime.Error == "" && p.Runtime.GCCycles > last:
			if last >= 0 { // the first reading's GC may predate the window
				r.fitX, r.fitY = append(r.fitX, p.T), append(r.fitY, float64(p.Runtime.HeapLiveBytes))
			}
			last = p.Runtime.GCCycles
		}
	}
	if r.goRuntime && len(r.fitX) < minFitPoints {
		// A heap that grows makes its GC cycles rarer (each aims at twice
		// the live heap): too few to fit, the heap in use at every sample
		// stands in, its GC sawtooth the noise.
		r.fitX, r.fitY, r.inUse = nil, nil, true
		for _, p := range r.points {
			if p.Phase == "load" && p.T >= from && !p.Forced && p.Runtime != nil && p.Runtime.Error == "" {
				r.fitX, r.fitY = append(r.fitX, p.T), append(r.fitY, float64(p.Runtime.HeapInUseBytes))
			}
		}
	}
	r.fitX, r.fitY = thin(r.fitX, maxFitPoints), thin(r.fitY, maxFitPoints)
	if len(r.fitX) < minFitPoints {
		r.why = fmt.Sprintf("%d points to fit, fewer than %d: a longer load (--requests, --duration) or a shorter --sample", len(r.fitX), minFitPoints)
	} else if r.trend, r.fitted = report.TheilSen(r.fitX, r.fitY, e.Level); !r.fitted {
		r.why = "no fit: the points share one time"
	}
	r.leak = r.fitted && r.trend.Rising(e.MinLeakRate/3600)
	if r.settled {
		b, a := r.memory(r.baseline), r.memory(r.after)
		r.returned = a <= b*(1+e.Tolerance)+(1<<20)
	}
}

// memory is the fitted measure of a point: the live heap, or RSS.
func (r *soakResult) memory(p memPoint) float64 {
	if r.goRuntime && p.Runtime != nil && p.Runtime.Error == "" {
		return float64(p.Runtime.HeapLiveBytes)
	}
	return float64(p.RSSBytes)
}

// what names the fitted measure.
func (r *soakResult) what() string {
	if r.inUse {
		return "heap in use (too few GC cycles for the live heap)"
	}
	if r.goRuntime {
		return "live heap after GC"
	}
	return "RSS"
}

// mbh writes a slope in bytes/s as MB/h.
func mbh(bytesPerSec float64) string { return fmt.Sprintf("%+.3f MB/h", bytesPerSec*3600/1e6) }

// verdictLine is the one line of the verdict: leak: no|yes, the slope and
// its interval, and the return to the pre-test state.
func (r *soakResult) verdictLine() string {
	var line string
	switch {
	case !r.fitted:
		line = "leak: unknown (" + r.why + ")"
	default:
		t := r.trend
		word := "no"
		if r.leak {
			word = "yes"
		}
		line = fmt.Sprintf("leak: %s %s (%.0f %% CI [%s, %s]) of the %s over %d points in %.0fs; detects ≥ %s",
			word, mbh(t.Slope), 100*t.Level, mbh(t.Lo), mbh(t.Hi), r.what(), t.N, r.fitX[len(r.fitX)-1]-r.fitX[0], mbh((t.Hi-t.Lo)/2))
	}
	if r.settled {
		back := "yes"
		if !r.returned {
			back = "no"
		}
		line += fmt.Sprintf("; back to the pre-test state: %s (%s %.1f → %.1f MiB)", back, r.measureName(), r.memory(r.baseline)/(1<<20), r.memory(r.after)/(1<<20))
	}
	return line
}

// verdicts are the soak's two lines: the leak (a slope whose interval is
// wholly above zero, and at least --min-leak-rate: suite --fail-if
// leak-rate>X), and the return to the pre-test state (judged for the Go
// servers' live heap; a peer's RSS is shown).
func (r *soakResult) verdicts(e Soak) []Verdict {
	leak := Verdict{Variant: r.variant, Measure: "leak", Metric: "leak-rate", Value: "not measured", Unit: "MB/h",
		Threshold: fmt.Sprintf("no rise with its %.0f %% CI above 0", 100*e.Level), Result: NA, Detail: r.why}
	if e.MinLeakRate > 0 {
		leak.Threshold += fmt.Sprintf(" and ≥ %g MB/h", e.MinLeakRate/1e6)
	}
	if r.fitted {
		t := r.trend
		leak.Value, leak.Number, leak.Result = mbh(t.Slope), numPtr(t.Slope*3600/1e6), resultOf(!r.leak)
		leak.Detail = fmt.Sprintf("%s, %.0f %% CI [%s, %s], %d points; detects ≥ %s", r.what(), 100*t.Level, mbh(t.Lo), mbh(t.Hi), t.N, mbh((t.Hi-t.Lo)/2))
	}
	back := Verdict{Variant: r.variant, Measure: "back to the pre-test state", Value: "not measured", Result: NA,
		Threshold: fmt.Sprintf("≤ baseline + %.0f %% + 1 MiB", 100*e.Tolerance), Detail: "the settle period did not complete"}
	if r.settled {
		back.Value = fmt.Sprintf("%s %.1f → %.1f MiB", r.measureName(), r.memory(r.baseline)/(1<<20), r.memory(r.after)/(1<<20))
		back.Result, back.Detail = resultOf(r.returned), ""
		if !r.goRuntime {
			back.Result, back.Detail = Info, "a peer's RSS: shown, not judged (a runtime rarely gives memory back to the system)"
		}
	}
	return []Verdict{leak, back}
}

func (r *soakResult) measureName() string {
	if r.goRuntime {
		return "live heap"
	}
	return "RSS"
}

// soakSection is the report's section: the verdicts, the readings, and the
// charts over time.
func soakSection(e Soak, rs []*soakResult) report.Section {
	sec := report.Section{ID: "soak", Title: "Memory soak (seed 003)"}
	sum := report.Table{Title: "Verdicts", Head: []string{"variant", "requests / user", "answers / s", "GC cycles in the load", "time between GCs", "GC CPU %", "slope", "CI", "detects ≥", "leak", "back to pre-test state"}}
	read := report.Table{Title: "Readings", Note: "Baseline and after settle: read after a forced GC. In the load: the first and last samples of the load.",
		Head: []string{"variant", "reading", "t (s)", "live heap (MiB)", "heap in use (MiB)", "RSS (MiB)", "live objects", "GC cycles", "goroutines"}}
	for i, r := range rs {
		sec.Paras = append(sec.Paras, r.variant+": "+r.verdictLine())
		sum.Rows = append(sum.Rows, r.summaryRow())
		for _, rd := range r.readings() {
			read.Rows = append(read.Rows, append([]string{r.variant, rd.name}, pointCells(rd.p)...))
		}
		sec.Lines = append(sec.Lines, r.charts(i)...)
	}
	sec.Paras = append(sec.Paras, "Seed 003's published results (GraphQL ASP.NET v0.14.0-beta, 2022-11-30): no objects surviving to Gen1 or Gen2, a GC cycle about every 33 seconds (v0.13.1: every 20 s); a qualitative test, with no leak figure.")
	sec.Tables = []report.Table{sum, read}
	return sec
}

// summaryRow is the variant's line of the verdicts table.
func (r *soakResult) summaryRow() []string {
	row := []string{r.variant, "–", "–", "–", "–", "–", "–", "–", "–", "unknown", "–"}
	if r.sum != nil && r.users > 0 {
		row[1] = fmt.Sprintf("%d", r.sum.Total.Count/int64(r.users))
		row[2] = fmt.Sprintf("%.1f", r.sum.Throughput.Mean)
	}
	if a, b, ok := r.loadEnds(); ok && a.Runtime != nil && b.Runtime != nil {
		n := b.Runtime.GCCycles - a.Runtime.GCCycles
		row[3] = fmt.Sprint(n)
		if n > 0 {
			row[4] = (time.Duration((b.T - a.T) / float64(n) * 1e9)).Round(time.Millisecond).String()
		}
		if pct, ok := measure.GCPercent(*a.Runtime, *b.Runtime); ok {
			row[5] = fmt.Sprintf("%.2f", pct)
		}
	}
	if r.fitted {
		t := r.trend
		row[6], row[7], row[8] = mbh(t.Slope), "["+mbh(t.Lo)+", "+mbh(t.Hi)+"]", mbh((t.Hi-t.Lo)/2)
		row[9] = map[bool]string{true: "yes", false: "no"}[r.leak]
	}
	if r.settled {
		row[10] = map[bool]string{true: "yes", false: "no"}[r.returned]
	}
	return row
}

// loadEnds are the first and last points of the load with runtime metrics.
func (r *soakResult) loadEnds() (a, b memPoint, ok bool) {
	var in []memPoint
	for _, p := range r.points {
		if p.Phase == "load" && !p.Forced && (!r.goRuntime || p.Runtime != nil && p.Runtime.Error == "") {
			in = append(in, p)
		}
	}
	if len(in) < 2 {
		return a, b, false
	}
	return in[0], in[len(in)-1], true
}

type reading struct {
	name string
	p    memPoint
}

func (r *soakResult) readings() []reading {
	out := []reading{{"baseline", r.baseline}}
	if a, b, ok := r.loadEnds(); ok {
		out = append(out, reading{"load start", a}, reading{"load end", b})
	}
	if r.settled {
		out = append(out, reading{"after settle", r.after})
	}
	return out
}

// pointCells are a reading's cells from t on.
func pointCells(p memPoint) []string {
	c := []string{fmt.Sprintf("%.1f", p.T), "–", "–", fmt.Sprintf("%.1f", float64(p.RSSBytes)/(1<<20)), "–", "–", "–"}
	if rt := p.Runtime; rt != nil && rt.Error == "" {
		c[1], c[2] = fmt.Sprintf("%.2f", float64(rt.HeapLiveBytes)/(1<<20)), fmt.Sprintf("%.2f", float64(rt.HeapInUseBytes)/(1<<20))
		c[4], c[5], c[6] = fmt.Sprint(rt.HeapObjects), fmt.Sprint(rt.GCCycles), fmt.Sprint(rt.Goroutines)
	}
	return c
}

// charts are the variant's charts over time: memory with the fitted
// trend, live objects, and the time between GCs.
func (r *soakResult) charts(color int) []report.LineChart {
	var live, inuse, rss, objs, gap report.LineSeries
	live = report.LineSeries{Name: "live heap", Color: 0}
	inuse = report.LineSeries{Name: "heap in use", Color: 1}
	rss = report.LineSeries{Name: "RSS", Color: 2}
	objs = report.LineSeries{Name: "live objects", Color: color}
	gap = report.LineSeries{Name: "time between GCs", Color: color}
	var prev *memPoint
	for i := range r.points {
		p := &r.points[i]
		rss.Xs, rss.Ys = append(rss.Xs, p.T), append(rss.Ys, float64(p.RSSBytes)/(1<<20))
		if rt := p.Runtime; rt != nil && rt.Error == "" {
			live.Xs, live.Ys = append(live.Xs, p.T), append(live.Ys, float64(rt.HeapLiveBytes)/(1<<20))
			inuse.Xs, inuse.Ys = append(inuse.Xs, p.T), append(inuse.Ys, float64(rt.HeapInUseBytes)/(1<<20))
			objs.Xs, objs.Ys = append(objs.Xs, p.T), append(objs.Ys, float64(rt.HeapObjects))
			if prev != nil && rt.GCCycles > prev.Runtime.GCCycles && !p.Forced {
				gap.Xs = append(gap.Xs, p.T)
				gap.Ys = append(gap.Ys, (p.T-prev.T)/float64(rt.GCCycles-prev.Runtime.GCCycles))
			}
			prev = p
		}
	}
	mem := []report.LineSeries{live, inuse, rss}
	if r.fitted {
		x0, x1 := r.fitX[0], r.fitX[len(r.fitX)-1]
		y := func(x float64) float64 { return (r.trend.Intercept + r.trend.Slope*x) / (1 << 20) }
		mem = append(mem, report.LineSeries{Name: "trend (" + r.what() + ")", Color: 3, Style: 1, Xs: []float64{x0, x1}, Ys: []float64{y(x0), y(x1)}})
	}
	phases := fmt.Sprintf("The load runs from %.0f s to %.0f s; before it, a warm-up and a baseline, after it the settle period.", r.loadFrom, r.loadTo)
	out := []report.LineChart{{ID: "soak-memory-" + r.variant, Title: r.variant + ": memory over time", XLabel: "time (s)", YLabel: "MiB",
		Caption: "The server's memory every sample: the Go runtime's live heap (as of the last GC) and heap in use, and the process's RSS; the dashed line is the fitted trend. " + phases,
		Lines:   mem}}
	if len(objs.Xs) > 1 {
		out = append(out,
			report.LineChart{ID: "soak-objects-" + r.variant, Title: r.variant + ": heap objects over time", XLabel: "time (s)", YLabel: "objects",
				Caption: "Objects in the heap, live or not yet swept. " + phases, Lines: []report.LineSeries{objs}},
			report.LineChart{ID: "soak-gc-" + r.variant, Title: r.variant + ": time between GC cycles", XLabel: "time (s)", YLabel: "s",
				Caption: "The mean time between GC cycles over each sample step that saw one (seed 003: a cycle about every 20–33 s). " + phases, Lines: []report.LineSeries{gap}})
	}
	return out
}
