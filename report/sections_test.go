package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/report/plot"
)

// sectionFixture is a Section of box plots as an experiment adds one: 25
// groups of two series (50 boxes: split in two charts), a group whose
// values span three orders of magnitude and include 0 (a log axis), and a
// table.
func sectionFixture() Section {
	b := BoxPlot{ID: "throughput", Title: "Throughput per 10 ms", XLabel: "case", YLabel: "tasks / 10 ms", Caption: "Seed 001's Fig. 10 (B)."}
	for i := range 25 {
		g := fmt.Sprintf("case-%02d", i)
		b.Boxes = append(b.Boxes,
			Box{Group: g, Series: "rest", FiveNumber: FiveNumbers([]float64{0, 1, 2, 3, 4})},
			Box{Group: g, Series: "graphql", FiveNumber: FiveNumbers([]float64{100, 200, 300, 400, 2000})})
	}
	mem := BoxPlot{ID: "memory", Title: "Memory", XLabel: "case", YLabel: "MiB", Boxes: []Box{
		{Group: "one", Series: "rest", FiveNumber: FiveNumbers([]float64{40, 41, 42})},
		{Group: "one", Series: "graphql", FiveNumber: FiveNumbers([]float64{45, 46, 47})},
		{Group: "two", Series: "graphql"}, // no values: left out
	}}
	return Section{ID: "rest-vs-graphql", Title: "REST against GraphQL", Paras: []string{"Seed 001's tables."},
		Tables: []Table{{Title: "Paired t-tests", Note: "Two-tailed.", Head: []string{"case", "measure", "p"},
			Rows: [][]string{{"case-00", "throughput", "<0.0001"}}}},
		Boxes: []BoxPlot{b, mem}}
}

// TestSections: a caller's section comes right after the overview, in HTML
// with its box plots drawn (split at plot.MaxBars boxes, the series' legend, no
// chart left undrawn) and in Markdown with its table; the report's own
// sections are unchanged.
func TestSections(t *testing.T) {
	plain := fixtureReport(t)
	r, err := Build(fixtures(t), Options{Title: plain.Title, Sections: []Section{sectionFixture()}})
	if err != nil {
		t.Fatal(err)
	}
	secs := r.sections()
	if len(secs) != len(plain.sections())+1 || secs[0].ID != "overview" || secs[1].ID != "rest-vs-graphql" {
		t.Fatalf("sections %v", ids(secs))
	}
	charts := secs[1].Charts
	if len(charts) != 3 {
		t.Fatalf("%d charts, want 2 of throughput (50 boxes) and 1 of memory", len(charts))
	}
	for i, want := range []struct {
		id    string
		boxes int
		log   bool
	}{{"box-throughput-1", 26, true}, {"box-throughput-2", 24, true}, {"box-memory", 2, false}} {
		c := charts[i]
		if c.ID != want.id || c.Bars != want.boxes || c.Bars > plot.MaxBars || c.LogY != want.log || c.SVG == "" || c.SmallestPx < plot.MinTextPx {
			t.Errorf("chart %d: %s, %d boxes, log %v, smallest text %g px, caption %q; want %+v", i, c.ID, c.Bars, c.LogY, c.SmallestPx, c.Caption, want)
		}
		if len(c.Legend) != 2 || c.Legend[0].Name != "rest" || c.Legend[1].Name != "graphql" || c.Legend[0].Color == c.Legend[1].Color {
			t.Errorf("chart %s: legend %+v", c.ID, c.Legend)
		}
	}
	html := string(render(t, r, "html"))
	for _, want := range []string{`<section id="rest-vs-graphql">`, `<h2>REST against GraphQL</h2>`, `<figure id="box-throughput-1"`,
		`<figure id="box-memory"`, `Seed 001&#39;s Fig. 10 (B). Box from the first`, `<a href="#rest-vs-graphql">`} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML has no %s", want)
		}
	}
	if i, j := strings.Index(html, `id="headline"`), strings.Index(html, `<section id="rest-vs-graphql">`); i < 0 || j < i {
		t.Error("the section is not after the overview")
	}
	if n := len(regexp.MustCompile(`<figure id="box-[^"]*"[^>]*>\s*<figcaption class="title">[^<]*</figcaption>\s*<ul class="legend">`).FindAllString(html, -1)); n != 3 {
		t.Errorf("%d box figures with a legend in the HTML, want 3", n)
	}
	md := string(render(t, r, "md"))
	for _, want := range []string{"\n## REST against GraphQL\n", "\n### Paired t-tests\n", "| case-00 | throughput | <0.0001 |", "- Throughput per 10 ms, case-00–case-12\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown has no %q", want)
		}
	}
}

// TestSectionIDs: a section needs an ID of its own.
func TestSectionIDs(t *testing.T) {
	for _, ids := range [][]string{{""}, {"overview"}, {"a", "a"}} {
		var secs []Section
		for _, id := range ids {
			secs = append(secs, Section{ID: id, Title: "x"})
		}
		if _, err := Build(fixtures(t), Options{Sections: secs}); err == nil {
			t.Errorf("sections %q: no error", ids)
		}
	}
}

func ids(secs []section) []string {
	var out []string
	for _, s := range secs {
		out = append(out, s.ID)
	}
	return out
}
