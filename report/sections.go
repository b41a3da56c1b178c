package report

import (
	"fmt"
	"slices"

	"github.com/gqlbench/gqlbench/report/plot"
)

// Section is a section that the caller adds to a report (Options.Sections),
// for what the run files alone do not say: an experiment's own comparison,
// with its paragraphs, tables and box plots, drawn with the report's charts
// and series colours. Sections follow the overview, before the details, in
// HTML and Markdown (where the charts are named, not drawn).
type Section struct {
	ID     string    `json:"id"` // the anchor: unique in the page, none of the report's own
	Title  string    `json:"title"`
	Paras  []string  `json:"paragraphs,omitempty"`
	Tables []Table   `json:"tables,omitempty"`
	Boxes  []BoxPlot `json:"box_plots,omitempty"`
	// Lines are line charts (time series: a soak's memory), after the
	// box plots.
	Lines []LineChart `json:"line_charts,omitempty"`
}

// Table is a table of formatted cells in a Section. Long ones fold away in
// HTML, as the report's own do.
type Table struct {
	Title string     `json:"title"`
	Note  string     `json:"note,omitempty"`
	Head  []string   `json:"head"`
	Rows  [][]string `json:"rows"`
	// Flagged marks rows as failures (shown so in HTML), by index.
	Flagged []bool `json:"flagged,omitempty"`
}

// BoxPlot is a figure of box plots in a Section, as seed 001's Fig. 10: a
// group of boxes per category along x, one box per series in each group,
// in the series' colours of the report (its own for a series the runs do
// not have). A figure of more than plot.MaxBars boxes is split into charts of
// at most that many.
type BoxPlot struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Caption string `json:"caption,omitempty"` // how to read it; the box's parts are explained after it
	XLabel  string `json:"x_label"`
	YLabel  string `json:"y_label"`
	// Linear keeps the y axis linear (a bounded measure, such as a
	// percentage); otherwise it is logarithmic when the values span more
	// than two orders of magnitude.
	Linear bool  `json:"linear,omitempty"`
	Boxes  []Box `json:"boxes"`
}

// Box is one series' sample in one group of a BoxPlot, by its five-number
// summary and mean. A box of no values is left out.
type Box struct {
	Group  string `json:"group"`
	Series string `json:"series"`
	FiveNumber
}

// reportIDs are the anchors of the report's own sections.
var reportIDs = []string{"overview", "throughput", "mixed", "latency", "queries", "scaling", "capacity", "resources",
	"templates", "layers", "profiles", "correctness", "statistics", "regressions", "reproduction", "headline", "verdict"}

// addSections checks the caller's sections and draws their box plots.
func (r *Report) addSections(in []Section) error {
	seen := map[string]bool{}
	for _, s := range in {
		if s.ID == "" || slices.Contains(reportIDs, s.ID) || seen[s.ID] {
			return fmt.Errorf("report: section %q: its ID must be set, unique and none of the report's own", s.Title)
		}
		seen[s.ID] = true
		v := section{ID: s.ID, Title: s.Title, Paras: s.Paras}
		for _, t := range s.Tables {
			v.Tables = append(v.Tables, tableOf(t))
		}
		for _, b := range s.Boxes {
			v.Charts = append(v.Charts, r.boxPlotCharts(b)...)
		}
		for _, l := range s.Lines {
			v.Charts = append(v.Charts, l.chart())
		}
		r.Sections = append(r.Sections, s)
		r.added = append(r.added, v)
	}
	return nil
}

// boxPlotCharts draws a BoxPlot, split into charts of at most
// plot.MaxBars boxes.
func (r *Report) boxPlotCharts(b BoxPlot) []plot.Chart {
	var all plot.Layout
	for _, x := range b.Boxes {
		if x.N == 0 {
			continue
		}
		if !slices.Contains(all.Groups, x.Group) {
			all.Groups = append(all.Groups, x.Group)
		}
		if !slices.Contains(all.Series, x.Series) {
			all.Series = append(all.Series, x.Series)
		}
	}
	return splitCharts(all, func(l plot.Layout, idSuffix, titleSuffix string, parts int) plot.Chart {
		c := plot.Chart{ID: chartID("box", b.ID) + idSuffix, Title: b.Title + titleSuffix, Size: l.Size(), Caption: boxCaption}
		if b.Caption != "" {
			c.Caption = b.Caption + " " + boxCaption
		}
		if parts > 1 {
			c.Caption += fmt.Sprintf(" One of %d charts, each on its own scale.", parts)
		}
		return c
	}, func(c plot.Chart, l plot.Layout) (plot.Chart, error) {
		c, err := r.fiveNumberChart(c, l, b)
		if c.LogY {
			c.Caption += " On the log scale, values of 0 are drawn at the axis' foot."
		}
		return c, err
	})
}

// boxCaption explains a box of a BoxPlot.
const boxCaption = "Box from the first to the third quartile, line at the median, whiskers to the minimum and maximum, black dot at the mean."

// fiveNumberChart draws the boxes of b in the layout's groups.
func (r *Report) fiveNumberChart(c plot.Chart, l plot.Layout, b BoxPlot) (plot.Chart, error) {
	var values []float64
	for _, x := range b.Boxes {
		if _, ok := l.X(x.Group, x.Series); ok && x.N > 0 {
			values = append(values, x.Min, x.Max)
		}
	}
	p := plot.New(b.XLabel, b.YLabel)
	if !b.Linear {
		c.LogY = plot.LogY(p, values)
	}
	floor := func(v float64) float64 { return v }
	if c.LogY {
		lo := p.Y.Min
		floor = func(v float64) float64 { return max(v, lo) }
	}
	colors := r.colorsOf(l.Series)
	c.SlantTicks(p, l)
	boxW := l.BoxWidth(c.Size)
	for _, s := range l.Series {
		var xs, means []float64
		for _, x := range b.Boxes {
			at, ok := l.X(x.Group, x.Series)
			if x.Series != s || x.N == 0 || !ok {
				continue
			}
			f := x.FiveNumber
			q := [5]float64{floor(f.Min), floor(f.Q1), floor(f.Median), floor(f.Q3), floor(f.Max)}
			bp, err := plot.Box(q, at, boxW, false, colors[s], r.flagged(s))
			if err != nil {
				return c, err
			}
			p.Add(bp)
			c.Bars++
			xs, means = append(xs, at), append(means, floor(f.Mean))
		}
		if err := plot.AddMeans(p, xs, means); err != nil {
			return c, err
		}
		c.Legend = append(c.Legend, plot.BoxLegend(s, colors[s], r.flagged(s)))
	}
	l.Axis(p)
	if !c.LogY {
		pad := (p.Y.Max - p.Y.Min) * 0.05
		p.Y.Min, p.Y.Max = max(0, p.Y.Min-pad), p.Y.Max+pad
	}
	err := c.Render(p)
	return c, err
}

// colorsOf gives each series its colour: a series of the report its own
// (colorIndex), the others the next colours in turn.
func (r *Report) colorsOf(series []string) map[string]int {
	out := map[string]int{}
	next := r.colorIndex("") // past every series of the report
	for _, s := range series {
		if slices.ContainsFunc(r.Series, func(x Series) bool { return x.Name == s }) {
			out[s] = r.colorIndex(s)
			continue
		}
		out[s] = next
		next++
	}
	return out
}
