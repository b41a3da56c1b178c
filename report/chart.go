package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// chart is one drawn chart: an SVG document to inline in HTML, with its
// legend (drawn in HTML beside it, outside the data).
type chart struct {
	ID      string // stable, for anchors and tests
	Title   string
	Caption string // how to read it
	SVG     string
	Legend  []legendEntry
	Bars    int  // bars or boxes drawn: at most maxBars
	LogY    bool // the y axis is logarithmic (and its label says so)
	Size    chartSize
	H       vg.Length // the height, when not the size's
	// WidthPx is the chart's natural width in CSS pixels, and SmallestPx
	// the height of its smallest text there: the page never shows it
	// narrower than makes that text minTextPx (see minWidthPx).
	WidthPx    int
	SmallestPx float64
}

// chartSize is how wide a chart is drawn, and so where it goes on the page.
type chartSize int

const (
	sizeNormal chartSize = iota // half the page on a wide screen
	sizeWide                    // the page's width: many groups
	sizeSmall                   // a small multiple, several to a row
)

// width and height of a chart of the size, in points (1 pt = 4/3 CSS px).
func (s chartSize) dims() (w, h vg.Length) {
	switch s {
	case sizeWide:
		return vg.Points(720), vg.Points(270)
	case sizeSmall:
		return vg.Points(300), vg.Points(200)
	}
	return vg.Points(480), vg.Points(280)
}

// Text sizes in the charts, in points (1 pt = 4/3 CSS px). A chart is
// never shown narrower than makes its smallest text minTextPx CSS pixels
// (it scrolls instead): see minWidthPx.
const (
	tickPt    = 10
	labelPt   = 11
	minTextPx = 10
)

// minWidthPx is the narrowest a chart may be shown, in CSS pixels, for its
// smallest text to stay minTextPx high.
func (c chart) minWidthPx() int {
	if c.SmallestPx <= 0 {
		return 0
	}
	return int(math.Ceil(float64(c.WidthPx) * minTextPx / c.SmallestPx))
}

// maxBars is the most bars (or boxes) one chart holds; more are split into
// several charts.
const maxBars = 40

// legendEntry is one entry of a chart's legend.
type legendEntry struct {
	Name  string
	Color string // #rrggbb
	Mark  string // "box" (a filled square) or "line"
	Dash  string // a line's SVG stroke-dasharray, in px ("" solid)
	Wrong bool   // the series returned wrong answers: outlined in red
}

// boxEntry is a series' legend entry for its bars or boxes.
func (r *Report) boxEntry(name string) legendEntry {
	wrong := r.flagged(name)
	return legendEntry{Name: legendName(name, wrong), Color: hexColor(colorOf(r.colorIndex(name))), Mark: "box", Wrong: wrong}
}

// refEntry is the legend entry of a reference line.
func refEntry(name string) legendEntry {
	return legendEntry{Name: name, Color: hexColor(refColor), Mark: "line", Dash: dashAttr([]float64{5, 3})}
}

func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// palette is Okabe and Ito's colour-blind-safe palette, then greys.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0xF0, 0xE4, 0x42, 0xff}, // yellow
	{0x00, 0x00, 0x00, 0xff}, // black
}

var wrongColor = color.RGBA{0xC0, 0x00, 0x00, 0xff}

// databaseColor is the database's share of a stacked CPU bar.
var databaseColor = color.RGBA{0xA8, 0xA8, 0xA8, 0xff}

func colorOf(i int) color.RGBA { return palette[i%len(palette)] }

// newPlot returns a plot in a sans-serif face with a grid. It has no
// title and no legend: the page shows both beside it, in HTML.
func newPlot(x, y string) *plot.Plot {
	p := plot.New()
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, f := range []*plot.Axis{&p.X, &p.Y} {
		f.Label.TextStyle.Font.Variant = "Sans"
		f.Tick.Label.Font.Variant = "Sans"
		f.Label.TextStyle.Font.Size = vg.Points(labelPt)
		f.Tick.Label.Font.Size = vg.Points(tickPt)
	}
	g := plotter.NewGrid()
	g.Vertical.Width = 0
	g.Horizontal.Color = color.Gray{0xdd}
	p.Add(g)
	return p
}

// logSpan is the ratio of the largest to the smallest positive value above
// which a y axis is logarithmic: more than two orders of magnitude.
const logSpan = 100

// logY puts the y axis on a log scale, and says so in its label, when the
// positive values span more than logSpan; it reports whether it did.
func logY(p *plot.Plot, values []float64) bool { return logAxis(&p.Y, values) }

// logAxis puts an axis on a log scale, and says so in its label, when the
// positive values span more than logSpan; it reports whether it did.
func logAxis(a *plot.Axis, values []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 || hi/lo <= logSpan {
		return false
	}
	a.Scale = plot.LogScale{}
	a.Tick.Marker = plot.LogTicks{Prec: -1}
	a.Min, a.Max = math.Pow(10, math.Floor(math.Log10(lo))), hi*1.25
	a.Label.Text += " (log scale)"
	return true
}

// xys pairs xs with ys.
func xys(xs, ys []float64) plotter.XYs {
	out := make(plotter.XYs, len(xs))
	for i := range xs {
		out[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	return out
}

// render draws p as the chart's SVG document, of its size (and height H
// when set), without the XML prolog, ready to inline in HTML.
func (c *chart) render(p *plot.Plot) error {
	w, h := c.Size.dims()
	if c.H > 0 {
		h = c.H
	}
	svg, err := renderSVG(p, w, h)
	c.SVG = svg
	c.WidthPx, c.SmallestPx = int(math.Round(float64(w)*4/3)), tickPt*4.0/3
	return err
}

// renderSVG draws p as an SVG document of w × h, without its XML prolog.
func renderSVG(p *plot.Plot, w, h vg.Length) (svg string, err error) {
	defer func() {
		if v := recover(); v != nil { // gonum/plot panics on data it cannot draw
			svg, err = "", fmt.Errorf("%v", v)
		}
	}()
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s, nil
}

// bars is a plotter of grouped bars with error bars, in data coordinates
// (gonum's BarChart offsets bars in points, which error bars cannot follow).
// Horizontal bars lie along x, their categories on y.
type bars struct {
	xs, ys, lo, hi []float64 // centre (the category axis), length, error bar ends
	width          float64   // along the category axis
	color          color.Color
	wrong          bool // hatched in red: the series gave wrong answers
	base           float64
	bottoms        []float64 // per bar, where it starts (stacked bars); nil: base
	horizontal     bool
}

// Plot draws the bars.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	floor := p.Y.Min
	pt := func(cat, val float64) vg.Point { return vg.Point{X: tx(cat), Y: ty(val)} }
	if b.horizontal {
		floor = p.X.Min
		pt = func(cat, val float64) vg.Point { return vg.Point{X: tx(val), Y: ty(cat)} }
	}
	for i, x := range b.xs {
		bottom := b.base
		if b.bottoms != nil {
			bottom = b.bottoms[i]
		}
		a, z := pt(x-b.width/2, max(bottom, floor)), pt(x+b.width/2, b.ys[i])
		rect := []vg.Point{a, {X: a.X, Y: z.Y}, z, {X: z.X, Y: a.Y}}
		c.FillPolygon(b.color, c.ClipPolygonXY(rect))
		if b.wrong {
			outline := draw.LineStyle{Color: wrongColor, Width: vg.Points(1.5)}
			c.StrokeLines(outline, c.ClipLinesXY(append(rect, rect[0]))...)
			for k := 0.0; k <= 1; k += 0.25 {
				if b.horizontal {
					v := a.X + (z.X-a.X)*vg.Length(k)
					c.StrokeLine2(outline, v, a.Y, v, z.Y)
				} else {
					v := a.Y + (z.Y-a.Y)*vg.Length(k)
					c.StrokeLine2(outline, a.X, v, z.X, v)
				}
			}
		}
		if b.hi[i] > b.lo[i] {
			ls := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
			lo, hi := pt(x, max(b.lo[i], floor)), pt(x, b.hi[i])
			c.StrokeLine2(ls, lo.X, lo.Y, hi.X, hi.Y)
			for _, e := range []vg.Point{lo, hi} {
				if b.horizontal {
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
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	cmin, cmax, vmin, vmax := math.Inf(1), math.Inf(-1), b.base, b.base
	for i, x := range b.xs {
		cmin, cmax = min(cmin, x-b.width/2), max(cmax, x+b.width/2)
		vmax = max(vmax, b.ys[i], b.hi[i])
		if b.base > 0 && b.lo[i] > 0 {
			vmin = min(vmin, b.lo[i])
		}
	}
	if b.horizontal {
		return vmin, vmax, cmin, cmax
	}
	return cmin, cmax, vmin, vmax
}

// refLine is a horizontal reference line across the data area, labelled
// at its right end: the load generator's ceiling. Far above the data it is
// not drawn, and its label says so at the top.
type refLine struct {
	y        float64 // where it crosses the value axis
	label    string
	above    bool // beyond the data: only its label is drawn
	vertical bool // the value axis is x (horizontal bars)
}

// newRefLine makes a reference line at y over data reaching top: drawn
// when it is at most refReach times higher.
func newRefLine(y, top float64, label string) refLine {
	if y > refReach*top {
		return refLine{y: y, label: "↑ " + label + " (above)", above: true}
	}
	return refLine{y: y, label: label}
}

// refReach is how far above the data a reference line may stretch the axis.
const refReach = 2

// refColor is the colour of reference lines.
var refColor = color.RGBA{0x44, 0x44, 0x44, 0xff}

// Plot draws the line and its label.
func (l refLine) Plot(c draw.Canvas, p *plot.Plot) {
	sty := p.Y.Tick.Label
	sty.Color = refColor
	if l.above {
		sty.XAlign, sty.YAlign = draw.XRight, draw.YTop
		fillLabel(c, sty, vg.Point{X: c.Max.X - vg.Points(3), Y: c.Max.Y - vg.Points(2)}, l.label)
		return
	}
	tx, ty := p.Transforms(&c)
	ls := draw.LineStyle{Color: refColor, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
	if l.vertical {
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
func (l refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	none := math.Inf(1)
	switch {
	case l.above:
		return none, -none, none, -none
	case l.vertical:
		return l.y, l.y, none, -none
	}
	return none, -none, l.y, l.y
}

// groupTicks labels the centres of groups on the x axis.
func groupTicks(labels []string, centre func(i int) float64) plot.ConstantTicks {
	var ts []plot.Tick
	for i, l := range labels {
		ts = append(ts, plot.Tick{Value: centre(i), Label: l})
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
