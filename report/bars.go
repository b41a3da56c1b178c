package report

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// layout is the x axis of a grouped chart: a group per template (or
// workload), a slot per series in each.
type layout struct {
	groups []string
	series []string
}

// newLayout collects the groups in order of appearance and the series in
// report order.
func newLayout[T any](r *Report, rows []T, group func(T) string, series func(T) string) layout {
	var l layout
	has := map[string]bool{}
	for _, t := range rows {
		if g := group(t); !slices.Contains(l.groups, g) {
			l.groups = append(l.groups, g)
		}
		has[series(t)] = true
	}
	l.series = r.seriesOf(func(s string) bool { return has[s] })
	return l
}

// slot is the width of one series' slot, in x units.
func (l layout) slot() float64 { return 0.8 / float64(len(l.series)) }

// x is the centre of a series' slot in a group; ok is false when the
// group is not in this layout.
func (l layout) x(group, series string) (float64, bool) {
	gi := slices.Index(l.groups, group)
	if gi < 0 {
		return 0, false
	}
	return float64(gi) - 0.4 + l.slot()*(float64(slices.Index(l.series, series))+0.5), true
}

// axis labels the groups on the x axis and fits the axis to them.
func (l layout) axis(p *plot.Plot) {
	p.X.Tick.Marker = groupTicks(l.groups, func(i int) float64 { return float64(i) })
	p.X.Min, p.X.Max = -0.5, float64(len(l.groups))-0.5
}

// size is wide when the chart holds many bars.
func (l layout) size() chartSize {
	if len(l.groups)*len(l.series) > 16 {
		return sizeWide
	}
	return sizeNormal
}

// part is the part of a split chart: "" when whole, else its ID suffix
// and title suffix.
func part(parts [][]string, i int) (id, title string) {
	if len(parts) < 2 {
		return "", ""
	}
	p := parts[i]
	span := p[0]
	if len(p) > 1 {
		span += "–" + p[len(p)-1]
	}
	return fmt.Sprintf("-%d", i+1), ", " + span
}

// barCharts draws grouped bars (paper Fig. 7 and 11) of one condition:
// one group per template or workload, one bar per series, error bars ±1
// sd, the load generator's ceiling as a dashed line; split into charts of
// at most maxBars bars.
func (r *Report) barCharts(kind, title, xlabel string, g group[Throughput], x func(Throughput) string) []chart {
	all := newLayout(r, g.rows, x, func(t Throughput) string { return t.Series })
	parts := splitGroups(all.groups, len(all.series))
	var out []chart
	for i, groups := range parts {
		l := layout{groups: groups, series: all.series}
		idSuffix, titleSuffix := part(parts, i)
		c := chart{ID: chartID(kind, g.label) + idSuffix, Title: title + " (" + g.label + titleSuffix + ")",
			Caption: "Mean completed queries per second over the measured runs (warm-up excluded); error bars ±1 sd. A red-outlined, striped bar is a series that returned wrong answers.",
			Size:    l.size()}
		if len(parts) > 1 {
			c.Caption += fmt.Sprintf(" One of %d charts of this condition, each on its own scale.", len(parts))
		}
		c, err := r.barChart(c, l, xlabel, g.rows, x)
		out = append(out, chartOrNote(c, err))
	}
	return out
}

// barChart draws the bars of the rows in the layout's groups.
func (r *Report) barChart(c chart, l layout, xlabel string, rows []Throughput, x func(Throughput) string) (chart, error) {
	p := newPlot(xlabel, "queries / s")
	var values []float64
	top := 0.0
	for _, t := range rows {
		if _, ok := l.x(x(t), t.Series); ok {
			values = append(values, t.Mean, t.Mean-t.SD, t.Mean+t.SD)
			top = max(top, t.Mean+t.SD)
		}
	}
	c.LogY = logY(p, values)
	for _, s := range l.series {
		b := &bars{width: l.slot() * 0.9, color: colorOf(r.colorIndex(s)), wrong: r.flagged(s)}
		for _, t := range rows {
			xi, ok := l.x(x(t), t.Series)
			if t.Series != s || t.Mean <= 0 || !ok {
				continue
			}
			b.xs, b.ys = append(b.xs, xi), append(b.ys, t.Mean)
			b.lo, b.hi = append(b.lo, t.Mean-t.SD), append(b.hi, t.Mean+t.SD)
		}
		if c.LogY {
			b.base = p.Y.Min
		}
		c.Bars += len(b.xs)
		p.Add(b)
		c.Legend = append(c.Legend, r.boxEntry(s))
	}
	if len(rows) > 0 {
		if ceil, ok := r.ceilingFor(rows[0].Key); ok {
			p.Add(newRefLine(ceil.Mean, top, ceilingLabel(ceil)))
			c.Legend = append(c.Legend, refEntry(ceil.Series+": the load generator's ceiling"))
		}
	}
	l.axis(p)
	headroom(p, c.LogY)
	err := c.render(p)
	return c, err
}

// ceilingLabel labels the ceiling's reference line.
func ceilingLabel(t Throughput) string {
	return fmt.Sprintf("%s: load generator's ceiling %s/s", t.Series, rateCell(t.Mean))
}

// cpuCost is what one query cost a point's processes: the server (the
// first process watched) and the rest, its database, in CPU µs.
type cpuCost struct {
	Key
	server, database float64
	dbName           string
}

func (c cpuCost) key() Key { return c.Key }

// cpuGroups gathers the CPU per query of the one-template points of the
// compared series, grouped by condition like the aTPt bars.
func (r *Report) cpuGroups() []group[cpuCost] {
	var costs []cpuCost
	at := map[Key]int{}
	for _, p := range r.Processes {
		if p.Name == driverProcess || !isTemplate(p.Workload) || p.CPUPerQuery <= 0 || r.apart(p.Series) {
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

// cpuCharts draws what a query of each template cost each series in CPU,
// split into charts of at most maxBars bars.
func (r *Report) cpuCharts(g group[cpuCost]) []chart {
	all := newLayout(r, g.rows, func(t cpuCost) string { return t.Workload }, func(t cpuCost) string { return t.Series })
	parts := splitGroups(all.groups, len(all.series))
	var out []chart
	for i, groups := range parts {
		l := layout{groups: groups, series: all.series}
		idSuffix, titleSuffix := part(parts, i)
		c := chart{ID: chartID("cpu-per-query", g.label) + idSuffix, Title: "CPU per query (" + g.label + titleSuffix + ")",
			Caption: "CPU time per completed query over the measured runs, in µs, from the --watch-pid samples: the server process in its series' colour and, stacked on it in grey, the database (a PostgreSQL postmaster with its backends) when it was watched. Lower is cheaper; the load generator is left out.",
			Size:    l.size()}
		c, err := r.cpuChart(c, l, g.rows)
		out = append(out, chartOrNote(c, err))
	}
	return out
}

// cpuChart draws the server's share in the series' colour, the database's
// stacked on it in grey: how costly each approach is, and where the cost
// lies.
func (r *Report) cpuChart(c chart, l layout, rows []cpuCost) (chart, error) {
	p := newPlot("template", "CPU µs / query")
	db := &bars{width: l.slot() * 0.9, color: databaseColor}
	dbName := ""
	for _, s := range l.series {
		b := &bars{width: l.slot() * 0.9, color: colorOf(r.colorIndex(s)), wrong: r.flagged(s)}
		for _, t := range rows {
			x, ok := l.x(t.Workload, t.Series)
			if t.Series != s || !ok {
				continue
			}
			b.xs, b.ys = append(b.xs, x), append(b.ys, t.server)
			b.lo, b.hi = append(b.lo, 0), append(b.hi, 0)
			if t.database > 0 {
				db.xs, db.ys, db.bottoms = append(db.xs, x), append(db.ys, t.server+t.database), append(db.bottoms, t.server)
				db.lo, db.hi = append(db.lo, 0), append(db.hi, 0)
				dbName = t.dbName
			}
		}
		c.Bars += len(b.xs)
		p.Add(b)
		c.Legend = append(c.Legend, r.boxEntry(s))
	}
	if len(db.xs) > 0 {
		p.Add(db)
		c.Legend = append(c.Legend, legendEntry{Name: "database (" + dbName + ")", Color: hexColor(databaseColor), Mark: "box"})
	}
	l.axis(p)
	headroom(p, false)
	err := c.render(p)
	return c, err
}

// boxCharts draws QETt box plots (paper Fig. 8) of one condition, split
// into charts of at most maxBars boxes.
func (r *Report) boxCharts(g group[Latency]) []chart {
	all := newLayout(r, g.rows, func(l Latency) string { return l.Template }, func(l Latency) string { return l.Series })
	parts := splitGroups(all.groups, len(all.series))
	var out []chart
	for i, groups := range parts {
		l := layout{groups: groups, series: all.series}
		idSuffix, titleSuffix := part(parts, i)
		c := chart{ID: chartID("qett-boxes", g.label) + idSuffix, Title: "QETt per template (" + g.label + titleSuffix + ")",
			Caption: "Query execution times of the measured runs: box from the first to the third quartile, line at the median, whiskers to the minimum and maximum, dot at the mean (from the HDR histograms, 3 significant digits).",
			Size:    l.size()}
		c, err := r.boxChart(c, l, g.rows)
		out = append(out, chartOrNote(c, err))
	}
	return out
}

// boxChart draws one box per series and template from the HDR quartiles;
// the whiskers reach the minimum and the maximum (the five-number summary),
// the dot is the mean.
func (r *Report) boxChart(c chart, l layout, rows []Latency) (chart, error) {
	var values []float64
	for _, t := range rows {
		if _, ok := l.x(t.Template, t.Series); ok {
			values = append(values, ms(t.QET.Min), ms(t.QET.Max))
		}
	}
	p := newPlot("template", "QET (ms)")
	if c.LogY = logY(p, values); !c.LogY {
		p.Y.Min = 0
	}
	w, _ := c.Size.dims()
	boxW := min(vg.Points(40), (w-vg.Points(80))/vg.Length(len(l.groups))*vg.Length(l.slot()*0.7))
	for _, s := range l.series {
		var means plotter.XYs
		for _, t := range rows {
			x, ok := l.x(t.Template, t.Series)
			if t.Series != s || t.QET.N == 0 || !ok {
				continue
			}
			b, err := r.box(s, t.QET, x, boxW, false)
			if err != nil {
				return c, err
			}
			p.Add(b)
			c.Bars++
			means = append(means, plotter.XY{X: x, Y: t.QET.Mean / 1e6})
		}
		if err := addMeans(p, means); err != nil {
			return c, err
		}
		c.Legend = append(c.Legend, r.boxEntry(s))
	}
	l.axis(p)
	headroom(p, c.LogY)
	err := c.render(p)
	return c, err
}

// box is one series' box of a QET distribution at location loc (x, or y
// when horizontal), in ms.
func (r *Report) box(series string, q Quantiles, loc float64, width vg.Length, horizontal bool) (*plotter.BoxPlot, error) {
	return r.boxOf(series, [5]float64{ms(q.Min), ms(q.P25), ms(q.P50), ms(q.P75), ms(q.Max)}, loc, width, horizontal)
}

// boxOf is one series' box of a five-number summary (minimum, Q1, median,
// Q3, maximum) at location loc: whiskers to the minimum and maximum, no
// outliers.
func (r *Report) boxOf(series string, q [5]float64, loc float64, width vg.Length, horizontal bool) (*plotter.BoxPlot, error) {
	b, err := plotter.NewBoxPlot(width, loc, plotter.Values{q[0], q[4]})
	if err != nil {
		return nil, err
	}
	b.Horizontal = horizontal
	b.Min, b.Max, b.AdjLow, b.AdjHigh = q[0], q[4], q[0], q[4]
	b.Quartile1, b.Median, b.Quartile3, b.Outside = q[1], q[2], q[3], nil
	b.FillColor = colorOf(r.colorIndex(series))
	b.WhiskerStyle.Dashes = nil
	if r.flagged(series) {
		b.BoxStyle.Color, b.BoxStyle.Width = wrongColor, vg.Points(1.5)
	}
	return b, nil
}

// addMeans draws the means of boxes as dots.
func addMeans(p *plot.Plot, means plotter.XYs) error {
	if len(means) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(means)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: colorOf(7), Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	return nil
}
