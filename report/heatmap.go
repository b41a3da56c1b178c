package report

import (
	"fmt"
	"html"
	"image/color"
	"math"
	"slices"
	"strings"
)

// The heat map's geometry, in CSS pixels: its SVG is drawn at 1 unit = 1 px.
const (
	hmFont  = 13 // every text
	hmRowH  = 22
	hmPad   = 8
	hmCharW = 0.6 // average glyph width, in ems, to size columns
)

// heatmap draws a matrix as the overview's chart: a row per template or
// mixed workload, a column per series, each cell coloured by the series'
// speed-up over the reference and labelled with it (the reference's column
// holds its own figures), the winner of each row (the fastest correct
// series, significantly ahead of the runner-up) in bold and outlined. Row labels link to the per-template sections.
func (r *Report) heatmap(m matrix) chart {
	c := chart{ID: chartID("heatmap", condLabel(m.cond)), Title: "Speed-up over " + m.reference + " (" + condLabel(m.cond) + ")",
		Caption: r.heatmapCaption(m)}
	labelW := hmPad * 2
	for _, row := range m.rows {
		labelW = max(labelW, int(textWidth(row.label, hmFont))+hmPad*2)
	}
	cellW, nameW := 72, 0
	for _, s := range m.series {
		nameW = max(nameW, int(textWidth(r.seriesCell(s), hmFont)))
	}
	cellW = max(cellW, min(112, nameW+12))
	rotate := nameW > cellW-8
	headH := hmRowH + 4
	if rotate {
		headH = int(float64(nameW)*math.Sin(math.Pi/5)) + hmRowH
	}
	gap := 0
	for i, row := range m.rows {
		if row.mixed && (i == 0 || !m.rows[i-1].mixed) && i > 0 {
			gap = 8
		}
	}
	w := labelW + len(m.series)*cellW + hmPad
	if rotate { // the last name reaches beyond its column, up and to the right
		w += max(0, int(float64(nameW)*math.Cos(math.Pi/5))-cellW/2)
	}
	h := headH + len(m.rows)*hmRowH + gap + hmPad
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="heatmap" width="%d" height="%d" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Liberation Sans', sans-serif">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`, w, h)
	r.heatmapHead(&b, m, labelW, cellW, headH, rotate)
	y := headH
	for i, row := range m.rows {
		if row.mixed && i > 0 && !m.rows[i-1].mixed {
			y += gap
		}
		r.heatmapRow(&b, m, row, labelW, cellW, y)
		y += hmRowH
	}
	b.WriteString(`</svg>`)
	c.SVG, c.WidthPx, c.SmallestPx = b.String(), w, hmFont
	for k := -2; k <= 2; k++ {
		name := scaleLabel(k)
		switch k {
		case -2:
			name += " slower"
		case 2:
			name += " faster"
		}
		c.Legend = append(c.Legend, legendEntry{Name: name, Color: hexColor(ratioColor(math.Pow(2, float64(k)))), Mark: "box"})
	}
	return c
}

// heatmapCaption says how to read the heat map.
func (r *Report) heatmapCaption(m matrix) string {
	what := "completed queries per second over the measured runs"
	if m.metric == metricQET {
		what = "mean query execution time (sequential runs; a speed-up is the reference's time over the series')"
	}
	s := fmt.Sprintf("Each cell is a series' %s, as its speed-up over %s (%s's own column: its figures); above 1× (purple) is faster, below (orange) slower. Bold and outlined: the row's winner, the fastest correct series when significantly faster than the runner-up (Welch's t-test, α = 0.05).", what, m.reference, m.reference)
	var marks []string
	for _, row := range m.rows {
		for _, c := range row.cells {
			switch {
			case c.same && !slices.Contains(marks, "same"):
				marks = append(marks, "same")
			case c.limited && !slices.Contains(marks, "limited"):
				marks = append(marks, "limited")
			case c.flagged && !slices.Contains(marks, "flagged"):
				marks = append(marks, "flagged")
			}
		}
	}
	for _, mk := range marks {
		switch mk {
		case "same":
			s += " ≈: Welch's test finds no significant difference from " + m.reference + " (α = 0.05)."
		case "limited":
			s += " *: the load generator was the limit, a lower bound."
		case "flagged":
			s += " ✗: the series returned wrong answers, and is not ranked."
		}
	}
	return s + " A row's label links to its template's section."
}

// heatmapHead writes the series names over their columns.
func (r *Report) heatmapHead(b *strings.Builder, m matrix, labelW, cellW, headH int, rotate bool) {
	for i, s := range m.series {
		x := labelW + i*cellW + cellW/2
		name := html.EscapeString(r.seriesCell(s))
		weight := ""
		if s == m.reference {
			weight = ` font-style="italic"`
		}
		if rotate {
			fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d"%s transform="rotate(-36 %d %d)">%s</text>`, x-4, headH-8, hmFont, weight, x-4, headH-8, name)
			continue
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle"%s>%s</text>`, x, headH-8, hmFont, weight, name)
	}
}

// heatmapRow writes one row: its label and its cells.
func (r *Report) heatmapRow(b *strings.Builder, m matrix, row matrixLine, labelW, cellW, y int) {
	label, ink := html.EscapeString(row.label), "#111111"
	if !row.mixed && r.hasTemplateSection(row.label) {
		label, ink = fmt.Sprintf(`<a href="#%s">%s</a>`, templateAnchor(row.label), label), "#0550ae"
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" fill="%s">%s</text>`, hmPad, y+hmRowH-7, hmFont, ink, label)
	for i, c := range row.cells {
		x := labelW + i*cellW
		fill, ink := "#ffffff", "#111111"
		text := "–"
		switch {
		case !c.ok:
		case m.series[i] == m.reference:
			fill, text = "#e4e4e4", figureCell(m, c)
		case c.flagged:
			fill, ink, text = "#eeeeee", hexColor(wrongColor), "✗ "+timesCell(c.speedup)
		case c.speedup > 0:
			col := ratioColor(c.speedup)
			fill, ink, text = hexColor(col), inkOn(col), timesCell(c.speedup)
		default:
			text = figureCell(m, c)
		}
		if c.ok && c.same {
			text = "≈" + text
		}
		if c.limited {
			text += "*"
		}
		fmt.Fprintf(b, `<g><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#ffffff"/>`,
			html.EscapeString(r.cellTitle(m, row, i)), x, y, cellW, hmRowH, fill)
		weight := ""
		if i == row.best && row.clear {
			weight = ` font-weight="bold"`
			fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#111111" stroke-width="2"/>`, x+2, y+2, cellW-4, hmRowH-4)
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="%s"%s>%s</text></g>`,
			x+cellW/2, y+hmRowH-7, hmFont, ink, weight, html.EscapeString(text))
	}
}

// figureCell is a cell's own figure: queries/s, or ms of mean QET.
func figureCell(m matrix, c matrixCell) string {
	if m.metric == metricQET {
		return msWord(c.stat.Mean) + " ms"
	}
	return rateCell(c.stat.Mean) + "/s"
}

// cellTitle is a cell's tooltip: everything the cell stands for.
func (r *Report) cellTitle(m matrix, row matrixLine, i int) string {
	c := row.cells[i]
	s := m.series[i] + " on " + row.label
	if !c.ok {
		return s + ": not run"
	}
	s += ": " + figureCell(m, c)
	if m.metric == metricThroughput {
		s += " (" + runsWord(c.stat, rateCell) + ")"
	}
	if m.series[i] != m.reference && c.speedup > 0 {
		s += ", " + timesCell(c.speedup) + " " + m.reference
	}
	if c.noisy {
		s += ", noisy runs (CV " + pctCell(100*c.stat.CV) + ")"
	}
	if c.limited {
		s += ", limited by the load generator"
	}
	if c.flagged {
		s += ", WRONG ANSWERS"
	}
	return s
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

// ratioColor is a speed-up's colour: log2 of it from −2 to 2 along the
// scale.
func ratioColor(ratio float64) color.RGBA {
	t := (max(-2, min(2, math.Log2(ratio))) + 2) / 4 * float64(len(ratioScale)-1)
	i := min(int(t), len(ratioScale)-2)
	f := t - float64(i)
	a, b := ratioScale[i], ratioScale[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*f)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// inkOn is the text colour that reads on a fill: white on dark fills.
func inkOn(c color.RGBA) string {
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

// templateAnchor is the id of a template's section.
func templateAnchor(label string) string { return chartID("tmpl", label) }
