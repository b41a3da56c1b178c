package report

import (
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/report/plot"
)

// maxChartsPerKind bounds the charts of one kind (one per condition or
// template); the tables hold everything.
const maxChartsPerKind = 8

// drawCharts draws every chart the data supports, in a fixed order: the
// overview's heat maps, the grouped bars and boxes per condition (split so
// that none holds more than plot.MaxBars), the lines, and the per-template small
// multiples. A chart that fails to draw is left out with its error as
// caption: a report is still worth having.
func (r *Report) drawCharts() []plot.Chart {
	var out []plot.Chart
	for i, m := range r.comparing() {
		if i < maxChartsPerKind {
			out = append(out, r.heatmap(m))
		}
	}
	tp := r.comparedOnly(nonMixed(r.Throughput))
	for _, g := range limit(groupBy(tp, condLabel)) {
		out = append(out, r.barCharts("atpt-bars", "aTPt per template", "template", g, func(t Throughput) string { return t.Template })...)
	}
	wl := r.comparedOnly(r.Workloads)
	for _, g := range limit(groupBy(wl, func(k Key) string { k.Workload = ""; return condLabel(k) })) {
		out = append(out, r.barCharts("atpw-bars", "aTPw per mixed workload", "workload", g, func(t Throughput) string { return t.Workload })...)
	}
	var lat []Latency
	for _, l := range r.Latency {
		if !r.apart(l.Series) {
			lat = append(lat, l)
		}
	}
	for _, g := range limit(groupBy(lat, latencyGroup)) {
		out = append(out, r.boxCharts(g)...)
	}
	for _, g := range limit(r.cpuGroups()) {
		out = append(out, r.cpuCharts(g)...)
	}
	out = append(out, r.scaleCharts()...)
	out = append(out, r.clientCharts()...)
	if len(r.Curve) > 0 {
		c, err := r.curveChart()
		out = append(out, plot.OrNote(c, err))
	}
	out = append(out, r.timeCharts()...)
	return append(out, r.templateCharts()...)
}

// comparedOnly keeps the rows of the series that are compared.
func (r *Report) comparedOnly(rows []Throughput) []Throughput {
	var out []Throughput
	for _, t := range rows {
		if !r.apart(t.Series) {
			out = append(out, t)
		}
	}
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

// boxEntry is a series' legend entry for its bars or boxes.
func (r *Report) boxEntry(series string) plot.Legend {
	return plot.BoxLegend(series, r.colorIndex(series), r.flagged(series))
}

// colorIndex is a series' colour in every chart: its place among the
// series that are not a ceiling (a ceiling is a grey reference line).
func (r *Report) colorIndex(series string) int {
	i := 0
	for _, s := range r.Series {
		if s.Name == series {
			return i
		}
		if !s.Ceiling {
			i++
		}
	}
	return i
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
