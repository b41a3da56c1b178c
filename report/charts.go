package report

import (
	"strings"

	"github.com/gqlbench/gqlbench/report/plot"
)

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

// latencyGroup puts one-template runs of a condition together, and each
// mixed workload apart.
func latencyGroup(k Key) string {
	l := condLabel(k)
	if strings.Contains(k.Workload, "+") || !isTemplate(k.Workload) {
		l += ", workload " + k.Workload
	}
	return l
}
