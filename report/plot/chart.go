package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	gonum "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is one drawn chart: an SVG document to inline in HTML, with its
// legend (drawn in HTML beside it, outside the data).
type Chart struct {
	ID      string // stable, for anchors and tests
	Title   string
	Caption string // how to read it
	SVG     string
	Legend  []Legend
	Bars    int  // bars or boxes drawn: at most MaxBars
	LogY    bool // the y axis is logarithmic (and its label says so)
	Size    Size
	H       vg.Length // the height, when not the size's
	// WidthPx is the chart's natural width in CSS pixels, and SmallestPx
	// the height of its smallest text there: the page never shows it
	// narrower than makes that text MinTextPx (see MinWidthPx).
	WidthPx    int
	SmallestPx float64
}

// Size is how wide a chart is drawn, and so where it goes on the page.
type Size int

const (
	Normal Size = iota // half the page on a wide screen
	Wide               // the page's width: many groups
	Small              // a small multiple, several to a row
)

// Dims are the width and height of a chart of the size, in points (1 pt =
// 4/3 CSS px).
func (s Size) Dims() (w, h vg.Length) {
	switch s {
	case Wide:
		return vg.Points(720), vg.Points(270)
	case Small:
		return vg.Points(300), vg.Points(200)
	}
	return vg.Points(480), vg.Points(280)
}

// Text sizes in the charts, in points (1 pt = 4/3 CSS px). A chart is
// never shown narrower than makes its smallest text MinTextPx CSS pixels
// (it scrolls instead): see MinWidthPx.
const (
	tickPt    = 10
	labelPt   = 11
	MinTextPx = 10
)

// MinWidthPx is the narrowest a chart may be shown, in CSS pixels, for its
// smallest text to stay MinTextPx high.
func (c Chart) MinWidthPx() int {
	if c.SmallestPx <= 0 {
		return 0
	}
	return int(math.Ceil(float64(c.WidthPx) * MinTextPx / c.SmallestPx))
}

// MaxBars is the most bars (or boxes) one chart holds; more are split into
// several charts.
const MaxBars = 40

// OrNote is c, or when err is set c undrawn with the error as its caption:
// a report is still worth having without one of its charts.
func OrNote(c Chart, err error) Chart {
	if err != nil {
		c.SVG, c.Caption = "", fmt.Sprintf("(this chart could not be drawn: %v)", err)
	}
	return c
}

// Legend is one entry of a chart's legend.
type Legend struct {
	Name  string
	Color string // #rrggbb
	Mark  string // "box" (a filled square) or "line"
	Dash  string // a line's SVG stroke-dasharray, in px ("" solid)
	Wrong bool   // the series returned wrong answers: outlined in red
}

// BoxLegend is a series' legend entry for its bars or boxes, of colour
// ColorOf(color).
func BoxLegend(name string, color int, wrong bool) Legend {
	return Legend{Name: legendName(name, wrong), Color: HexColor(ColorOf(color)), Mark: "box", Wrong: wrong}
}

// RefLegend is the legend entry of a reference line.
func RefLegend(name string) Legend {
	return Legend{Name: name, Color: HexColor(refColor), Mark: "line", Dash: dashAttr([]float64{5, 3})}
}

// HexColor is c as #rrggbb.
func HexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// Palette is Okabe and Ito's colour-blind-safe palette, then greys.
var Palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0xF0, 0xE4, 0x42, 0xff}, // yellow
	{0x00, 0x00, 0x00, 0xff}, // black
}

// WrongColor marks what a series that returned wrong answers drew.
var WrongColor = color.RGBA{0xC0, 0x00, 0x00, 0xff}

// DatabaseColor is the database's share of a stacked CPU bar.
var DatabaseColor = color.RGBA{0xA8, 0xA8, 0xA8, 0xff}

// ColorOf is the i-th colour of the palette, round again past its end.
func ColorOf(i int) color.RGBA { return Palette[i%len(Palette)] }

// New returns a plot with axes labelled x and y, in a sans-serif face with
// a grid. It has no title and no legend: the page shows both beside it, in
// HTML.
func New(x, y string) *gonum.Plot {
	p := gonum.New()
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, f := range []*gonum.Axis{&p.X, &p.Y} {
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

// LogY puts the y axis on a log scale, and says so in its label, when the
// positive values span more than logSpan; it reports whether it did.
func LogY(p *gonum.Plot, values []float64) bool { return LogAxis(&p.Y, values) }

// LogAxis puts an axis on a log scale, and says so in its label, when the
// positive values span more than logSpan; it reports whether it did.
func LogAxis(a *gonum.Axis, values []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 || hi/lo <= logSpan {
		return false
	}
	a.Scale = gonum.LogScale{}
	a.Tick.Marker = gonum.LogTicks{Prec: -1}
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

// Headroom leaves a little room above the highest bar or point, on a
// linear y axis.
func Headroom(p *gonum.Plot, log bool) {
	if log {
		return
	}
	p.Y.Min = 0
	p.Y.Max *= 1.05
}

func isLog(p *gonum.Plot) bool {
	_, ok := p.Y.Scale.(gonum.LogScale)
	return ok
}

// Render draws p as the chart's SVG document, of its size (and height H
// when set), without the XML prolog, ready to inline in HTML.
func (c *Chart) Render(p *gonum.Plot) error {
	w, h := c.Size.Dims()
	if c.H > 0 {
		h = c.H
	}
	svg, err := renderSVG(p, w, h)
	c.SVG = svg
	c.WidthPx, c.SmallestPx = int(math.Round(float64(w)*4/3)), tickPt*4.0/3
	return err
}

// renderSVG draws p as an SVG document of w × h, without its XML prolog.
func renderSVG(p *gonum.Plot, w, h vg.Length) (svg string, err error) {
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
