package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/gqlbench/gqlbench/report"
)

// Seed 001 compares REST and GraphQL on four measures, each a sample per
// API paired index by index: response time (the means of 20 groups of 100
// requests, its Table 1), throughput (requests handled per 10 ms step,
// Table 2), CPU load and memory (sampled every 10 ms, Tables 3 and 4); a
// two-tailed paired t-test of each (Table 5), the efficiency of Eq. 1 and
// the box-plot parameters (Table 6, Fig. 10). Here, per case:
//
//   - response time: the paired run's group means (both APIs asked the
//     same task at the same moment, Group pairs per group); the
//     closed-loop runs cannot pair their response times, so a case with
//     fewer than minSamples groups has no test ("too few groups");
//   - throughput: the tasks each API completed per step of the fine
//     series in its own closed-loop run (the paired run's APIs complete in
//     lock-step, equal by construction);
//   - CPU % and RSS: each server's samples in its own closed-loop run;
//
// the last three over the measured intervals (not the warm-up run's, not
// the tail after the window), paired by step index as seed 001 pairs
// interval i of each API, truncated to the shorter series. Bytes and calls
// per task are fixed by the data: compared as exact counts, without a test.

// minSamples is the fewest pairs of a measure that get a t-test.
const minSamples = 5

// rgMeasure is one of seed 001's four measures.
type rgMeasure struct {
	id, name, unit string // "rt", "response time", "ms"
	title          string // its box plots'
	lowerBetter    bool
	samples        string // what a pair is: "groups", "steps", "samples"
	linear         bool   // bounded: its box plots' axis never logarithmic
}

// measures are seed 001's four measures.
func (c *rgCases) measures() [4]rgMeasure {
	return [4]rgMeasure{
		{"rt", "response time", "ms", "Response time (ms), the paired run's group means", true, "groups", false},
		{"throughput", "tasks per " + c.sample, "tasks", "Throughput (tasks per " + c.sample + ")", false, "steps", false},
		{"cpu", "CPU", "%", "CPU load of the server (%, 100 = one core)", true, "samples", true},
		{"memory", "memory", "MiB", "Memory of the server (RSS, MiB)", true, "samples", true},
	}
}

// rgStat is one measure of one case: both APIs' samples paired by index,
// their summaries, the paired t-test and Eq. 1's efficiency; missing says
// why there is no test.
type rgStat struct {
	m         rgMeasure
	n         int // pairs
	rest, gql report.FiveNumber
	test      report.TTest
	eff       float64
	missing   string
}

// statOf pairs rest and gql by index (the shorter decides) and tests them.
func statOf(m rgMeasure, rest, gql []float64) rgStat {
	n := min(len(rest), len(gql))
	st := rgStat{m: m, n: n}
	switch {
	case n == 0 && m.id != "rt":
		st.missing = "not measured"
		return st
	case n < minSamples:
		st.missing = fmt.Sprintf("too few %s (%d, %d needed)", m.samples, n, minSamples)
	}
	if n == 0 {
		return st
	}
	rest, gql = rest[:n], gql[:n]
	st.rest, st.gql = report.FiveNumbers(rest), report.FiveNumbers(gql)
	st.eff = report.Efficiency(st.rest.Mean, st.gql.Mean)
	if st.missing == "" {
		st.test = report.PairedTest(rest, gql)
	}
	return st
}

// stats are the case's four measures.
func (c *rgCases) stats(cs *rgCase) []rgStat {
	ms := c.measures()
	var rtRest, rtGQL []float64
	if cs.pair != nil {
		rtRest, rtGQL = cs.pair.restMS, cs.pair.gqlMS
	}
	rt := statOf(ms[0], rtRest, rtGQL)
	if cs.pair == nil {
		rt.missing = "no paired run"
	}
	return []rgStat{
		rt,
		statOf(ms[1], cs.rest.steps, cs.gql.steps),
		statOf(ms[2], cs.rest.cpu, cs.gql.cpu),
		statOf(ms[3], cs.rest.rss, cs.gql.rss),
	}
}

// winner is the API whose mean is better, "" when they are equal.
func (st rgStat) winner() string {
	r, g := st.rest.Mean, st.gql.Mean
	switch {
	case r == g:
		return ""
	case (r < g) == st.m.lowerBetter:
		return "REST"
	}
	return "GraphQL"
}

// verdict says in words what the test found: "REST faster by 31 %
// (paired p < 0.001, 20 groups)", "no significant difference in CPU
// (p = 0.410)", "response time: too few groups (3, 5 needed)".
func (st rgStat) verdict() string {
	if st.missing != "" {
		return st.m.name + ": " + st.missing
	}
	p := pText(st.test.P)
	if st.m.id == "rt" {
		p = fmt.Sprintf("paired %s, %d groups", p, st.n)
	}
	who := st.winner()
	if !st.test.Significant || who == "" {
		return fmt.Sprintf("no significant difference in %s (%s)", st.m.name, p)
	}
	eff := pctText(st.eff)
	switch st.m.id {
	case "rt":
		return fmt.Sprintf("%s faster by %s (%s)", who, eff, p)
	case "throughput":
		return fmt.Sprintf("%s more %s, %s %s fewer (%s)", who, st.m.name, other(who), eff, p)
	}
	return fmt.Sprintf("%s %s less %s (%s)", who, eff, st.m.name, p)
}

// other is the API that is not api.
func other(api string) string {
	if api == "REST" {
		return "GraphQL"
	}
	return "REST"
}

// exactVerdicts compare the counts per task: bytes received and sent, and
// calls where they differ.
// unlike, when set, says why bytes are not compared.
func (cs *rgCase) exactVerdicts(unlike string) []string {
	rest, gql, paired := cs.counts()
	tag := "exact"
	if !paired {
		tag = "counted, each API's own run"
	}
	out := []string{"bytes not compared: " + unlike}
	if unlike == "" {
		out = []string{exactText(rest.recv, gql.recv, "bytes received", tag), exactText(rest.sent, gql.sent, "bytes sent", tag)}
	}
	if rest.calls != gql.calls {
		out = append(out, fmt.Sprintf("REST %.3g calls per task, GraphQL %.3g (%s)", rest.calls, gql.calls, tag))
	}
	return out
}

// exactText names the API that needs less of an exact count: "GraphQL 58 %
// fewer bytes received (exact)".
func exactText(rest, gql float64, noun, tag string) string {
	switch {
	case rest <= 0 || gql <= 0:
		return noun + " not measured"
	case rest == gql:
		return fmt.Sprintf("equal %s (%s)", noun, tag)
	}
	who := "REST"
	if gql < rest {
		who = "GraphQL"
	}
	return fmt.Sprintf("%s %s fewer %s (%s)", who, pctText(report.Efficiency(rest, gql)), noun, tag)
}

// pctText is a percentage, to one decimal below 10 %.
func pctText(x float64) string {
	if x < 9.95 {
		return fmt.Sprintf("%.1f %%", x)
	}
	return fmt.Sprintf("%.0f %%", x)
}

func pText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "p = n/a"
	case p < 0.001:
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.3f", p)
}

// verdicts are one plain-language line per case, for the report's notes.
func (c *rgCases) verdicts() []string {
	var out []string
	for _, cs := range c.cases {
		if cs.rest.run == "" || cs.gql.run == "" {
			continue
		}
		var parts []string
		for _, st := range c.stats(cs) {
			parts = append(parts, st.verdict())
		}
		parts = append(parts, cs.exactVerdicts(c.unlikeBytes)...)
		out = append(out, fmt.Sprintf("Verdict %s, %d user(s): %s", cs.label, cs.users, strings.Join(parts, "; ")))
	}
	return out
}
