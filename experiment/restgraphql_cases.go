package experiment

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// rgCases are the rest-vs-graphql experiment's measurements, case by case
// (a task label at a user count), for its verdicts and table.
type rgCases struct {
	cases []*rgCase
}

// rgCase is one task label at one user count: each API's closed-loop run
// and the paired run's t-test.
type rgCase struct {
	label     string
	users     int
	rest, gql rgSide
	pair      *rgPair
}

// rgSide is what one API's run measured; run is "" when it made none.
type rgSide struct {
	run        string
	tasks      int64
	wrong      int64
	rtMS       float64 // mean response time of a task
	throughput float64 // tasks/s
	cpuPct     float64 // the server's mean CPU % over the measured intervals (100 = one core)
	cpuUS      float64 // the server's CPU per task, µs
	rssMiB     float64 // the server's largest resident memory
	sent, recv float64 // bytes per task
	calls      float64 // HTTP calls per task
}

// rgPair is the paired run's two-tailed paired t-test of the response
// times, GraphQL (A) against REST (B).
type rgPair struct {
	n          int64
	gqlMS      float64
	restMS     float64
	p          float64
	valid      bool
	efficiency float64
}

// at returns the case of label at users, a new one the first time.
func (c *rgCases) at(label string, users int) *rgCase {
	for _, cs := range c.cases {
		if cs.label == label && cs.users == users {
			return cs
		}
	}
	cs := &rgCase{label: label, users: users}
	c.cases = append(c.cases, cs)
	return cs
}

// sideOf reads a closed-loop run: the summary's totals, and the watched
// server's (the first watched process's) CPU and memory over the
// measured intervals.
func sideOf(path string, sum *runfile.Summary) rgSide {
	t := sum.Total
	sd := rgSide{run: path, tasks: t.Count, wrong: t.Wrong, rtMS: t.QET.Mean / 1e6, throughput: sum.Throughput.Mean}
	if t.Count > 0 {
		n := float64(t.Count)
		sd.sent, sd.recv, sd.calls = float64(t.SentBytes)/n, float64(t.RecvBytes)/n, max(float64(t.Calls), n)/n
	}
	f, err := runfile.ReadFile(path)
	if err != nil {
		return sd
	}
	var cpuNS, spanNS float64
	for _, iv := range f.Intervals {
		if iv.Warmup || iv.Tail || len(iv.Procs) == 0 {
			continue
		}
		p := iv.Procs[0]
		d := float64(iv.EndNS - iv.StartNS)
		cpuNS += p.CPUPercent / 100 * d
		spanNS += d
		sd.rssMiB = max(sd.rssMiB, float64(p.RSSBytes)/(1<<20))
	}
	if spanNS > 0 {
		sd.cpuPct = cpuNS / spanNS * 100
	}
	if t.Count > 0 {
		sd.cpuUS = cpuNS / 1e3 / float64(t.Count)
	}
	return sd
}

// pairOf is the paired t-test of label's pairs in a paired run's summary.
func pairOf(label string, sum *runfile.Summary) *rgPair {
	if sum.Paired == nil || sum.Paired.Labels[label] == nil {
		return nil
	}
	ps := sum.Paired.Labels[label]
	t := report.PairedFromSums(ps.N, ps.AMean, ps.BMean, ps.DMean, ps.DSD)
	gql, rest := ps.AMean, ps.BMean
	if sum.Paired.APIs[0] == "rest" {
		gql, rest = rest, gql
	}
	return &rgPair{n: ps.N, gqlMS: gql / 1e6, restMS: rest / 1e6, p: t.P, valid: t.Valid, efficiency: report.Efficiency(gql, rest)}
}

// verdicts are one plain-language line per case, for the report's notes.
func (c *rgCases) verdicts() []string {
	var out []string
	for _, cs := range c.cases {
		if v := cs.verdict(); v != "" {
			out = append(out, fmt.Sprintf("Verdict %s, %d user(s): %s", cs.label, cs.users, v))
		}
	}
	return out
}

// verdict says which API did better on each measure, by seed 001's
// efficiency (Eq. 1): the response time of the paired run's pairs with
// their t-test's p-value (of the closed-loop runs without one), the rest
// of the closed-loop runs; "" when a side has no run.
func (cs *rgCase) verdict() string {
	r, g := cs.rest, cs.gql
	if r.run == "" || g.run == "" {
		return ""
	}
	rt := compare(r.rtMS, g.rtMS, "response time", "faster", true)
	if cs.pair != nil && cs.pair.valid { // the pairs: both APIs under the same load at the same moment
		rt = compare(cs.pair.restMS, cs.pair.gqlMS, "response time", "faster", true)
	}
	parts := []string{rt + cs.pValue()}
	parts = append(parts,
		compare(r.throughput, g.throughput, "throughput", "more tasks/s", false),
		compare(r.cpuUS, g.cpuUS, "server CPU per task", "less server CPU per task", true),
		compare(r.rssMiB, g.rssMiB, "server memory", "less server memory", true),
		compare(r.recv, g.recv, "bytes received", "fewer bytes received", true),
		compare(r.sent, g.sent, "bytes sent", "fewer bytes sent", true))
	if r.calls != g.calls {
		parts = append(parts, fmt.Sprintf("REST %.3g calls per task, GraphQL %.3g", r.calls, g.calls))
	}
	return strings.Join(parts, "; ")
}

// compare names the better API by Eq. 1: "REST faster by 31 %", or
// "equal NOUN" when the measures are within 0.5 % of each other, or
// "NOUN not measured" when either is missing.
func compare(rest, gql float64, noun, better string, lowerBetter bool) string {
	if rest <= 0 || gql <= 0 {
		return noun + " not measured"
	}
	eff := report.Efficiency(rest, gql)
	if eff < 0.5 {
		return "equal " + noun
	}
	restWins := rest < gql
	if !lowerBetter {
		restWins = !restWins
	}
	who := "GraphQL"
	if restWins {
		who = "REST"
	}
	if strings.HasPrefix(better, "more ") || strings.HasPrefix(better, "fewer ") || strings.HasPrefix(better, "less ") {
		return fmt.Sprintf("%s %.0f %% %s", who, eff, better)
	}
	return fmt.Sprintf("%s %s by %.0f %%", who, better, eff)
}

// pValue is the paired t-test's " (paired p = …)", or "" without one.
func (cs *rgCase) pValue() string {
	if cs.pair == nil || !cs.pair.valid {
		return ""
	}
	return fmt.Sprintf(" (paired %s, %d pairs)", pText(cs.pair.p), cs.pair.n)
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

// table writes the cases as a Markdown table.
func (c *rgCases) table(w io.Writer) error {
	fmt.Fprintln(w, "| task | users | RT ms REST / GraphQL | paired RT ms REST / GraphQL | p | tasks/s REST / GraphQL | CPU µs/task REST / GraphQL | CPU % REST / GraphQL | RSS MiB REST / GraphQL | bytes recv/task REST / GraphQL | bytes sent/task REST / GraphQL | calls/task REST / GraphQL |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, cs := range c.cases {
		r, g := cs.rest, cs.gql
		paired, p := "–", "–"
		if cs.pair != nil && cs.pair.valid {
			paired, p = fmt.Sprintf("%.2f / %.2f", cs.pair.restMS, cs.pair.gqlMS), pText(cs.pair.p)
		}
		fmt.Fprintf(w, "| %s | %d | %.2f / %.2f | %s | %s | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.3g / %.3g |\n",
			cs.label, cs.users, r.rtMS, g.rtMS, paired, p, r.throughput, g.throughput, r.cpuUS, g.cpuUS, r.cpuPct, g.cpuPct,
			r.rssMiB, g.rssMiB, r.recv, g.recv, r.sent, g.sent, r.calls, g.calls)
	}
	return nil
}
