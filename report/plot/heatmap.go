package plot

import (
	"fmt"
	"html"
	"image/color"
	"math"
	"strings"
)

// The heat map's geometry, in CSS pixels: its SVG is drawn at 1 unit = 1 px.
const (
	HeatmapFont = 13 // every text
	hmRowH      = 22
	hmPad       = 8
	hmCharW     = 0.6 // average glyph width, in ems, to size columns
)

// Heatmap is a table drawn as a chart: a column per series, named above
// it, a row per category, labelled on its left, each cell coloured and
// labelled.
type Heatmap struct {
	Columns []HeatmapColumn
	Rows    []HeatmapRow
}

// HeatmapColumn is a heat map's column head.
type HeatmapColumn struct {
	Name   string
	Italic bool // the reference the cells are measured against
}

// HeatmapRow is one row of a heat map.
type HeatmapRow struct {
	Label string
	Href  string // where the label links to ("" for no link)
	Gap   bool   // a gap above it sets it apart from the rows before
	Cells []HeatmapCell
}

// HeatmapCell is one cell of a heat map.
type HeatmapCell struct {
	Fill, Ink string // #rrggbb: the cell's colour, its text's
	Text      string
	Title     string // the tooltip
	Bold      bool   // in bold, outlined: the row's winner
}

// SVG draws the heat map as an SVG document, w CSS pixels wide.
func (m Heatmap) SVG() (svg string, w int) {
	labelW := hmPad * 2
	for _, row := range m.Rows {
		labelW = max(labelW, int(textWidth(row.Label, HeatmapFont))+hmPad*2)
	}
	cellW, nameW := 72, 0
	for _, c := range m.Columns {
		nameW = max(nameW, int(textWidth(c.Name, HeatmapFont)))
	}
	cellW = max(cellW, min(112, nameW+12))
	rotate := nameW > cellW-8
	headH := hmRowH + 4
	if rotate {
		headH = int(float64(nameW)*math.Sin(math.Pi/5)) + hmRowH
	}
	gap := 0
	if m.gaps() {
		gap = 8
	}
	w = labelW + len(m.Columns)*cellW + hmPad
	if rotate { // the last name reaches beyond its column, up and to the right
		w += max(0, int(float64(nameW)*math.Cos(math.Pi/5))-cellW/2)
	}
	h := headH + len(m.Rows)*hmRowH + gap + hmPad
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="heatmap" width="%d" height="%d" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Liberation Sans', sans-serif">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`, w, h)
	m.head(&b, labelW, cellW, headH, rotate)
	y := headH
	for _, row := range m.Rows {
		if row.Gap {
			y += gap
		}
		row.draw(&b, labelW, cellW, y)
		y += hmRowH
	}
	b.WriteString(`</svg>`)
	return b.String(), w
}

// gaps reports whether a row has a gap above it.
func (m Heatmap) gaps() bool {
	for _, row := range m.Rows {
		if row.Gap {
			return true
		}
	}
	return false
}

// head writes the column names over their columns.
func (m Heatmap) head(b *strings.Builder, labelW, cellW, headH int, rotate bool) {
	for i, c := range m.Columns {
		x := labelW + i*cellW + cellW/2
		name := html.EscapeString(c.Name)
		weight := ""
		if c.Italic {
			weight = ` font-style="italic"`
		}
		if rotate {
			fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d"%s transform="rotate(-36 %d %d)">%s</text>`, x-4, headH-8, HeatmapFont, weight, x-4, headH-8, name)
			continue
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle"%s>%s</text>`, x, headH-8, HeatmapFont, weight, name)
	}
}

// draw writes one row: its label and its cells.
func (row HeatmapRow) draw(b *strings.Builder, labelW, cellW, y int) {
	label, ink := html.EscapeString(row.Label), "#111111"
	if row.Href != "" {
		label, ink = fmt.Sprintf(`<a href="%s">%s</a>`, row.Href, label), "#0550ae"
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" fill="%s">%s</text>`, hmPad, y+hmRowH-7, HeatmapFont, ink, label)
	for i, c := range row.Cells {
		x := labelW + i*cellW
		fmt.Fprintf(b, `<g><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#ffffff"/>`,
			html.EscapeString(c.Title), x, y, cellW, hmRowH, c.Fill)
		weight := ""
		if c.Bold {
			weight = ` font-weight="bold"`
			fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#111111" stroke-width="2"/>`, x+2, y+2, cellW-4, hmRowH-4)
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="%s"%s>%s</text></g>`,
			x+cellW/2, y+hmRowH-7, HeatmapFont, c.Ink, weight, html.EscapeString(c.Text))
	}
}

// RatioLegend is the legend of ratio colours: ¼× (slower) to 4× (faster).
func RatioLegend() []Legend {
	var out []Legend
	for k := -2; k <= 2; k++ {
		name := scaleLabel(k)
		switch k {
		case -2:
			name += " slower"
		case 2:
			name += " faster"
		}
		out = append(out, Legend{Name: name, Color: HexColor(RatioColor(math.Pow(2, float64(k)))), Mark: "box"})
	}
	return out
}

func scaleLabel(pow int) string {
	return map[int]string{-2: "¼×", -1: "½×", 0: "1×", 1: "2×", 2: "4×"}[pow]
}

// ratioScale is ColorBrewer's PuOr, colour-blind safe: orange slower,
// purple faster, light grey at 1×; 4× and ¼× are the ends.
var ratioScale = []color.RGBA{
	{0xb3, 0x58, 0x06, 0xff}, {0xf1, 0xa3, 0x40, 0xff}, {0xfe, 0xe0, 0xb6, 0xff}, {0xf7, 0xf7, 0xf7, 0xff},
	{0xd8, 0xda, 0xeb, 0xff}, {0x99, 0x8e, 0xc3, 0xff}, {0x54, 0x27, 0x88, 0xff},
}

// RatioColor is a speed-up's colour: log2 of it from −2 to 2 along the
// scale.
func RatioColor(ratio float64) color.RGBA {
	t := (max(-2, min(2, math.Log2(ratio))) + 2) / 4 * float64(len(ratioScale)-1)
	i := min(int(t), len(ratioScale)-2)
	f := t - float64(i)
	a, b := ratioScale[i], ratioScale[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*f)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// InkOn is the text colour that reads on a fill: white on dark fills.
func InkOn(c color.RGBA) string {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	if 0.2126*lin(c.R)+0.7152*lin(c.G)+0.0722*lin(c.B) < 0.25 {
		return "#ffffff"
	}
	return "#111111"
}

// textWidth estimates the width of text in px at a font size.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * hmCharW
}
