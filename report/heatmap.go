package report

import (
	"fmt"
	"slices"

	"github.com/gqlbench/gqlbench/report/plot"
)

// heatmap draws a matrix as the overview's chart: a row per template or
// mixed workload, a column per series, each cell coloured by the series'
// speed-up over the reference and labelled with it (the reference's column
// holds its own figures), the winner of each row (the fastest correct
// series, significantly ahead of the runner-up) in bold and outlined. Row labels link to the per-template sections.
func (r *Report) heatmap(m matrix) plot.Chart {
	c := plot.Chart{ID: chartID("heatmap", condLabel(m.cond)), Title: "Speed-up over " + m.reference + " (" + condLabel(m.cond) + ")",
		Caption: r.heatmapCaption(m)}
	var hm plot.Heatmap
	for _, s := range m.series {
		hm.Columns = append(hm.Columns, plot.HeatmapColumn{Name: r.seriesCell(s), Italic: s == m.reference})
	}
	for i, row := range m.rows {
		hm.Rows = append(hm.Rows, r.heatmapRow(m, row, row.mixed && i > 0 && !m.rows[i-1].mixed))
	}
	c.SVG, c.WidthPx = hm.SVG()
	c.SmallestPx = plot.HeatmapFont
	c.Legend = plot.RatioLegend()
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

// heatmapRow is one row of the heat map: its label, linked to the
// template's section, and its cells.
func (r *Report) heatmapRow(m matrix, row matrixLine, gap bool) plot.HeatmapRow {
	out := plot.HeatmapRow{Label: row.label, Gap: gap}
	if !row.mixed && r.hasTemplateSection(row.label) {
		out.Href = "#" + templateAnchor(row.label)
	}
	for i, c := range row.cells {
		fill, ink := "#ffffff", "#111111"
		text := "–"
		switch {
		case !c.ok:
		case m.series[i] == m.reference:
			fill, text = "#e4e4e4", figureCell(m, c)
		case c.flagged:
			fill, ink, text = "#eeeeee", plot.HexColor(plot.WrongColor), "✗ "+timesCell(c.speedup)
		case c.speedup > 0:
			col := plot.RatioColor(c.speedup)
			fill, ink, text = plot.HexColor(col), plot.InkOn(col), timesCell(c.speedup)
		default:
			text = figureCell(m, c)
		}
		if c.ok && c.same {
			text = "≈" + text
		}
		if c.limited {
			text += "*"
		}
		out.Cells = append(out.Cells, plot.HeatmapCell{Fill: fill, Ink: ink, Text: text, Title: r.cellTitle(m, row, i), Bold: i == row.best && row.clear})
	}
	return out
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

// templateAnchor is the id of a template's section.
func templateAnchor(label string) string { return chartID("tmpl", label) }
