package plot

import (
	"slices"
	"strconv"
	"strings"

	gonum "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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

// Line is one series of points with optional error bars.
type Line struct {
	Name    string
	Color   int  // the palette's
	Wrong   bool // dotted, whatever its style
	Style   int  // dashStyles index: lines of one series told apart (p50 and p99, pool sizes)
	Xs, Ys  []float64
	Lo, Hi  []float64 // error bar ends, nil for none
	Markers bool
}

// Lines draws lines (paper Fig. 9 and 10, latency–throughput, time
// series) as the chart id.
func Lines(id, title, caption, xlabel, ylabel string, lines []Line) (Chart, error) {
	c := Chart{ID: id, Title: title, Caption: caption}
	p := New(xlabel, ylabel)
	c.LogY = linesAxes(p, lines)
	for _, l := range lines {
		e, err := addLine(p, l)
		if err != nil {
			return c, err
		}
		c.Legend = append(c.Legend, e)
	}
	Headroom(p, isLog(p))
	err := c.Render(p)
	return c, err
}

// linesAxes puts the y axis on a log scale when the lines' values span
// more than logSpan (their error bars then end at its foot at the
// lowest); it reports whether it did.
func linesAxes(p *gonum.Plot, lines []Line) (logY bool) {
	var ys []float64
	for _, l := range lines {
		ys = append(ys, l.Ys...)
		ys = append(ys, l.Lo...)
		ys = append(ys, l.Hi...)
	}
	if logY = LogY(p, ys); logY {
		for _, l := range lines {
			for i := range l.Lo {
				l.Lo[i] = max(l.Lo[i], p.Y.Min)
			}
		}
	} else {
		p.Y.Min = 0
	}
	return logY
}

// addLine draws one line, its markers and error bars, and returns its
// legend entry.
func addLine(p *gonum.Plot, l Line) (Legend, error) {
	pts := xys(l.Xs, l.Ys)
	ln, err := plotter.NewLine(pts)
	if err != nil {
		return Legend{}, err
	}
	col := ColorOf(l.Color)
	dash := dashStyles[l.Style%len(dashStyles)]
	if l.Wrong {
		dash = wrongDash
	}
	ln.Color, ln.Width = col, vg.Points(1.5)
	for _, d := range dash {
		ln.Dashes = append(ln.Dashes, vg.Points(d))
	}
	p.Add(ln)
	if l.Markers {
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return Legend{}, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	if l.Lo != nil {
		errs := make(plotter.YErrors, len(l.Xs))
		for i := range l.Xs {
			errs[i] = struct{ Low, High float64 }{l.Ys[i] - l.Lo[i], l.Hi[i] - l.Ys[i]}
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return Legend{}, err
		}
		eb.Color = col
		p.Add(eb)
	}
	return Legend{Name: legendName(l.Name, l.Wrong), Color: HexColor(col), Mark: "line", Dash: dashAttr(dash), Wrong: l.Wrong}, nil
}

// Sort orders the line's points by x, stably.
func (l *Line) Sort() {
	idx := make([]int, len(l.Xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case l.Xs[a] < l.Xs[b]:
			return -1
		case l.Xs[a] > l.Xs[b]:
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
	l.Xs, l.Ys, l.Lo, l.Hi = pick(l.Xs), pick(l.Ys), pick(l.Lo), pick(l.Hi)
}

// DistinctX counts the distinct x values of the lines.
func DistinctX(lines []Line) int {
	seen := map[float64]bool{}
	for _, l := range lines {
		for _, x := range l.Xs {
			seen[x] = true
		}
	}
	return len(seen)
}
