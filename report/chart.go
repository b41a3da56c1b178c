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

// chart is one drawn chart: an SVG document to inline in HTML.
type chart struct {
	ID      string // stable, for anchors and tests
	Title   string
	Caption string // how to read it
	SVG     string
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

// newPlot returns a plot in a sans-serif face with a grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, f := range []*plot.Axis{&p.X, &p.Y} {
		f.Label.TextStyle.Font.Variant = "Sans"
		f.Tick.Label.Font.Variant = "Sans"
		f.Label.TextStyle.Font.Size = vg.Points(10)
		f.Tick.Label.Font.Size = vg.Points(9)
	}
	p.Title.TextStyle.Font.Variant = "Sans"
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Legend.TextStyle.Font.Variant = "Sans"
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(14)
	g := plotter.NewGrid()
	g.Vertical.Width = 0
	g.Horizontal.Color = color.Gray{0xdd}
	p.Add(g)
	return p
}

// logY puts the y axis on a log scale when the positive values span more
// than a decade and a half; it reports whether it did.
func logY(p *plot.Plot, values []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 || hi/lo < 30 {
		return false
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	return true
}

// renderSVG draws p as an SVG document of w × h points, without its XML
// prolog, ready to inline in HTML.
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
type bars struct {
	xs, ys, lo, hi []float64 // centre, height, error bar ends
	width          float64   // in x units
	color          color.Color
	wrong          bool // hatched in red: the series gave wrong answers
	base           float64
	bottoms        []float64 // per bar, where it starts (stacked bars); nil: base
}

// Plot draws the bars.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for i, x := range b.xs {
		x0, x1 := tx(x-b.width/2), tx(x+b.width/2)
		bottom := b.base
		if b.bottoms != nil {
			bottom = b.bottoms[i]
		}
		y0, y1 := ty(max(bottom, p.Y.Min)), ty(b.ys[i])
		rect := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		c.FillPolygon(b.color, c.ClipPolygonXY(rect))
		if b.wrong {
			outline := draw.LineStyle{Color: wrongColor, Width: vg.Points(1.5)}
			c.StrokeLines(outline, c.ClipLinesXY(append(rect, rect[0]))...)
			for k := 0.0; k <= 1; k += 0.25 {
				y := y0 + (y1-y0)*vg.Length(k)
				c.StrokeLine2(outline, x0, y, x1, y)
			}
		}
		if b.hi[i] > b.lo[i] {
			ls := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
			xm, ylo, yhi, cap := tx(x), ty(max(b.lo[i], p.Y.Min)), ty(b.hi[i]), (x1-x0)/4
			c.StrokeLine2(ls, xm, ylo, xm, yhi)
			c.StrokeLine2(ls, xm-cap, ylo, xm+cap, ylo)
			c.StrokeLine2(ls, xm-cap, yhi, xm+cap, yhi)
		}
	}
}

// DataRange covers the bars and their error bars.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), b.base, b.base
	for i, x := range b.xs {
		xmin, xmax = min(xmin, x-b.width/2), max(xmax, x+b.width/2)
		ymax = max(ymax, b.ys[i], b.hi[i])
		if b.base > 0 && b.lo[i] > 0 {
			ymin = min(ymin, b.lo[i])
		}
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws the legend's swatch.
func (b *bars) Thumbnail(c *draw.Canvas) { swatch{b.color, b.wrong}.Thumbnail(c) }

// swatch is a legend entry of a filled square.
type swatch struct {
	color color.Color
	wrong bool
}

// Thumbnail draws the swatch.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.color, pts)
	if s.wrong {
		c.StrokeLines(draw.LineStyle{Color: wrongColor, Width: vg.Points(1.5)}, append(pts, pts[0]))
	}
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

// fmtCount formats a number for a tick or label.
func fmtCount(v float64) string { return fmt.Sprintf("%g", v) }
