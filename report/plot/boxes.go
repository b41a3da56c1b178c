package plot

import (
	"math"

	gonum "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Box is one series' box of a five-number summary (minimum, Q1, median,
// Q3, maximum) at location loc (x, or y when horizontal), in the palette's
// colour color: whiskers to the minimum and maximum, no outliers, outlined
// in red when the series returned wrong answers.
func Box(q [5]float64, loc float64, width vg.Length, horizontal bool, color int, wrong bool) (*plotter.BoxPlot, error) {
	b, err := plotter.NewBoxPlot(width, loc, plotter.Values{q[0], q[4]})
	if err != nil {
		return nil, err
	}
	b.Horizontal = horizontal
	b.Min, b.Max, b.AdjLow, b.AdjHigh = q[0], q[4], q[0], q[4]
	b.Quartile1, b.Median, b.Quartile3, b.Outside = q[1], q[2], q[3], nil
	b.FillColor = ColorOf(color)
	b.WhiskerStyle.Dashes = nil
	if wrong {
		b.BoxStyle.Color, b.BoxStyle.Width = WrongColor, vg.Points(1.5)
	}
	return b, nil
}

// AddMeans draws the means of boxes as dots at (xs[i], ys[i]).
func AddMeans(p *gonum.Plot, xs, ys []float64) error {
	if len(xs) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(xys(xs, ys))
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: ColorOf(7), Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	return nil
}

// SlantTicks slants the x axis' labels of the chart's layout when the
// longest is wider than a group: just enough for neighbours not to
// overlap, 30° at least. It makes the chart taller by the height they add.
func (c *Chart) SlantTicks(p *gonum.Plot, l Layout) {
	_, h := c.Size.Dims()
	c.H = h + slantTicks(p, l.Groups, l.groupWidth(c.Size))
}

// slantTicks slants the x axis' labels when the longest is wider than a
// group (gap); it returns the height they add.
func slantTicks(p *gonum.Plot, groups []string, gap vg.Length) vg.Length {
	sty := &p.X.Tick.Label
	longest := vg.Length(0)
	for _, g := range groups {
		longest = max(longest, sty.Width(g))
	}
	th := sty.Height("Mg")
	if longest <= gap*0.95 {
		return 0
	}
	angle := max(math.Pi/6, math.Asin(min(1, float64(1.6*th/gap))))
	sty.Rotation, sty.XAlign, sty.YAlign = angle, draw.XRight, draw.YCenter
	// The first label reaches left of the plot, which gonum does not
	// leave room for: widen the y axis' label padding (its tick labels
	// and label take about 30 pt already).
	reach := vg.Length(float64(sty.Width(groups[0]))*math.Cos(angle)) - gap/2 - vg.Points(30)
	p.Y.Label.Padding += max(0, reach)
	return vg.Length(float64(longest)*math.Sin(angle)+float64(th)*math.Cos(angle)) - th
}

// NewSmall returns a small multiple of horizontal bars or boxes, its x
// axis labelled xlabel: a category per row, labelled, the first at the
// top; y is a category's place on the y axis.
func NewSmall(labels []string, xlabel string) (p *gonum.Plot, y func(i int) float64) {
	p = New(xlabel, "")
	n := len(labels)
	y = func(i int) float64 { return float64(n - 1 - i) }
	p.Y.Tick.Marker = groupTicks(labels, y)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return p, y
}

// SmallHeight is the height of a small multiple of n categories, and
// extraPt points more.
func SmallHeight(n int, extraPt float64) vg.Length {
	return vg.Points(float64(52+20*n)) + vg.Points(extraPt)
}
