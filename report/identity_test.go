package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/runfile"
)

// TestSeriesIdentity: runs of one label that differ in what changes the
// measurement — method, persisted queries, literals or variables, the
// check, the dialect, the API — are separate series, never pooled, named
// by their difference; a new port of the same server is not a difference.
func TestSeriesIdentity(t *testing.T) {
	run := func(edit func(*runfile.Header), perRun ...int64) *Run {
		return synthRun(t, synth{series: "yoga", workload: "QT1", templates: []string{"QT1"}, perRun: perRun, edit: edit})
	}
	for _, c := range []struct {
		name string
		a, b func(*runfile.Header)
		want []string // the series' names; one when pooled
	}{
		{"method", func(h *runfile.Header) { h.Params.Method = "GET" }, nil, []string{"yoga (GET)", "yoga (POST)"}},
		{"apq", func(h *runfile.Header) { h.Params.APQ = true }, nil, []string{"yoga (APQ)", "yoga (no APQ)"}},
		{"literals", func(h *runfile.Header) { h.Queries.Literal = true }, nil, []string{"yoga (literals)", "yoga (variables)"}},
		{"check", func(h *runfile.Header) { h.Params.Check = "golden" }, func(h *runfile.Header) { h.Params.Check = "reference" },
			[]string{"yoga (check golden)", "yoga (check reference)"}},
		{"dialect", func(h *runfile.Header) { h.Queries.Dialects = []string{"books"} }, nil, []string{"yoga (dialect books)", "yoga (benchmark schema)"}},
		{"API", func(h *runfile.Header) { h.Target = "https://api.example.com/graphql" }, nil,
			[]string{"yoga (api.example.com/graphql)", "yoga (127.0.0.1/graphql)"}},
		{"port", func(h *runfile.Header) { h.Target = "http://127.0.0.1:4999/graphql" }, nil, []string{"yoga"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Build([]*Run{run(c.a, 100, 102, 98), run(c.b, 200, 202, 198)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range r.Series {
				names = append(names, s.Name)
			}
			if !slices.Equal(names, c.want) {
				t.Fatalf("series %q, want %q", names, c.want)
			}
			if len(c.want) == 1 {
				return
			}
			for i, tp := range r.Throughput {
				if tp.Series != c.want[i] || tp.N != 3 || tp.Mean != float64(100*(i+1)) {
					t.Errorf("row %d: %s, %d runs, mean %.1f: want %s's 3 runs alone", i, tp.Series, tp.N, tp.Mean, c.want[i])
				}
			}
		})
	}
}

// TestChecksOnFirstScreen: the verdict says, per series, how its answers
// were checked, in the words of a user's API.
func TestChecksOnFirstScreen(t *testing.T) {
	mk := func(series, check string, edit func(*runfile.Header)) *Run {
		return synthRun(t, synth{series: series, workload: "Book", templates: []string{"Book"}, perRun: []int64{100, 101, 99}, check: check, edit: edit})
	}
	r, err := Build([]*Run{
		mk("strawberry", "golden", nil),
		mk("yoga", "reference", func(h *runfile.Header) { h.Params.Reference = "http://127.0.0.1:4001/graphql" }),
		mk("apollo", "status", nil),
		mk("naive", "expect", func(h *runfile.Header) { h.Queries.Dataset = map[string]any{"sf": 1} }),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"How the answers were checked: ",
		"strawberry — compared field by field with the expected answers recorded from a server you trust (gqlbench record)",
		"yoga — compared with a reference server's answers (http://127.0.0.1:4001/graphql)",
		"apollo — not checked: status only (HTTP 200, no GraphQL errors, data present)",
		"naive — compared with the benchmark's expected answers, computed from its generated dataset",
	} {
		if !strings.Contains(r.Verdict, want) {
			t.Errorf("verdict %q lacks %q", r.Verdict, want)
		}
	}
	if strings.Contains(r.Verdict, "oracle") {
		t.Errorf("verdict %q: a user's API has no oracle", r.Verdict)
	}
	md := string(render(t, r, "md"))
	if i, j := strings.Index(md, "How the answers were checked"), strings.Index(md, "## "); i < 0 || j >= 0 && i > j {
		t.Error("the checks are not on the first screen")
	}
}

// TestNoWinnerWithinNoise: a lead of 1.05× between runs that disagree by
// about 30 % names no fastest series; the headline says there is no clear
// winner, with the lead, the test's p and the noise. Two runs each give no
// confidence interval, so none below zero.
func TestNoWinnerWithinNoise(t *testing.T) {
	a := synthRun(t, synth{series: "strawberry", workload: "Book", templates: []string{"Book"}, perRun: []int64{80, 150, 110}})
	b := synthRun(t, synth{series: "yoga", workload: "Book", templates: []string{"Book"}, perRun: []int64{85, 155, 117}})
	r, err := Build([]*Run{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := r.Headline[0]
	if !strings.HasPrefix(h, "No clear winner on Book: yoga is ahead of strawberry by 1.05×, not a significant difference (Welch's t-test, p ") ||
		!strings.Contains(h, "the runs disagree by up to 31.0 % (CV)") || strings.Contains(h, "fastest") {
		t.Errorf("headline %q", h)
	}
	two, err := Build([]*Run{
		synthRun(t, synth{series: "strawberry", workload: "Book", templates: []string{"Book"}, perRun: []int64{99, 149}}),
		synthRun(t, synth{series: "yoga", workload: "Book", templates: []string{"Book"}, perRun: []int64{300, 310}}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range two.Throughput {
		if tp.HasCI || tp.CILow < 0 {
			t.Errorf("%s: two runs, interval %+v", tp.Series, tp.Stat)
		}
	}
	if md := string(render(t, two, "md")); strings.Contains(md, "[-") || !strings.Contains(md, "| n/a |") {
		t.Error("the Markdown tables show an interval for two runs")
	}
}
