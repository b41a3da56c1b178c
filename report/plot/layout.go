package plot

import (
	"fmt"
	"slices"

	gonum "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Layout is the x axis of a grouped chart: a group per category (a
// template, a workload), a slot per series in each.
type Layout struct {
	Groups []string
	Series []string
}

// Slot is the width of one series' slot, in x units.
func (l Layout) Slot() float64 { return 0.8 / float64(len(l.Series)) }

// X is the centre of a series' slot in a group; ok is false when the
// group is not in this layout.
func (l Layout) X(group, series string) (float64, bool) {
	gi := slices.Index(l.Groups, group)
	if gi < 0 {
		return 0, false
	}
	return float64(gi) - 0.4 + l.Slot()*(float64(slices.Index(l.Series, series))+0.5), true
}

// Axis labels the groups on the x axis and fits the axis to them.
func (l Layout) Axis(p *gonum.Plot) {
	p.X.Tick.Marker = groupTicks(l.Groups, func(i int) float64 { return float64(i) })
	p.X.Min, p.X.Max = -0.5, float64(len(l.Groups))-0.5
}

// Size is Wide when the chart holds many bars.
func (l Layout) Size() Size {
	if len(l.Groups)*len(l.Series) > 16 {
		return Wide
	}
	return Normal
}

// groupWidth is the width of one group in a chart of the size.
func (l Layout) groupWidth(s Size) vg.Length {
	w, _ := s.Dims()
	return (w - vg.Points(80)) / vg.Length(len(l.Groups))
}

// BoxWidth is the width of one box in a chart of the size.
func (l Layout) BoxWidth(s Size) vg.Length {
	return min(vg.Points(40), l.groupWidth(s)*vg.Length(l.Slot()*0.7))
}

// Split splits the layout's groups into consecutive parts of at most
// MaxBars bars (a bar per series in each group), as even as possible.
func (l Layout) Split() []Layout {
	var out []Layout
	for _, groups := range splitGroups(l.Groups, len(l.Series)) {
		out = append(out, Layout{Groups: groups, Series: l.Series})
	}
	return out
}

// splitGroups splits the groups of a grouped chart, n bars each, into
// consecutive parts of at most MaxBars bars, as even as possible.
func splitGroups(groups []string, n int) [][]string {
	per := max(1, MaxBars/max(n, 1))
	parts := (len(groups) + per - 1) / per
	if parts <= 1 {
		return [][]string{groups}
	}
	size := (len(groups) + parts - 1) / parts
	var out [][]string
	for i := 0; i < len(groups); i += size {
		out = append(out, groups[i:min(i+size, len(groups))])
	}
	return out
}

// Part names part i of a split chart: "" when whole, else its ID suffix
// and title suffix.
func Part(parts []Layout, i int) (id, title string) {
	if len(parts) < 2 {
		return "", ""
	}
	p := parts[i].Groups
	span := p[0]
	if len(p) > 1 {
		span += "–" + p[len(p)-1]
	}
	return fmt.Sprintf("-%d", i+1), ", " + span
}
