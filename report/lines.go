package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// dashStyles tell apart the lines of one series, in points: solid, dashed,
// dash-dot, long dashes. wrongDash dots the lines of a series that returned
// wrong answers.
var (
	dashStyles = [][]float64{nil, {4, 2}, {7, 2, 1.5, 2}, {9, 3}}
	wrongDash  = []float64{1, 2}
)

// dashAttr is a dash pattern in points as an SVG stroke-dasharray in CSS
// pixels ("" for solid).
func dashAttr(d []float64) string {
	var parts []string
	for _, x := range d {
		parts = append(parts, strconv.FormatFloat(x*4/3, 'f', 1, 64))
	}
	return strings.Join(parts, ",")
}

// line is one series of points with optional error bars.
type line struct {
	name    string
	color   int
	wrong   bool // dotted, whatever its style
	style   int  // dashStyles index: lines of one series told apart (p50 and p99, pool sizes)
	xs, ys  []float64
	lo, hi  []float64 // error bar ends, nil for none
	markers bool
}

// lineChart draws lines (paper Fig. 9 and 10, latency–throughput, time
// series); logX puts x on a log scale.
func (r *Report) lineChart(id, title, caption, xlabel, ylabel string, lines []line, logX bool) (chart, error) {
	c := chart{ID: id, Title: title, Caption: caption}
	p := newPlot(xlabel, ylabel)
	var ys []float64
	for _, l := range lines {
		ys = append(ys, l.ys...)
		ys = append(ys, l.lo...)
		ys = append(ys, l.hi...)
	}
	if c.LogY = logY(p, ys); c.LogY {
		for _, l := range lines {
			for i := range l.lo {
				l.lo[i] = max(l.lo[i], p.Y.Min)
			}
		}
	} else {
		p.Y.Min = 0
	}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for _, l := range lines {
		xys := make(plotter.XYs, len(l.xs))
		for i := range l.xs {
			xys[i] = plotter.XY{X: l.xs[i], Y: l.ys[i]}
		}
		ln, err := plotter.NewLine(xys)
		if err != nil {
			return c, err
		}
		col := colorOf(l.color)
		dash := dashStyles[l.style%len(dashStyles)]
		if l.wrong {
			dash = wrongDash
		}
		ln.Color, ln.Width = col, vg.Points(1.5)
		for _, d := range dash {
			ln.Dashes = append(ln.Dashes, vg.Points(d))
		}
		p.Add(ln)
		if l.markers {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return c, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		if l.lo != nil {
			errs := make(plotter.YErrors, len(l.xs))
			for i := range l.xs {
				errs[i] = struct{ Low, High float64 }{l.ys[i] - l.lo[i], l.hi[i] - l.ys[i]}
			}
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{xys, errs})
			if err != nil {
				return c, err
			}
			eb.Color = col
			p.Add(eb)
		}
		c.Legend = append(c.Legend, legendEntry{Name: legendName(l.name, l.wrong), Color: hexColor(col), Mark: "line", Dash: dashAttr(dash), Wrong: l.wrong})
	}
	headroom(p, isLog(p))
	err := c.render(p)
	return c, err
}

// scaleCharts draws aTPt and aQETq over the scale factor, one line per
// series, when runs at several scale factors exist (paper Fig. 9).
func (r *Report) scaleCharts() []chart {
	var out []chart
	// aTPt over sf: rows grouped by everything but sf and series.
	tp := groupBy(nonMixed(r.Throughput), func(k Key) string { k.SF = ""; return condLabel(k) + ", " + k.Workload })
	for _, g := range tp {
		lines := linesBy(r, g.rows, func(t Throughput) (string, float64, float64, float64, float64, bool) {
			x, err := strconv.ParseFloat(t.SF, 64)
			return t.Series, x, t.Mean, t.Mean - t.SD, t.Mean + t.SD, err == nil
		})
		if distinctX(lines) < 2 || len(out) >= maxChartsPerKind {
			continue
		}
		k := g.rows[0].Key
		k.SF = ""
		c, err := r.lineChart(chartID("sf-atpt", condLabel(k)+"-"+k.Workload), "aTPt of "+k.Workload+" over the scale factor ("+condLabel(k)+")",
			"Mean (±1 sd) completed queries per second over the measured runs, at each scale factor.", "scale factor", "queries / s", lines, false)
		out = append(out, chartOrNote(c, err))
	}
	// aQETq over sf: the mean QET of sequential runs, per template.
	var seq []Latency
	for _, l := range r.Latency {
		if r.perQuery(l.Mode) {
			seq = append(seq, l)
		}
	}
	byTmpl := groupBy(seq, func(k Key) string { k.SF = ""; return condLabel(k) + ", " + k.Workload })
	for _, g := range byTmpl {
		var templates []string
		for _, l := range g.rows {
			if !slices.Contains(templates, l.Template) {
				templates = append(templates, l.Template)
			}
		}
		for _, t := range templates {
			var rows []Latency
			for _, l := range g.rows {
				if l.Template == t {
					rows = append(rows, l)
				}
			}
			lines := linesBy(r, rows, func(l Latency) (string, float64, float64, float64, float64, bool) {
				x, err := strconv.ParseFloat(l.SF, 64)
				return l.Series, x, l.QET.Mean / 1e6, (l.QET.Mean - l.QET.SD) / 1e6, (l.QET.Mean + l.QET.SD) / 1e6, err == nil
			})
			if distinctX(lines) < 2 || len(out) >= 2*maxChartsPerKind {
				continue
			}
			k := g.rows[0].Key
			k.SF = ""
			c, err := r.lineChart(chartID("sf-aqetq", condLabel(k)+"-"+t), "aQETq of "+t+" over the scale factor ("+condLabel(k)+")",
				"Mean (±1 sd) execution time of the template's queries, each run once per pass (sequential runs).", "scale factor", "QET (ms)", lines, false)
			out = append(out, chartOrNote(c, err))
		}
	}
	return out
}

// clientCharts draws aTPt over the number of clients, one line per series
// and pool size, when runs at several client counts exist (paper Fig. 10).
func (r *Report) clientCharts() []chart {
	var out []chart
	gs := groupBy(nonMixed(r.Throughput), func(k Key) string { k.Clients, k.Pool = 0, ""; return condLabel(k) + ", " + k.Workload })
	for _, g := range gs {
		lines := linesBy(r, g.rows, func(t Throughput) (string, float64, float64, float64, float64, bool) {
			name := t.Series
			if t.Pool != "" {
				name += " pool=" + t.Pool
			}
			return name, float64(t.Clients), t.Mean, t.Mean - t.SD, t.Mean + t.SD, t.Clients > 0
		})
		if distinctX(lines) < 2 || len(out) >= maxChartsPerKind {
			continue
		}
		k := g.rows[0].Key
		k.Clients, k.Pool = 0, ""
		c, err := r.lineChart(chartID("clients-atpt", condLabel(k)+"-"+k.Workload), "aTPt of "+k.Workload+" over clients ("+condLabel(k)+")",
			"Mean (±1 sd) completed queries per second with N concurrent clients, one line per series and connection pool size.",
			"clients", "queries / s", lines, false)
		out = append(out, chartOrNote(c, err))
	}
	return out
}

// linesBy makes one line per name from rows, points sorted by x.
func linesBy[T any](r *Report, rows []T, point func(T) (name string, x, y, lo, hi float64, ok bool)) []line {
	var out []line
	var pools []string // several lines per series: one style per pool size
	idx := map[string]int{}
	for _, row := range rows {
		name, x, y, lo, hi, ok := point(row)
		if !ok {
			continue
		}
		i, seen := idx[name]
		if !seen {
			series, pool, _ := strings.Cut(name, " pool=")
			i = len(out)
			idx[name] = i
			if pool != "" && !slices.Contains(pools, pool) {
				pools = append(pools, pool)
			}
			out = append(out, line{name: name, color: r.colorIndex(series), wrong: r.flagged(series), markers: true})
		}
		l := &out[i]
		l.xs, l.ys, l.lo, l.hi = append(l.xs, x), append(l.ys, y), append(l.lo, lo), append(l.hi, hi)
	}
	slices.SortFunc(pools, compareNumeric)
	for i := range out {
		sortLine(&out[i])
		if _, pool, ok := strings.Cut(out[i].name, " pool="); ok {
			out[i].style = slices.Index(pools, pool)
		}
	}
	return out
}

func sortLine(l *line) {
	idx := make([]int, len(l.xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case l.xs[a] < l.xs[b]:
			return -1
		case l.xs[a] > l.xs[b]:
			return 1
		}
		return 0
	})
	pick := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(v))
		for i, j := range idx {
			out[i] = v[j]
		}
		return out
	}
	l.xs, l.ys, l.lo, l.hi = pick(l.xs), pick(l.ys), pick(l.lo), pick(l.hi)
}

func distinctX(lines []line) int {
	seen := map[float64]bool{}
	for _, l := range lines {
		for _, x := range l.xs {
			seen[x] = true
		}
	}
	return len(seen)
}

func chartOrNote(c chart, err error) chart {
	if err != nil {
		c.SVG, c.Caption = "", fmt.Sprintf("(this chart could not be drawn: %v)", err)
	}
	return c
}

// curveChart draws latency against throughput: capacity steps and
// open-loop runs, p99 solid and p50 dashed, one colour per series.
func (r *Report) curveChart() (chart, error) {
	var lines []line
	idx := map[string]int{}
	for _, pt := range r.Curve {
		k := pt.Key
		k.Workload = ""
		name := pt.Series
		if r.condsVary() {
			name += " (" + condLabel(k) + ")"
		}
		i, ok := idx[name]
		if !ok {
			i = len(lines)
			idx[name] = i
			col := r.colorIndex(pt.Series)
			lines = append(lines, line{name: name + " p99", color: col, wrong: r.flagged(pt.Series), markers: true},
				line{name: name + " p50", color: col, style: 1, markers: true})
		}
		if pt.Throughput <= 0 || pt.P99 <= 0 {
			continue
		}
		lines[i].xs, lines[i].ys = append(lines[i].xs, pt.Throughput), append(lines[i].ys, ms(pt.P99))
		lines[i+1].xs, lines[i+1].ys = append(lines[i+1].xs, pt.Throughput), append(lines[i+1].ys, ms(max(pt.P50, 1)))
	}
	var keep []line
	for _, l := range lines {
		if len(l.xs) > 0 {
			sortLine(&l)
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return chart{ID: "latency-throughput", Title: "Latency against throughput", Caption: "(no points with a throughput)"}, nil
	}
	return r.lineChart("latency-throughput", "Latency against throughput",
		"Each point a capacity step or an open-loop run: achieved throughput and the latency from the intended send time (coordinated omission corrected); p99 solid, p50 dashed.",
		"throughput (queries / s)", "latency (ms)", keep, false)
}

// timeCharts draws per-interval time series per series: throughput, and
// the CPU and RSS of the watched processes (seed 001 Tables 2–4), over the
// series' run files one after another.
func (r *Report) timeCharts() []chart {
	type ts struct{ tp, cpu, rss []line }
	var lines ts
	for _, s := range r.Series {
		if s.Ceiling {
			continue
		}
		si := r.colorIndex(s.Name)
		tp := line{name: s.Name, color: si, wrong: s.Flagged}
		procs := map[string]*[2]line{}
		var names []string
		var base, end float64 // seconds: where the current run starts, where the last one ended
		for _, run := range r.runs {
			if run.key.Series != s.Name {
				continue
			}
			cur := [2]int{-1, -1}
			for _, iv := range run.File.Intervals {
				if k := [2]int{iv.Run, iv.Step}; k != cur {
					cur, base = k, end
				}
				if iv.Tail || iv.EndNS <= iv.StartNS {
					continue
				}
				x := base + float64(iv.StartNS+iv.EndNS)/2e9
				end = max(end, base+float64(iv.EndNS)/1e9)
				var n int64
				for _, t := range iv.Templates {
					n += t.Count
				}
				tp.xs, tp.ys = append(tp.xs, x), append(tp.ys, float64(n)/(float64(iv.EndNS-iv.StartNS)/1e9))
				for i, p := range iv.Procs {
					if p.Gone {
						continue
					}
					name := fmt.Sprintf("pid %d", p.PID)
					if w := run.File.Header.Watch; i < len(w) {
						name = w[i].Name
					}
					pl := procs[name]
					if pl == nil {
						pl = &[2]line{}
						procs[name] = pl
						names = append(names, name)
					}
					pl[0].xs, pl[0].ys = append(pl[0].xs, x), append(pl[0].ys, p.CPUPercent)
					pl[1].xs, pl[1].ys = append(pl[1].xs, x), append(pl[1].ys, float64(p.RSSBytes)/(1<<20))
				}
			}
		}
		if len(tp.xs) > 1 {
			lines.tp = append(lines.tp, tp)
		}
		for _, n := range names {
			label := s.Name
			if len(names) > 1 {
				label += " " + n
			}
			for k, dst := range []*[]line{&lines.cpu, &lines.rss} {
				l := procs[n][k]
				l.name, l.color, l.wrong = label, si, s.Flagged
				if len(l.xs) > 1 {
					*dst = append(*dst, l)
				}
			}
		}
	}
	var out []chart
	timeChart := func(id, title, caption, y string, ls []line) {
		if len(ls) == 0 {
			return
		}
		c, err := r.lineChart(id, title, caption, "time (s, each series' run files one after another)", y, ls, false)
		out = append(out, chartOrNote(c, err))
	}
	timeChart("time-throughput", "Throughput per interval", "Completed queries per second in each interval line, warm-up runs included.", "queries / s", lines.tp)
	timeChart("time-cpu", "CPU of the watched processes", "CPU % of each --watch-pid process per interval (100 % = one core).", "CPU %", lines.cpu)
	timeChart("time-rss", "Memory of the watched processes", "Resident set size of each --watch-pid process per interval.", "RSS (MiB)", lines.rss)
	return out
}
