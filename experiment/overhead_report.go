package experiment

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// ovhSide is one API at one setting.
type ovhSide struct {
	api, setting string // graphql|rest; matched (open loop at rate), closed (think), seed (REST's think)
	think        time.Duration
	rate         float64
	srv          *Server
}

func (sd ovhSide) series() string {
	switch sd.setting {
	case "seed":
		return sd.api + " (seed's " + sd.think.String() + ")"
	case "matched":
		return fmt.Sprintf("%s at %.0f/s", sd.api, sd.rate)
	}
	return sd.api
}

// ovhRun is what one measured run says of the server.
type ovhRun struct {
	side       ovhSide
	index      int
	path       string
	cpu        float64 // utilisation of the server's CPUs, %
	gc         float64 // GC time, % of the process's CPU budget
	gcOK       bool
	rssMiB     float64
	throughput float64 // answers/s
	p50, p99   float64 // ms
	errors     int64
	wrong      int64
	driver     bool // the load generator was the bottleneck
}

// ovhRunOf reads a run file's server figures.
func ovhRunOf(path string, sum *runfile.Summary, cores int) *ovhRun {
	r := &ovhRun{path: path, throughput: sum.Throughput.Mean, p50: float64(sum.Total.QET.P50) / 1e6, p99: float64(sum.Total.QET.P99) / 1e6,
		errors: sum.Total.Errors, wrong: sum.Total.Wrong, driver: sum.DriverLimit}
	f, err := runfile.ReadFile(path)
	if err != nil {
		return r
	}
	var n int
	var first, last *measure.RuntimeSample
	for _, iv := range f.Intervals {
		if iv.Warmup || iv.Tail || len(iv.Procs) == 0 || iv.Procs[0].Gone {
			continue
		}
		p := iv.Procs[0]
		r.cpu += p.CPUPercent / float64(max(cores, 1))
		r.rssMiB += float64(p.RSSBytes) / (1 << 20)
		n++
		if p.Runtime != nil && p.Runtime.Error == "" {
			if first == nil {
				first = p.Runtime
			}
			last = p.Runtime
		}
	}
	if n > 0 {
		r.cpu, r.rssMiB = r.cpu/float64(n), r.rssMiB/float64(n)
	}
	if first != nil && last != nil {
		r.gc, r.gcOK = measure.GCPercent(*first, *last)
	}
	return r
}

// ovhVariant is one variant's runs.
type ovhVariant struct {
	variant     string
	writes      bool // the mutating users ran
	sameProcess bool // the REST control ran in the variant's process
	cores       int
	rate        float64 // the matched comparison's, requests/s
	runs        []*ovhRun
}

// spread is a figure over the runs: mean, sd, range.
type spread struct {
	n                  int
	mean, sd, min, max float64
}

func spreadOf(xs []float64) spread {
	s := spread{n: len(xs), min: math.Inf(1), max: math.Inf(-1)}
	if len(xs) == 0 {
		return spread{}
	}
	for _, x := range xs {
		s.mean += x
		s.min, s.max = min(s.min, x), max(s.max, x)
	}
	s.mean /= float64(len(xs))
	if len(xs) > 1 {
		for _, x := range xs {
			s.sd += (x - s.mean) * (x - s.mean)
		}
		s.sd = math.Sqrt(s.sd / float64(len(xs)-1))
	}
	return s
}

// cell writes a stat: mean ± sd (min–max), with its format.
func (s spread) cell(f string) string {
	if s.n == 0 {
		return "–"
	}
	if s.n == 1 {
		return fmt.Sprintf(f, s.mean)
	}
	return fmt.Sprintf(f+" ± "+f+" ("+f+"–"+f+")", s.mean, s.sd, s.min, s.max)
}

// figure collects one measure of the runs of api at setting.
func (v *ovhVariant) figure(api, setting string, m func(*ovhRun) (float64, bool)) spread {
	var xs []float64
	for _, r := range v.runs {
		if r.side.api == api && r.side.setting == setting {
			if x, ok := m(r); ok {
				xs = append(xs, x)
			}
		}
	}
	return spreadOf(xs)
}

// ovhMeasure is a compared measure.
type ovhMeasure struct {
	name, unit, format string
	get                func(*ovhRun) (float64, bool)
}

var ovhMeasures = []ovhMeasure{
	{"CPU utilisation", "%", "%.1f", func(r *ovhRun) (float64, bool) { return r.cpu, true }},
	{"GC time", "%", "%.2f", func(r *ovhRun) (float64, bool) { return r.gc, r.gcOK }},
	{"Throughput", "answers/s", "%.0f", func(r *ovhRun) (float64, bool) { return r.throughput, true }},
	{"Latency p50", "ms", "%.2f", func(r *ovhRun) (float64, bool) { return r.p50, true }},
	{"Latency p99", "ms", "%.2f", func(r *ovhRun) (float64, bool) { return r.p99, true }},
	{"Memory (RSS)", "MiB", "%.1f", func(r *ovhRun) (float64, bool) { return r.rssMiB, true }},
}

// ovhVerdict is a threshold's line.
type ovhVerdict struct {
	setting, what string
	value, limit  float64
	unit          string
	known, pass   bool
	gate          bool // fails the experiment's check (the matched comparison)
	detail        string
}

func (l ovhVerdict) text() string {
	res := "pass"
	switch {
	case !l.known:
		res = "not measured"
	case !l.pass:
		res = "FAIL"
	}
	bound := "≤"
	if l.what == "throughput" {
		bound = "≥"
	}
	if !l.gate {
		res += " (shown, not judged)"
	}
	return fmt.Sprintf("%s %s: %+.2f %s (%s), threshold %s %+g: %s", l.setting, l.what, l.value, l.unit, l.detail, bound, l.limit, res)
}

// ovhMetrics are the thresholds' names in suite --fail-if.
var ovhMetrics = map[string]string{"CPU": "cpu-increase", "GC time": "gc-increase", "throughput": "throughput-drop"}

// verdict is the line as a Verdict of variant v.
func (l ovhVerdict) verdict(v string) Verdict {
	bound := "≤ %+g %s"
	if l.what == "throughput" {
		bound = "≥ %+g %s"
	}
	out := Verdict{Variant: v, Measure: fmt.Sprintf("%s vs REST (%s)", l.what, l.setting), Metric: ovhMetrics[l.what],
		Value: "not measured", Unit: l.unit, Threshold: fmt.Sprintf(bound, l.limit, l.unit), Result: NA, Detail: l.detail}
	if l.known {
		out.Value, out.Number, out.Result = fmt.Sprintf("%+.2f %s", l.value, l.unit), numPtr(l.value), resultOf(l.pass)
	}
	return out
}

// ovhSettings are the comparisons: GraphQL's setting and REST's, what
// each gates (its thresholds' what), and its title.
var ovhSettings = []struct {
	name, gql, rest, title string
	gates                  []string
}{
	{"matched", "matched", "matched", "the same arrival rate (open loop)", []string{"CPU", "GC time"}},
	{"closed", "closed", "closed", "the same users and think time (closed loop)", []string{"throughput"}},
	{"seed", "closed", "seed", "seed 003's settings (REST's users twice as fast)", nil},
}

// verdicts are seed 003's three thresholds at each setting. The matched
// rate gates CPU and GC time (the same requests a second on both sides:
// the difference is the cost of GraphQL's layer); the closed loop gates
// throughput (the same users: how much fewer answers GraphQL gives them);
// the seed's settings are shown.
func (v *ovhVariant) verdicts(e Overhead) []ovhVerdict {
	var out []ovhVerdict
	for _, set := range ovhSettings {
		gq := func(m int) spread { return v.figure(drive.APIGraphQL, set.gql, ovhMeasures[m].get) }
		rs := func(m int) spread { return v.figure(drive.APIREST, set.rest, ovhMeasures[m].get) }
		if rs(2).n == 0 || gq(2).n == 0 {
			continue
		}
		gate := func(what string) bool { return slices.Contains(set.gates, what) }
		cpuG, cpuR := gq(0), rs(0)
		out = append(out, ovhVerdict{setting: set.name, what: "CPU", value: cpuG.mean - cpuR.mean, limit: e.MaxCPU, unit: "points", known: true,
			pass: cpuG.mean-cpuR.mean <= e.MaxCPU, gate: gate("CPU"), detail: fmt.Sprintf("GraphQL %.1f %% vs REST %.1f %%", cpuG.mean, cpuR.mean)})
		gcG, gcR := gq(1), rs(1)
		gc := ovhVerdict{setting: set.name, what: "GC time", limit: e.MaxGC, unit: "points", gate: gate("GC time"), detail: "no GC figures: not a Go server of gqlbench's, or no GC cycle in a run"}
		if gcG.n > 0 && gcR.n > 0 {
			gc.value, gc.known, gc.pass = gcG.mean-gcR.mean, true, gcG.mean-gcR.mean <= e.MaxGC
			gc.detail = fmt.Sprintf("GraphQL %.2f %% vs REST %.2f %%", gcG.mean, gcR.mean)
		}
		out = append(out, gc)
		tG, tR := gq(2), rs(2)
		drop := 100 * (tG.mean - tR.mean) / tR.mean
		out = append(out, ovhVerdict{setting: set.name, what: "throughput", value: drop, limit: -e.MaxDrop, unit: "%", known: tR.mean > 0,
			pass: drop >= -e.MaxDrop, gate: gate("throughput"), detail: fmt.Sprintf("GraphQL %.0f/s vs REST %.0f/s", tG.mean, tR.mean)})
	}
	return out
}

// overheadSection is the report's section: per variant, seed 003's table
// at each setting, and the verdicts.
func overheadSection(e Overhead, vs []*ovhVariant) report.Section {
	sec := report.Section{ID: "overhead", Title: "GraphQL overhead over a REST control (seed 003)"}
	sec.Paras = append(sec.Paras, fmt.Sprintf("Each figure is the mean ± sd (min–max) over %d runs; the variance column is GraphQL − REST (percentage points for CPU and GC time, percent for the others), as seed 003's table has it. CPU and GC time are judged at the same arrival rate (open loop: the same requests a second reach both APIs, so the difference is the cost of GraphQL's layer), throughput with the same users and think time (closed loop: %v); the seed's settings (REST at %v, GraphQL at %v) reproduce its table, where REST's users sent twice as often, and gate nothing.", e.Runs, e.Think, e.SeedRESTThink, e.Think))
	for _, v := range vs {
		for _, l := range v.verdicts(e) {
			sec.Paras = append(sec.Paras, v.variant+" "+l.text())
		}
		for _, set := range ovhSettings {
			if v.figure(drive.APIREST, set.rest, ovhMeasures[2].get).n == 0 || v.figure(drive.APIGraphQL, set.gql, ovhMeasures[2].get).n == 0 {
				continue
			}
			title := set.title
			if set.name == "matched" {
				title = fmt.Sprintf("the same arrival rate, %.0f requests/s (open loop)", v.rate)
			}
			t := report.Table{Title: fmt.Sprintf("%s: GraphQL against REST at %s", v.variant, title),
				Head: []string{"metric", "REST workload", "GraphQL workload", "variance", "threshold", "result"}}
			lines := map[string]ovhVerdict{}
			for _, l := range v.verdicts(e) {
				if l.setting == set.name {
					lines[l.what] = l
				}
			}
			for k, m := range ovhMeasures {
				g := v.figure(drive.APIGraphQL, set.gql, m.get)
				r := v.figure(drive.APIREST, set.rest, m.get)
				variance := "–"
				if g.n > 0 && r.n > 0 {
					if k <= 1 {
						variance = fmt.Sprintf("%+.2f points", g.mean-r.mean)
					} else if r.mean != 0 {
						variance = fmt.Sprintf("%+.1f %%", 100*(g.mean-r.mean)/r.mean)
					}
				}
				thr, res := "", ""
				if l, ok := lines[map[int]string{0: "CPU", 1: "GC time", 2: "throughput"}[k]]; ok && k <= 2 {
					thr = fmt.Sprintf("%+g %s", l.limit, l.unit)
					res = map[bool]string{true: "pass", false: "FAIL"}[l.pass]
					if !l.known {
						res = "not measured"
					}
					if !l.gate {
						res += " (shown)"
					}
				}
				t.Rows = append(t.Rows, []string{m.name + " (" + m.unit + ")", r.cell(m.format), g.cell(m.format), variance, thr, res})
			}
			sec.Tables = append(sec.Tables, t)
		}
		if !v.writes {
			sec.Paras = append(sec.Paras, v.variant+" takes no mutations: only the querying users ran.")
		}
		if !v.sameProcess {
			sec.Paras = append(sec.Paras, v.variant+" is a server of another stack: its REST control is serve rest in a process of its own, so CPU compares two processes.")
		}
		for _, r := range v.runs {
			if r.driver {
				sec.Paras = append(sec.Paras, fmt.Sprintf("Caution: the load generator was the bottleneck in %s: that run measured it as much as the server.", r.path))
			}
		}
	}
	sec.Tables = append(sec.Tables, report.Table{Title: "Seed 003's published results (GraphQL ASP.NET, .NET 7)", Head: []string{"version", "metric", "REST workload", "GraphQL workload", "variance"},
		Rows: [][]string{
			{"v0.13.1-beta", "CPU utilisation", "0.01–2 %", "2–9 %", "+7 % (fail)"},
			{"", "GC % time", "< 1 %", "2–4 %", "+3 % (fail)"},
			{"", "Throughput", "37,490 req/s", "29,830 req/s", "−20 % (fail)"},
			{"v0.14.0-beta", "CPU utilisation", "0.01–2 %", "1–3 %", "+1 % (pass)"},
			{"", "GC % time", "< 1 %", "< 1 %", "+0 % (pass)"},
			{"", "Throughput", "37,360 req/s", "36,509 req/s", "−2.3 % (pass)"},
		}})
	return sec
}
