package experiment

import (
	"fmt"
	"io"
	"strconv"

	"github.com/gqlbench/gqlbench/report"
)

// table writes the cases as a Markdown table, Dir/rest-vs-graphql.md:
// per measure the means of both APIs with the number of pairs, and the
// paired t-test's p-value; then the exact counts.
func (c *rgCases) table(w io.Writer) error {
	if c.header != "" {
		fmt.Fprintf(w, "%s\n\n", c.header)
	}
	if c.unlikeBytes != "" {
		fmt.Fprintf(w, "Bytes are not comparable between the APIs here: %s.\n\n", c.unlikeBytes)
	}
	fmt.Fprintf(w, "| task | users | RT ms REST / GraphQL (groups) | p | tasks/%s REST / GraphQL (steps) | p | CPU %% REST / GraphQL (samples) | p | RSS MiB REST / GraphQL (samples) | p | closed-loop RT ms REST / GraphQL | CPU µs/task REST / GraphQL | bytes recv/task REST / GraphQL | bytes sent/task REST / GraphQL | calls/task REST / GraphQL |\n", c.sample)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, cs := range c.cases {
		r, g := cs.rest, cs.gql
		fmt.Fprintf(w, "| %s | %d |", cs.label, cs.users)
		for _, st := range c.stats(cs) {
			fmt.Fprintf(w, " %s | %s |", meansCell(st), testCell(st))
		}
		rc, gc, _ := cs.counts()
		fmt.Fprintf(w, " %.2f / %.2f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.3g / %.3g |\n",
			r.rtMS, g.rtMS, r.cpuUS, g.cpuUS, rc.recv, gc.recv, rc.sent, gc.sent, rc.calls, gc.calls)
	}
	return nil
}

// meansCell is "REST / GraphQL (n)", or "– (n)" without a sample.
func meansCell(st rgStat) string {
	if st.rest.N == 0 {
		return fmt.Sprintf("– (%d)", st.n)
	}
	return fmt.Sprintf("%s / %s (%d)", num(st.rest.Mean), num(st.gql.Mean), st.n)
}

// testCell is the p-value, or why there is none.
func testCell(st rgStat) string {
	if st.missing != "" {
		return st.missing
	}
	return pText(st.test.P)
}

// num formats a measure's value: three significant digits, at least two
// decimals below 10.
func num(x float64) string {
	switch {
	case x == 0:
		return "0"
	case x < 10 && x > -10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case x < 1000 && x > -1000:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// section is the report's section of the comparison: seed 001's Tables 5
// and 6 per case, and its Fig. 10's box plots per measure, REST and
// GraphQL side by side for each case.
func (c *rgCases) section() report.Section {
	s := report.Section{ID: "rest-vs-graphql", Title: "REST against GraphQL: seed 001's statistics per case",
		Paras: []string{
			fmt.Sprintf("Seed 001's four measures per case (a task at a user count), each a sample per API paired index by index: response time = the paired run's means of groups of %d pairs (both APIs asked the same task at the same moment); tasks completed per %s, and the server's CPU %% (100 = one core) and RSS (MiB) sampled every %s, from each API's own closed-loop run — its measured intervals only (no warm-up run, no tail), step i of REST paired with step i of GraphQL as seed 001 pairs interval i, the longer series cut to the shorter. The paired run is not used for throughput: its APIs complete in lock-step.", c.group, c.sample, c.sample),
			fmt.Sprintf("Two-tailed paired t-test, α = 0.05, over the pairs; fewer than %d pairs (groups, for response time) get no test. Efficiency = (1 − min/max) × 100 %% of the two means (seed 001, Eq. 1). Bytes and calls per task are fixed by the data: exact counts (the paired run's, over the same tasks for both APIs), without a test.", minSamples),
			"How far to trust a p-value: the samples of one run are not independent (a server's RSS hardly moves within a run; its CPU and the completions follow the load's rhythm), and seed 001's test, used here as there, treats them as if they were. Each server is one process across every case, so its memory carries the history of the cases before. A significant difference of a few percent says that these runs differed, not that the next will: read p beside the efficiency.",
		}}
	if c.header != "" {
		s.Paras = append([]string{c.header}, s.Paras...)
	}
	t5 := report.Table{Title: "Paired t-tests per case and measure (seed 001, Table 5)",
		Head: []string{"task", "users", "measure", "pairs", "REST mean ± sd", "GraphQL mean ± sd", "efficiency", "p", "verdict"}}
	t6 := report.Table{Title: "Box-plot parameters per case, measure and API (seed 001, Table 6)",
		Head: []string{"task", "users", "measure", "API", "n", "mean", "sd", "min", "Q1", "median", "Q3", "max"}}
	boxes := make([]report.BoxPlot, 4)
	for i, m := range c.measures() {
		boxes[i] = report.BoxPlot{ID: "rvg-" + m.id, Title: m.title, XLabel: "task (users)", YLabel: m.unit,
			Caption: boxCaptions[m.id], Linear: m.linear}
	}
	for _, cs := range c.cases {
		if cs.rest.run == "" || cs.gql.run == "" {
			continue
		}
		users := strconv.Itoa(cs.users)
		group := fmt.Sprintf("%s (%d)", cs.label, cs.users)
		for i, st := range c.stats(cs) {
			t5.Rows = append(t5.Rows, []string{cs.label, users, st.m.name + " (" + st.m.unit + ")", strconv.Itoa(st.n),
				meanSD(st.rest), meanSD(st.gql), effCell(st), testCell(st), st.verdict()})
			for _, api := range []struct {
				name, series string
				f            report.FiveNumber
			}{{"REST", "rest", st.rest}, {"GraphQL", "graphql", st.gql}} {
				f := api.f
				t6.Rows = append(t6.Rows, []string{cs.label, users, st.m.name, api.name, strconv.Itoa(f.N),
					num(f.Mean), num(f.SD), num(f.Min), num(f.Q1), num(f.Median), num(f.Q3), num(f.Max)})
				boxes[i].Boxes = append(boxes[i].Boxes, report.Box{Group: group, Series: api.series, FiveNumber: f})
			}
		}
		t5.Rows = append(t5.Rows, c.exactRows(cs)...)
	}
	s.Tables = []report.Table{t5, t6}
	s.Boxes = boxes
	return s
}

// boxCaptions say where each measure's samples come from.
var boxCaptions = map[string]string{
	"rt":         "Seed 001's Fig. 10 (A): the paired run's group means of response time.",
	"throughput": "Seed 001's Fig. 10 (B): tasks completed per step in each API's closed-loop run.",
	"cpu":        "Seed 001's Fig. 10 (C): the server's CPU % (100 = one core) per sample in each API's closed-loop run.",
	"memory":     "Seed 001's Fig. 10 (D): the server's resident memory per sample in each API's closed-loop run.",
}

// exactRows are Table 5's rows of the exact counts: no spread, no test.
func (c *rgCases) exactRows(cs *rgCase) [][]string {
	rest, gql, paired := cs.counts()
	how := "exact"
	if !paired {
		how = "counted"
	}
	users := strconv.Itoa(cs.users)
	var out [][]string
	for _, e := range []struct {
		noun, text string
		r, g       float64
	}{
		{"bytes received / task", "bytes received", rest.recv, gql.recv},
		{"bytes sent / task", "bytes sent", rest.sent, gql.sent},
		{"calls / task", "calls", rest.calls, gql.calls},
	} {
		verdict, eff := exactText(e.r, e.g, e.text, how), pctText(report.Efficiency(e.r, e.g))
		if c.unlikeBytes != "" && e.text != "calls" {
			verdict, eff = "not compared: "+c.unlikeBytes, "–"
		}
		out = append(out, []string{cs.label, users, e.noun, "–", num(e.r), num(e.g), eff, how, verdict})
	}
	return out
}

func meanSD(f report.FiveNumber) string {
	if f.N == 0 {
		return "–"
	}
	return num(f.Mean) + " ± " + num(f.SD)
}

// effCell is Eq. 1's efficiency of the two means, "–" without both.
func effCell(st rgStat) string {
	if st.rest.N == 0 || st.gql.N == 0 {
		return "–"
	}
	return pctText(st.eff)
}
