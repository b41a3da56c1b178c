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

// maxChartsPerKind bounds the charts of one kind (one per condition or
// template); the tables hold everything.
const maxChartsPerKind = 8

// drawCharts draws every chart the data supports, in a fixed order. A chart
// that fails to draw is left out with its error as caption: a report is
// still worth having.
func (r *Report) drawCharts() []chart {
	var out []chart
	add := func(c chart, err error) {
		if err != nil {
			c.SVG, c.Caption = "", fmt.Sprintf("(this chart could not be drawn: %v)", err)
		}
		out = append(out, c)
	}
	for _, g := range limit(groupBy(nonMixed(r.Throughput), condLabel)) {
		add(r.barChart("atpt-bars", "aTPt per template", "template", g, func(t Throughput) string { return t.Template }))
	}
	for _, g := range limit(groupBy(r.Workloads, func(k Key) string { k.Workload = ""; return condLabel(k) })) {
		add(r.barChart("atpw-bars", "aTPw per mixed workload", "workload", g, func(t Throughput) string { return t.Workload }))
	}
	for _, g := range limit(groupBy(r.Latency, latencyGroup)) {
		add(r.boxChart(g))
	}
	for _, g := range limit(r.cpuGroups()) {
		add(r.cpuChart(g))
	}
	out = append(out, r.scaleCharts()...)
	out = append(out, r.clientCharts()...)
	if len(r.Curve) > 0 {
		add(r.curveChart())
	}
	out = append(out, r.timeCharts()...)
	return out
}

// keyed is a row with a key.
type keyed interface{ key() Key }

func (t Throughput) key() Key { return t.Key }
func (l Latency) key() Key    { return l.Key }

// group is rows under one label.
type group[T any] struct {
	label string
	rows  []T
}

// groupBy groups rows by label(key), in order of first appearance.
func groupBy[T keyed](rows []T, label func(Key) string) []group[T] {
	var out []group[T]
	idx := map[string]int{}
	for _, row := range rows {
		l := label(row.key())
		i, ok := idx[l]
		if !ok {
			i = len(out)
			idx[l] = i
			out = append(out, group[T]{label: l})
		}
		out[i].rows = append(out[i].rows, row)
	}
	return out
}

func limit[T any](gs []group[T]) []group[T] { return gs[:min(len(gs), maxChartsPerKind)] }

func nonMixed(rows []Throughput) []Throughput {
	var out []Throughput
	for _, t := range rows {
		if !t.Mixed {
			out = append(out, t)
		}
	}
	return out
}

// condLabel names a key's conditions (without series and workload).
func condLabel(k Key) string {
	var parts []string
	if k.Mode != "" {
		parts = append(parts, k.Mode)
	}
	if k.SF != "" {
		parts = append(parts, "sf="+k.SF)
	}
	if k.Clients > 0 {
		parts = append(parts, "clients="+strconv.Itoa(k.Clients))
	}
	if k.Pool != "" {
		parts = append(parts, "pool="+k.Pool)
	}
	return strings.Join(parts, ", ")
}

// latencyGroup puts one-template runs of a condition together, and each
// mixed workload apart.
func latencyGroup(k Key) string {
	l := condLabel(k)
	if strings.Contains(k.Workload, "+") || !isTemplate(k.Workload) {
		l += ", workload " + k.Workload
	}
	return l
}

// seriesOf lists the series of rows in report order.
func (r *Report) seriesOf(has func(string) bool) []string {
	var out []string
	for _, s := range r.Series {
		if has(s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

func (r *Report) colorIndex(series string) int {
	for i, s := range r.Series {
		if s.Name == series {
			return i
		}
	}
	return len(r.Series)
}

func chartID(kind, label string) string {
	id := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' {
			return c
		}
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return '-'
	}, label)
	for strings.Contains(id, "--") {
		id = strings.ReplaceAll(id, "--", "-")
	}
	return strings.Trim(kind+"-"+strings.Trim(id, "-"), "-")
}

// barChart draws grouped bars (paper Fig. 7 and 11): one group per
// template or workload, one bar per series, error bars ±1 sd.
func (r *Report) barChart(kind, title, xlabel string, g group[Throughput], x func(Throughput) string) (chart, error) {
	c := chart{ID: chartID(kind, g.label), Title: title + " (" + g.label + ")",
		Caption: "Mean completed queries per second over the measured runs (warm-up excluded); error bars ±1 sd. A red-outlined, striped bar is a series that returned wrong answers."}
	var groups []string
	has := map[string]bool{}
	for _, t := range g.rows {
		if !slices.Contains(groups, x(t)) {
			groups = append(groups, x(t))
		}
		has[t.Series] = true
	}
	series := r.seriesOf(func(s string) bool { return has[s] })
	p := newPlot(c.Title, xlabel, "queries / s")
	var values []float64
	for _, t := range g.rows {
		values = append(values, t.Mean, t.Mean-t.SD, t.Mean+t.SD)
	}
	log := logY(p, values)
	n := float64(len(series))
	width := 0.8 / n
	for si, s := range series {
		b := &bars{width: width * 0.9, color: colorOf(r.colorIndex(s)), wrong: r.flagged(s)}
		for _, t := range g.rows {
			if t.Series != s || t.Mean <= 0 {
				continue
			}
			gi := slices.Index(groups, x(t))
			b.xs = append(b.xs, float64(gi)-0.4+width*(float64(si)+0.5))
			b.ys = append(b.ys, t.Mean)
			b.lo, b.hi = append(b.lo, t.Mean-t.SD), append(b.hi, t.Mean+t.SD)
		}
		if log {
			b.base = p.Y.Min
		}
		p.Add(b)
		p.Legend.Add(legendName(s, b.wrong), b)
	}
	p.X.Tick.Marker = groupTicks(groups, func(i int) float64 { return float64(i) })
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	headroom(p, log)
	w := vg.Points(max(480, min(1000, 80+float64(len(groups))*(n*16+24))))
	svg, err := renderSVG(p, w, vg.Points(300))
	c.SVG = svg
	return c, err
}

// cpuCost is what one query cost a point's processes: the server (the
// first process watched) and the rest, its database, in CPU µs.
type cpuCost struct {
	Key
	server, database float64
	dbName           string
}

func (c cpuCost) key() Key { return c.Key }

// cpuGroups gathers the CPU per query of the one-template points, grouped
// by condition like the aTPt bars.
func (r *Report) cpuGroups() []group[cpuCost] {
	var costs []cpuCost
	at := map[Key]int{}
	for _, p := range r.Processes {
		if p.Name == driverProcess || !isTemplate(p.Workload) || p.CPUPerQuery <= 0 {
			continue
		}
		i, ok := at[p.Key]
		if !ok {
			at[p.Key] = len(costs)
			costs = append(costs, cpuCost{Key: p.Key, server: p.CPUPerQuery})
			continue
		}
		costs[i].database += p.CPUPerQuery
		costs[i].dbName = p.Name
	}
	return groupBy(costs, func(k Key) string { k.Workload = ""; return condLabel(k) })
}

// cpuChart draws what a query of each template cost each series in CPU:
// the server's share in the series' colour, the database's stacked on it
// in grey — how costly each approach is, and where the cost lies.
func (r *Report) cpuChart(g group[cpuCost]) (chart, error) {
	c := chart{ID: chartID("cpu-per-query", g.label), Title: "CPU per query (" + g.label + ")",
		Caption: "CPU time per completed query over the measured runs, in µs, from the --watch-pid samples: the server process in its series' colour and, stacked on it in grey, the database (a PostgreSQL postmaster with its backends) when it was watched. Lower is cheaper; the load generator is left out."}
	var groups []string
	has := map[string]bool{}
	dbName := ""
	for _, t := range g.rows {
		if !slices.Contains(groups, t.Workload) {
			groups = append(groups, t.Workload)
		}
		has[t.Series] = true
		if t.dbName != "" {
			dbName = t.dbName
		}
	}
	series := r.seriesOf(func(s string) bool { return has[s] })
	p := newPlot(c.Title, "template", "CPU µs / query")
	n := float64(len(series))
	width := 0.8 / n
	db := &bars{width: width * 0.9, color: databaseColor}
	for si, s := range series {
		b := &bars{width: width * 0.9, color: colorOf(r.colorIndex(s)), wrong: r.flagged(s)}
		for _, t := range g.rows {
			if t.Series != s {
				continue
			}
			x := float64(slices.Index(groups, t.Workload)) - 0.4 + width*(float64(si)+0.5)
			b.xs, b.ys = append(b.xs, x), append(b.ys, t.server)
			b.lo, b.hi = append(b.lo, 0), append(b.hi, 0)
			if t.database > 0 {
				db.xs, db.ys, db.bottoms = append(db.xs, x), append(db.ys, t.server+t.database), append(db.bottoms, t.server)
				db.lo, db.hi = append(db.lo, 0), append(db.hi, 0)
			}
		}
		p.Add(b)
		p.Legend.Add(legendName(s, b.wrong), b)
	}
	if len(db.xs) > 0 {
		p.Add(db)
		p.Legend.Add("database ("+dbName+")", db)
	}
	p.X.Tick.Marker = groupTicks(groups, func(i int) float64 { return float64(i) })
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	headroom(p, false)
	w := vg.Points(max(480, min(1000, 80+float64(len(groups))*(n*16+24))))
	svg, err := renderSVG(p, w, vg.Points(300))
	c.SVG = svg
	return c, err
}

// boxChart draws QETt box plots (paper Fig. 8) from the HDR quartiles: one
// group per template, one box per series; the whiskers reach the minimum
// and the maximum (the five-number summary), the dot is the mean.
func (r *Report) boxChart(g group[Latency]) (chart, error) {
	c := chart{ID: chartID("qett-boxes", g.label), Title: "QETt per template (" + g.label + ")",
		Caption: "Query execution times of the measured runs: box from the first to the third quartile, line at the median, whiskers to the minimum and maximum, dot at the mean (from the HDR histograms, 3 significant digits)."}
	var groups []string
	has := map[string]bool{}
	var values []float64
	for _, l := range g.rows {
		if !slices.Contains(groups, l.Template) {
			groups = append(groups, l.Template)
		}
		has[l.Series] = true
		values = append(values, float64(l.QET.Min)/1e6, float64(l.QET.Max)/1e6)
	}
	series := r.seriesOf(func(s string) bool { return has[s] })
	p := newPlot(c.Title, "template", "QET (ms)")
	if !logY(p, values) {
		p.Y.Min = 0
	}
	n := float64(len(series))
	width := 0.8 / n
	w := max(480, min(1000, 80+float64(len(groups))*(n*18+24)))
	boxW := vg.Points(min(40, (w-80)/float64(len(groups))*width*0.7))
	for si, s := range series {
		col := colorOf(r.colorIndex(s))
		var means plotter.XYs
		for _, l := range g.rows {
			if l.Series != s || l.QET.N == 0 {
				continue
			}
			x := float64(slices.Index(groups, l.Template)) - 0.4 + width*(float64(si)+0.5)
			b, err := plotter.NewBoxPlot(boxW, x, plotter.Values{float64(l.QET.Min) / 1e6, float64(l.QET.Max) / 1e6})
			if err != nil {
				return c, err
			}
			q := l.QET
			b.Min, b.Max, b.AdjLow, b.AdjHigh = ms(q.Min), ms(q.Max), ms(q.Min), ms(q.Max)
			b.Quartile1, b.Median, b.Quartile3, b.Outside = ms(q.P25), ms(q.P50), ms(q.P75), nil
			b.FillColor = col
			b.WhiskerStyle.Dashes = nil
			if r.flagged(s) {
				b.BoxStyle.Color, b.BoxStyle.Width = wrongColor, vg.Points(1.5)
			}
			p.Add(b)
			means = append(means, plotter.XY{X: x, Y: q.Mean / 1e6})
		}
		if len(means) > 0 {
			sc, err := plotter.NewScatter(means)
			if err != nil {
				return c, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: colorOf(7), Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		p.Legend.Add(legendName(s, r.flagged(s)), swatch{col, r.flagged(s)})
	}
	p.X.Tick.Marker = groupTicks(groups, func(i int) float64 { return float64(i) })
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	headroom(p, p.Y.Scale != nil && isLog(p))
	svg, err := renderSVG(p, vg.Points(w), vg.Points(300))
	c.SVG = svg
	return c, err
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// line is one series of points with optional error bars.
type line struct {
	name    string
	color   int
	wrong   bool
	dashed  bool
	xs, ys  []float64
	lo, hi  []float64 // error bar ends, nil for none
	markers bool
}

// lineChart draws lines (paper Fig. 9 and 10, latency–throughput, time
// series); logX puts x on a log scale.
func lineChart(id, title, caption, xlabel, ylabel string, lines []line, logX bool) (chart, error) {
	c := chart{ID: id, Title: title, Caption: caption}
	p := newPlot(title, xlabel, ylabel)
	var ys []float64
	for _, l := range lines {
		ys = append(ys, l.ys...)
		ys = append(ys, l.lo...)
		ys = append(ys, l.hi...)
	}
	if logY(p, ys) {
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
		ln.Color, ln.Width = col, vg.Points(1.5)
		if l.dashed {
			ln.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		if l.wrong {
			ln.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
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
		p.Legend.Add(legendName(l.name, l.wrong), ln)
	}
	headroom(p, isLog(p))
	svg, err := renderSVG(p, vg.Points(560), vg.Points(300))
	c.SVG = svg
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
		c, err := lineChart(chartID("sf-atpt", condLabel(k)+"-"+k.Workload), "aTPt of "+k.Workload+" over the scale factor ("+condLabel(k)+")",
			"Mean (±1 sd) completed queries per second over the measured runs, at each scale factor.", "scale factor", "queries / s", lines, false)
		out = append(out, chartOrNote(c, err))
	}
	// aQETq over sf: the mean QET of sequential runs, per template.
	var seq []Latency
	for _, l := range r.Latency {
		if l.Mode == "sequential" {
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
			c, err := lineChart(chartID("sf-aqetq", condLabel(k)+"-"+t), "aQETq of "+t+" over the scale factor ("+condLabel(k)+")",
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
		c, err := lineChart(chartID("clients-atpt", condLabel(k)+"-"+k.Workload), "aTPt of "+k.Workload+" over clients ("+condLabel(k)+")",
			"Mean (±1 sd) completed queries per second with N concurrent clients, one line per series and connection pool size.",
			"clients", "queries / s", lines, false)
		out = append(out, chartOrNote(c, err))
	}
	return out
}

// linesBy makes one line per name from rows, points sorted by x.
func linesBy[T any](r *Report, rows []T, point func(T) (name string, x, y, lo, hi float64, ok bool)) []line {
	var out []line
	idx := map[string]int{}
	byIndex := false // several lines per series: colour by line
	for _, row := range rows {
		name, x, y, lo, hi, ok := point(row)
		if !ok {
			continue
		}
		i, seen := idx[name]
		if !seen {
			series, _, pooled := strings.Cut(name, " pool=")
			i = len(out)
			idx[name] = i
			byIndex = byIndex || pooled
			out = append(out, line{name: name, color: r.colorIndex(series), wrong: r.flagged(series), markers: true})
		}
		l := &out[i]
		l.xs, l.ys, l.lo, l.hi = append(l.xs, x), append(l.ys, y), append(l.lo, lo), append(l.hi, hi)
	}
	for i := range out {
		sortLine(&out[i])
		if byIndex {
			out[i].color = i
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
		if len(r.Varying) > 0 {
			name += " (" + condLabel(k) + ")"
		}
		i, ok := idx[name]
		if !ok {
			i = len(lines)
			idx[name] = i
			col := r.colorIndex(pt.Series)
			lines = append(lines, line{name: name + " p99", color: col, wrong: r.flagged(pt.Series), markers: true},
				line{name: name + " p50", color: col, dashed: true, markers: true})
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
	return lineChart("latency-throughput", "Latency against throughput",
		"Each point a capacity step or an open-loop run: achieved throughput and the latency from the intended send time (coordinated omission corrected); p99 solid, p50 dashed.",
		"throughput (queries / s)", "latency (ms)", keep, false)
}

// timeCharts draws per-interval time series per series: throughput, and
// the CPU and RSS of the watched processes (seed 001 Tables 2–4), over the
// series' run files one after another.
func (r *Report) timeCharts() []chart {
	type ts struct{ tp, cpu, rss []line }
	var lines ts
	for si, s := range r.Series {
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
		c, err := lineChart(id, title, caption, "time (s, each series' run files one after another)", y, ls, false)
		out = append(out, chartOrNote(c, err))
	}
	timeChart("time-throughput", "Throughput per interval", "Completed queries per second in each interval line, warm-up runs included.", "queries / s", lines.tp)
	timeChart("time-cpu", "CPU of the watched processes", "CPU % of each --watch-pid process per interval (100 % = one core).", "CPU %", lines.cpu)
	timeChart("time-rss", "Memory of the watched processes", "Resident set size of each --watch-pid process per interval.", "RSS (MiB)", lines.rss)
	return out
}

// headroom raises the top of the y axis so that the legend, top right,
// does not cover the data.
func headroom(p *plot.Plot, log bool) {
	if log {
		p.Y.Max *= 4
		return
	}
	p.Y.Min = 0
	p.Y.Max *= 1.2
}

func isLog(p *plot.Plot) bool {
	_, ok := p.Y.Scale.(plot.LogScale)
	return ok
}
