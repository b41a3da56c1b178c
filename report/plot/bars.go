package plot

import (
	"image/color"
	"math"

	gonum "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bars is a plotter of grouped bars with error bars, in data coordinates
// (gonum's BarChart offsets bars in points, which error bars cannot follow).
// Horizontal bars lie along x, their categories on y.
type Bars struct {
	Xs, Ys, Lo, Hi []float64 // centre (the category axis), length, error bar ends
	Width          float64   // along the category axis
	Color          color.Color
	Wrong          bool // hatched in red: the series gave wrong answers
	Base           float64
	Bottoms        []float64 // per bar, where it starts (stacked bars); nil: Base
	Horizontal     bool
}

// Add adds a bar at x (on the category axis) of length y, its error bar
// from lo to hi.
func (b *Bars) Add(x, y, lo, hi float64) {
	b.Xs, b.Ys, b.Lo, b.Hi = append(b.Xs, x), append(b.Ys, y), append(b.Lo, lo), append(b.Hi, hi)
}

// Plot draws the bars.
func (b *Bars) Plot(c draw.Canvas, p *gonum.Plot) {
	tx, ty := p.Transforms(&c)
	floor := p.Y.Min
	pt := func(cat, val float64) vg.Point { return vg.Point{X: tx(cat), Y: ty(val)} }
	if b.Horizontal {
		floor = p.X.Min
		pt = func(cat, val float64) vg.Point { return vg.Point{X: tx(val), Y: ty(cat)} }
	}
	for i, x := range b.Xs {
		bottom := b.Base
		if b.Bottoms != nil {
			bottom = b.Bottoms[i]
		}
		a, z := pt(x-b.Width/2, max(bottom, floor)), pt(x+b.Width/2, b.Ys[i])
		rect := []vg.Point{a, {X: a.X, Y: z.Y}, z, {X: z.X, Y: a.Y}}
		c.FillPolygon(b.Color, c.ClipPolygonXY(rect))
		if b.Wrong {
			outline := draw.LineStyle{Color: WrongColor, Width: vg.Points(1.5)}
			c.StrokeLines(outline, c.ClipLinesXY(append(rect, rect[0]))...)
			for k := 0.0; k <= 1; k += 0.25 {
				if b.Horizontal {
					v := a.X + (z.X-a.X)*vg.Length(k)
					c.StrokeLine2(outline, v, a.Y, v, z.Y)
				} else {
					v := a.Y + (z.Y-a.Y)*vg.Length(k)
					c.StrokeLine2(outline, a.X, v, z.X, v)
				}
			}
		}
		if b.Hi[i] > b.Lo[i] {
			ls := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
			lo, hi := pt(x, max(b.Lo[i], floor)), pt(x, b.Hi[i])
			c.StrokeLine2(ls, lo.X, lo.Y, hi.X, hi.Y)
			for _, e := range []vg.Point{lo, hi} {
				if b.Horizontal {
					cap := (z.Y - a.Y) / 4
					c.StrokeLine2(ls, e.X, e.Y-cap, e.X, e.Y+cap)
				} else {
					cap := (z.X - a.X) / 4
					c.StrokeLine2(ls, e.X-cap, e.Y, e.X+cap, e.Y)
				}
			}
		}
	}
}

// DataRange covers the bars and their error bars.
func (b *Bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	cmin, cmax, vmin, vmax := math.Inf(1), math.Inf(-1), b.Base, b.Base
	for i, x := range b.Xs {
		cmin, cmax = min(cmin, x-b.Width/2), max(cmax, x+b.Width/2)
		vmax = max(vmax, b.Ys[i], b.Hi[i])
		if b.Base > 0 && b.Lo[i] > 0 {
			vmin = min(vmin, b.Lo[i])
		}
	}
	if b.Horizontal {
		return vmin, vmax, cmin, cmax
	}
	return cmin, cmax, vmin, vmax
}

// RefLine is a horizontal reference line across the data area, labelled
// at its right end: the load generator's ceiling. Far above the data it is
// not drawn, and its label says so at the top.
type RefLine struct {
	y        float64 // where it crosses the value axis
	label    string
	above    bool // beyond the data: only its label is drawn
	Vertical bool // the value axis is x (horizontal bars)
}

// NewRefLine makes a reference line at y over data reaching top: drawn
// when it is at most refReach times higher.
func NewRefLine(y, top float64, label string) RefLine {
	if y > refReach*top {
		return RefLine{y: y, label: "↑ " + label + " (above)", above: true}
	}
	return RefLine{y: y, label: label}
}

// refReach is how far above the data a reference line may stretch the axis.
const refReach = 2

// refColor is the colour of reference lines.
var refColor = color.RGBA{0x44, 0x44, 0x44, 0xff}

// Plot draws the line and its label.
func (l RefLine) Plot(c draw.Canvas, p *gonum.Plot) {
	sty := p.Y.Tick.Label
	sty.Color = refColor
	if l.above {
		sty.XAlign, sty.YAlign = draw.XRight, draw.YTop
		fillLabel(c, sty, vg.Point{X: c.Max.X - vg.Points(3), Y: c.Max.Y - vg.Points(2)}, l.label)
		return
	}
	tx, ty := p.Transforms(&c)
	ls := draw.LineStyle{Color: refColor, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
	if l.Vertical {
		x := tx(l.y)
		c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
		sty.XAlign, sty.YAlign = draw.XRight, draw.YTop
		off := -vg.Points(3)
		if x < (c.Min.X+c.Max.X)/2 { // label on the side with room
			sty.XAlign, off = draw.XLeft, vg.Points(3)
		}
		fillLabel(c, sty, vg.Point{X: x + off, Y: c.Max.Y - vg.Points(2)}, l.label)
		return
	}
	y := ty(l.y)
	c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
	sty.XAlign, sty.YAlign = draw.XRight, draw.YBottom
	fillLabel(c, sty, vg.Point{X: c.Max.X - vg.Points(3), Y: y + vg.Points(2)}, l.label)
}

// fillLabel writes a reference line's label on a white ground, so that
// bars behind it do not hide it.
func fillLabel(c draw.Canvas, sty draw.TextStyle, at vg.Point, label string) {
	r := sty.Rectangle(label).Add(at)
	pad := vg.Points(1.5)
	ground := []vg.Point{{X: r.Min.X - pad, Y: r.Min.Y}, {X: r.Min.X - pad, Y: r.Max.Y}, {X: r.Max.X + pad, Y: r.Max.Y}, {X: r.Max.X + pad, Y: r.Min.Y}}
	c.FillPolygon(color.RGBA{0xe0, 0xe0, 0xe0, 0xe0}, ground) // white at 88 %, premultiplied
	c.FillText(sty, at, label)
}

// DataRange covers the line's height only (nothing when it is above).
func (l RefLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	none := math.Inf(1)
	switch {
	case l.above:
		return none, -none, none, -none
	case l.Vertical:
		return l.y, l.y, none, -none
	}
	return none, -none, l.y, l.y
}

// groupTicks labels the centres of groups on the x axis.
func groupTicks(labels []string, centre func(i int) float64) gonum.ConstantTicks {
	var ts []gonum.Tick
	for i, l := range labels {
		ts = append(ts, gonum.Tick{Value: centre(i), Label: l})
	}
	return ts
}

// legendName is a series' name in a legend, marked when it gave wrong
// answers.
func legendName(name string, wrong bool) string {
	if wrong {
		return name + " (WRONG ANSWERS)"
	}
	return name
}
