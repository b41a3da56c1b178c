package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/report/plot"
)

// maxTemplateSections bounds the per-template sections; the tables hold
// every template.
const maxTemplateSections = 40

// perTemplate lists the templates of the compared series' one-template
// rows (aTPt, else QETt), in report order: each gets a section of its own.
func (r *Report) perTemplate() []string {
	var out []string
	add := func(t string) {
		if !slices.Contains(out, t) && len(out) < maxTemplateSections {
			out = append(out, t)
		}
	}
	for _, t := range r.comparedOnly(nonMixed(r.Throughput)) {
		add(t.Template)
	}
	if len(out) == 0 {
		for _, l := range r.Latency {
			if !r.apart(l.Series) && isTemplate(l.Workload) {
				add(l.Template)
			}
		}
	}
	return out
}

// hasTemplateSection reports whether a template has a section of its own.
func (r *Report) hasTemplateSection(t string) bool { return slices.Contains(r.perTemplate(), t) }

// category is one bar (or box) of a template's small chart: a series,
// under a condition when the report compares under several.
type category struct {
	series string
	cond   Key
	label  string
}

// categories lists the bars of a template's small charts, at most plot.MaxBars:
// every series under every condition it ran the template.
func (r *Report) categories(template string) []category {
	var out []category
	seen := map[Key]bool{}
	add := func(k Key) {
		c := k.cond()
		c.Workload = ""
		id := c
		id.Series = k.Series
		if seen[id] || len(out) >= plot.MaxBars || r.apart(k.Series) {
			return
		}
		seen[id] = true
		label := k.Series
		if multi := r.condShort(c); multi != "" {
			label += " " + multi
		}
		out = append(out, category{series: k.Series, cond: c, label: label})
	}
	for _, t := range nonMixed(r.Throughput) {
		if t.Template == template {
			add(t.Key)
		}
	}
	for _, l := range r.Latency {
		if l.Template == template && isTemplate(l.Workload) {
			add(l.Key)
		}
	}
	return out
}

// condShort names a condition by the fields that vary between the
// compared runs (but the workload): "" when only the workload varies.
func (r *Report) condShort(k Key) string {
	var parts []string
	for _, v := range r.Varying {
		switch v {
		case "mode":
			parts = append(parts, k.Mode)
		case "sf":
			parts = append(parts, "sf="+k.SF)
		case "clients":
			parts = append(parts, "clients="+clientsCell(k.Clients))
		case "pool":
			parts = append(parts, "pool="+k.Pool)
		}
	}
	return strings.Join(parts, " ")
}

// templateCharts draws each template's small multiples: its throughput
// and its QET per series, on scales of their own.
func (r *Report) templateCharts() []plot.Chart {
	var out []plot.Chart
	for _, t := range r.perTemplate() {
		cats := r.categories(t)
		if len(cats) == 0 {
			continue
		}
		if c, ok := r.templateThroughput(t, cats); ok {
			out = append(out, c)
		}
		if c, ok := r.templateQET(t, cats); ok {
			out = append(out, c)
		}
	}
	return out
}

// categoryLabels are the categories' labels.
func categoryLabels(cats []category) []string {
	var out []string
	for _, c := range cats {
		out = append(out, c.label)
	}
	return out
}

// templateThroughput draws one template's throughput per series: bars ±1
// sd, the load generator's ceiling as a dashed line.
func (r *Report) templateThroughput(t string, cats []category) (plot.Chart, bool) {
	c := plot.Chart{ID: chartID("tmpl-throughput", t), Title: t + ": throughput (mean ± 1 sd)", Size: plot.Small, H: plot.SmallHeight(len(cats), 14)}
	rows := map[category]Throughput{}
	var values []float64
	top := 0.0
	for _, row := range nonMixed(r.Throughput) {
		for _, cat := range cats {
			if row.Template == t && row.Series == cat.series && sameCond(row.Key, cat.cond) {
				rows[cat] = row
				values = append(values, row.Mean, row.Mean-row.SD, row.Mean+row.SD)
				top = max(top, row.Mean+row.SD)
			}
		}
	}
	if len(rows) == 0 {
		return c, false
	}
	p, y := plot.NewSmall(categoryLabels(cats), "queries / s")
	c.LogY = plot.LogAxis(&p.X, values)
	for i, cat := range cats {
		row, ok := rows[cat]
		if !ok || row.Mean <= 0 {
			continue
		}
		b := r.seriesBars(cat.series, 0.7)
		b.Horizontal = true
		b.Add(y(i), row.Mean, row.Mean-row.SD, row.Mean+row.SD)
		if c.LogY {
			b.Base = p.X.Min
		}
		p.Add(b)
		c.Bars++
	}
	if ceil, ok := r.ceilingFor(cats[0].cond); ok {
		l := plot.NewRefLine(ceil.Mean, top, ceilingLabel(ceil))
		l.Vertical = true
		p.Add(l)
		p.Y.Max += 0.9 // room for its label above the bars
	}
	if !c.LogY {
		p.X.Min = 0
		p.X.Max *= 1.05
	}
	return plot.OrNote(c, c.Render(p)), true
}

// templateQET draws one template's QET distribution per series: box from
// the first to the third quartile, median line, whiskers to the minimum
// and maximum, dot at the mean.
func (r *Report) templateQET(t string, cats []category) (plot.Chart, bool) {
	c := plot.Chart{ID: chartID("tmpl-qet", t), Title: t + ": query execution time", Size: plot.Small, H: plot.SmallHeight(len(cats), 0)}
	rows := map[category]Latency{}
	var values []float64
	for _, l := range r.Latency {
		for _, cat := range cats {
			if l.Template == t && l.Series == cat.series && sameCond(l.Key, cat.cond) && l.QET.N > 0 && isTemplate(l.Workload) {
				rows[cat] = l
				values = append(values, ms(l.QET.Min), ms(l.QET.Max))
			}
		}
	}
	if len(rows) == 0 {
		return c, false
	}
	p, y := plot.NewSmall(categoryLabels(cats), "QET (ms)")
	if c.LogY = plot.LogAxis(&p.X, values); !c.LogY {
		p.X.Min = 0
	}
	var means []float64
	var at []float64
	for i, cat := range cats {
		l, ok := rows[cat]
		if !ok {
			continue
		}
		b, err := plot.Box(fiveOf(l.QET), y(i), 11 /* pt */, true, r.colorIndex(cat.series), r.flagged(cat.series))
		if err != nil {
			return plot.OrNote(c, err), true
		}
		p.Add(b)
		c.Bars++
		means, at = append(means, l.QET.Mean/1e6), append(at, y(i))
	}
	if err := plot.AddMeans(p, means, at); err != nil {
		return plot.OrNote(c, err), true
	}
	return plot.OrNote(c, c.Render(p)), true
}

// sameCond reports whether k ran under the conditions cond (its workload
// aside).
func sameCond(k, cond Key) bool {
	c := k.cond()
	c.Workload = ""
	return c == cond
}

// templateSection is the per-template part of the report: a link to each
// template, and for each one line on who was fastest and its small charts.
func (r *Report) templateSection() section {
	s := section{ID: "templates", Title: "Per template"}
	ts := r.perTemplate()
	if len(ts) == 0 {
		return s
	}
	s.Paras = []string{"Each template on scales of its own. Left: completed queries per second over the measured runs, mean ± 1 sd (the load generator's ceiling dashed, where it was measured). Right: the query execution times of the measured runs, box from the first to the third quartile, line at the median, whiskers to the minimum and maximum, dot at the mean. The tables above hold every figure."}
	for _, t := range ts {
		s.Links = append(s.Links, link{ID: templateAnchor(t), Text: t})
		sub := section{ID: templateAnchor(t), Title: t, Charts: r.chartsWith(chartID("tmpl-throughput", t), chartID("tmpl-qet", t))}
		if line := r.templateLine(t); line != "" {
			sub.Paras = []string{line}
		}
		s.Subs = append(s.Subs, sub)
	}
	return s
}

// templateLine says who was fastest on a template, from the matrices.
func (r *Report) templateLine(t string) string {
	var parts []string
	ms := r.comparing()
	for _, m := range ms {
		for _, row := range m.rows {
			if row.label != t || row.mixed || row.best < 0 {
				continue
			}
			b := row.cells[row.best]
			p := fmt.Sprintf("fastest %s, %s", m.series[row.best], figureCell(m, b))
			if !row.clear {
				p = fmt.Sprintf("no clear winner: %s, %s", m.series[row.best], figureCell(m, b))
			}
			if m.series[row.best] != m.reference && b.speedup > 0 {
				p += " (" + timesCell(b.speedup) + " " + m.reference + ")"
			}
			if row.runnerUp >= 0 {
				p += fmt.Sprintf(", then %s, %s", m.series[row.runnerUp], figureCell(m, row.cells[row.runnerUp]))
			}
			if len(ms) > 1 {
				p = condLabel(m.cond) + ": " + p
			}
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	out := strings.Join(parts, "; ") + "."
	return strings.ToUpper(out[:1]) + out[1:]
}
