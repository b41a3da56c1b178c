package report

import "github.com/gqlbench/gqlbench/report/plot"

// LineChart is a figure of lines in a Section: y over x per named line,
// such as a soak's live heap, heap in use and RSS over time.
type LineChart struct {
	ID      string       `json:"id"`
	Title   string       `json:"title"`
	Caption string       `json:"caption,omitempty"`
	XLabel  string       `json:"x_label"`
	YLabel  string       `json:"y_label"`
	Lines   []LineSeries `json:"lines"`
}

// LineSeries is one line of a LineChart. Style tells apart lines of one
// colour (0 solid, 1 dashed, ...).
type LineSeries struct {
	Name  string    `json:"name"`
	Color int       `json:"color"`
	Style int       `json:"style,omitempty"`
	Xs    []float64 `json:"x"`
	Ys    []float64 `json:"y"`
}

// chart draws l; a line of fewer than two points is left out.
func (l LineChart) chart() plot.Chart {
	var ls []plot.Line
	for _, s := range l.Lines {
		if len(s.Xs) < 2 || len(s.Xs) != len(s.Ys) {
			continue
		}
		ls = append(ls, plot.Line{Name: s.Name, Color: s.Color, Style: s.Style, Xs: s.Xs, Ys: s.Ys})
	}
	c, err := plot.Lines(chartID("line", l.ID), l.Title, l.Caption, l.XLabel, l.YLabel, ls)
	return plot.OrNote(c, err)
}
