package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestSectionLines: a section's line charts are drawn after its tables,
// a line of fewer than two points left out, and named in Markdown.
func TestSectionLines(t *testing.T) {
	sec := Section{ID: "soak", Title: "Memory soak", Lines: []LineChart{{ID: "mem", Title: "Memory over time", XLabel: "time (s)", YLabel: "MiB",
		Lines: []LineSeries{{Name: "live heap", Xs: []float64{0, 1, 2}, Ys: []float64{1, 1.1, 1.2}}, {Name: "lonely", Xs: []float64{0}, Ys: []float64{1}}}}}}
	r, err := Build(fixtures(t), Options{Title: "t", Sections: []Section{sec}})
	if err != nil {
		t.Fatal(err)
	}
	secs := r.sections()
	if secs[1].ID != "soak" || len(secs[1].Charts) != 1 {
		t.Fatalf("sections %v", ids(secs))
	}
	c := secs[1].Charts[0]
	if c.ID != "line-mem" || c.SVG == "" || len(c.Legend) != 1 || c.Legend[0].Name != "live heap" {
		t.Errorf("chart %s, legend %+v, svg %d bytes", c.ID, c.Legend, len(c.SVG))
	}
	var md bytes.Buffer
	if err := r.Write(&md, "md"); err != nil || !strings.Contains(md.String(), "Memory over time") {
		t.Errorf("markdown: %v", err)
	}
}
