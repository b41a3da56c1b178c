package report

import (
	"fmt"
	"slices"

	"github.com/gqlbench/gqlbench/report/plot"
)

// newLayout collects the groups in order of appearance and the series in
// report order.
func newLayout[T any](r *Report, rows []T, group func(T) string, series func(T) string) plot.Layout {
	var l plot.Layout
	has := map[string]bool{}
	for _, t := range rows {
		if g := group(t); !slices.Contains(l.Groups, g) {
			l.Groups = append(l.Groups, g)
		}
		has[series(t)] = true
	}
	l.Series = r.seriesOf(func(s string) bool { return has[s] })
	return l
}

// barCharts draws grouped bars (paper Fig. 7 and 11) of one condition:
// one group per template or workload, one bar per series, error bars ±1
// sd, the load generator's ceiling as a dashed line; split into charts of
// at most plot.MaxBars bars.
func (r *Report) barCharts(kind, title, xlabel string, g group[Throughput], x func(Throughput) string) []plot.Chart {
	all := newLayout(r, g.rows, x, func(t Throughput) string { return t.Series })
	return splitCharts(all, func(l plot.Layout, idSuffix, titleSuffix string, parts int) plot.Chart {
		c := plot.Chart{ID: chartID(kind, g.label) + idSuffix, Title: title + " (" + g.label + titleSuffix + ")",
			Caption: "Mean completed queries per second over the measured runs (warm-up excluded); error bars ±1 sd. A red-outlined, striped bar is a series that returned wrong answers.",
			Size:    l.Size()}
		if parts > 1 {
			c.Caption += fmt.Sprintf(" One of %d charts of this condition, each on its own scale.", parts)
		}
		return c
	}, func(c plot.Chart, l plot.Layout) (plot.Chart, error) { return r.barChart(c, l, xlabel, g.rows, x) })
}

// barChart draws the bars of the rows in the layout's groups.
func (r *Report) barChart(c plot.Chart, l plot.Layout, xlabel string, rows []Throughput, x func(Throughput) string) (plot.Chart, error) {
	p := plot.New(xlabel, "queries / s")
	var values []float64
	top := 0.0
	for _, t := range rows {
		if _, ok := l.X(x(t), t.Series); ok {
			values = append(values, t.Mean, t.Mean-t.SD, t.Mean+t.SD)
			top = max(top, t.Mean+t.SD)
		}
	}
	c.LogY = plot.LogY(p, values)
	for _, s := range l.Series {
		b := r.seriesBars(s, l.Slot()*0.9)
		for _, t := range rows {
			xi, ok := l.X(x(t), t.Series)
			if t.Series != s || t.Mean <= 0 || !ok {
				continue
			}
			b.Add(xi, t.Mean, t.Mean-t.SD, t.Mean+t.SD)
		}
		if c.LogY {
			b.Base = p.Y.Min
		}
		c.Bars += len(b.Xs)
		p.Add(b)
		c.Legend = append(c.Legend, r.boxEntry(s))
	}
	if len(rows) > 0 {
		if ceil, ok := r.ceilingFor(rows[0].Key); ok {
			p.Add(plot.NewRefLine(ceil.Mean, top, ceilingLabel(ceil)))
			c.Legend = append(c.Legend, plot.RefLegend(ceil.Series+": the load generator's ceiling"))
		}
	}
	l.Axis(p)
	plot.Headroom(p, c.LogY)
	err := c.Render(p)
	return c, err
}

// seriesBars are a series' bars, in its colour, width wide.
func (r *Report) seriesBars(series string, width float64) *plot.Bars {
	return &plot.Bars{Width: width, Color: plot.ColorOf(r.colorIndex(series)), Wrong: r.flagged(series)}
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
// split into charts of at most plot.MaxBars bars.
func (r *Report) cpuCharts(g group[cpuCost]) []plot.Chart {
	all := newLayout(r, g.rows, func(t cpuCost) string { return t.Workload }, func(t cpuCost) string { return t.Series })
	return splitCharts(all, func(l plot.Layout, idSuffix, titleSuffix string, _ int) plot.Chart {
		return plot.Chart{ID: chartID("cpu-per-query", g.label) + idSuffix, Title: "CPU per query (" + g.label + titleSuffix + ")",
			Caption: "CPU time per completed query over the measured runs, in µs, from the --watch-pid samples: the server process in its series' colour and, stacked on it in grey, the database (a PostgreSQL postmaster with its backends) when it was watched. Lower is cheaper; the load generator is left out.",
			Size:    l.Size()}
	}, func(c plot.Chart, l plot.Layout) (plot.Chart, error) { return r.cpuChart(c, l, g.rows) })
}

// cpuChart draws the server's share in the series' colour, the database's
// stacked on it in grey: how costly each approach is, and where the cost
// lies.
func (r *Report) cpuChart(c plot.Chart, l plot.Layout, rows []cpuCost) (plot.Chart, error) {
	p := plot.New("template", "CPU µs / query")
	db := &plot.Bars{Width: l.Slot() * 0.9, Color: plot.DatabaseColor}
	dbName := ""
	for _, s := range l.Series {
		b := r.seriesBars(s, l.Slot()*0.9)
		for _, t := range rows {
			x, ok := l.X(t.Workload, t.Series)
			if t.Series != s || !ok {
				continue
			}
			b.Add(x, t.server, 0, 0)
			if t.database > 0 {
				db.Add(x, t.server+t.database, 0, 0)
				db.Bottoms = append(db.Bottoms, t.server)
				dbName = t.dbName
			}
		}
		c.Bars += len(b.Xs)
		p.Add(b)
		c.Legend = append(c.Legend, r.boxEntry(s))
	}
	if len(db.Xs) > 0 {
		p.Add(db)
		c.Legend = append(c.Legend, plot.Legend{Name: "database (" + dbName + ")", Color: plot.HexColor(plot.DatabaseColor), Mark: "box"})
	}
	l.Axis(p)
	plot.Headroom(p, false)
	err := c.Render(p)
	return c, err
}

// boxCharts draws QETt box plots (paper Fig. 8) of one condition, split
// into charts of at most plot.MaxBars boxes.
func (r *Report) boxCharts(g group[Latency]) []plot.Chart {
	all := newLayout(r, g.rows, func(l Latency) string { return l.Template }, func(l Latency) string { return l.Series })
	return splitCharts(all, func(l plot.Layout, idSuffix, titleSuffix string, _ int) plot.Chart {
		return plot.Chart{ID: chartID("qett-boxes", g.label) + idSuffix, Title: "QETt per template (" + g.label + titleSuffix + ")",
			Caption: "Query execution times of the measured runs: box from the first to the third quartile, line at the median, whiskers to the minimum and maximum, dot at the mean (from the HDR histograms, 3 significant digits).",
			Size:    l.Size()}
	}, func(c plot.Chart, l plot.Layout) (plot.Chart, error) { return r.boxChart(c, l, g.rows) })
}

// splitCharts draws a grouped chart split into parts of at most
// plot.MaxBars bars, one chart a part: head makes the part's chart from
// its ID and title suffixes (see plot.Part) and the number of parts, draw
// draws it; a chart that fails to draw is left with its error as caption.
func splitCharts(all plot.Layout, head func(l plot.Layout, idSuffix, titleSuffix string, parts int) plot.Chart, draw func(plot.Chart, plot.Layout) (plot.Chart, error)) []plot.Chart {
	parts := all.Split()
	var out []plot.Chart
	for i, l := range parts {
		idSuffix, titleSuffix := plot.Part(parts, i)
		c, err := draw(head(l, idSuffix, titleSuffix, len(parts)), l)
		out = append(out, plot.OrNote(c, err))
	}
	return out
}

// boxChart draws one box per series and template from the HDR quartiles;
// the whiskers reach the minimum and the maximum (the five-number summary),
// the dot is the mean.
func (r *Report) boxChart(c plot.Chart, l plot.Layout, rows []Latency) (plot.Chart, error) {
	var values []float64
	for _, t := range rows {
		if _, ok := l.X(t.Template, t.Series); ok {
			values = append(values, ms(t.QET.Min), ms(t.QET.Max))
		}
	}
	p := plot.New("template", "QET (ms)")
	if c.LogY = plot.LogY(p, values); !c.LogY {
		p.Y.Min = 0
	}
	boxW := l.BoxWidth(c.Size)
	for _, s := range l.Series {
		var xs, means []float64
		for _, t := range rows {
			x, ok := l.X(t.Template, t.Series)
			if t.Series != s || t.QET.N == 0 || !ok {
				continue
			}
			b, err := plot.Box(fiveOf(t.QET), x, boxW, false, r.colorIndex(s), r.flagged(s))
			if err != nil {
				return c, err
			}
			p.Add(b)
			c.Bars++
			xs, means = append(xs, x), append(means, t.QET.Mean/1e6)
		}
		if err := plot.AddMeans(p, xs, means); err != nil {
			return c, err
		}
		c.Legend = append(c.Legend, r.boxEntry(s))
	}
	l.Axis(p)
	plot.Headroom(p, c.LogY)
	err := c.Render(p)
	return c, err
}

// fiveOf is the five-number summary of a QET distribution, in ms.
func fiveOf(q Quantiles) [5]float64 {
	return [5]float64{ms(q.Min), ms(q.P25), ms(q.P50), ms(q.P75), ms(q.Max)}
}

// boxEntry is a series' legend entry for its bars or boxes.
func (r *Report) boxEntry(series string) plot.Legend {
	return plot.BoxLegend(series, r.colorIndex(series), r.flagged(series))
}
