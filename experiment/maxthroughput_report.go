package experiment

import (
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// mtResult is one variant's ramp.
type mtResult struct {
	variant, path string
	ramp          runfile.Ramp
	done          bool // the run has a ramp summary
	wrong, errors int64

	// at the best interval before the stop
	serverCPU, serverRSS float64 // % of the server's CPUs, MiB
	heapInUse            float64 // MiB; 0: not measured
	driverCPU            float64 // % of the load generator's CPUs
	late                 float64 // % of the sends late on the generator, over the ramp
	loadCores            int

	generatorLimit bool // the load generator was the limit
	generatorWhy   string

	users, throughput, cpu []float64 // per interval, for the chart
}

// mtResultOf reads a ramp's run file.
func mtResultOf(v, path string, sum *runfile.Summary, loadCores, serverCores int) *mtResult {
	r := &mtResult{variant: v, path: path, wrong: sum.Total.Wrong, errors: sum.Total.Errors, loadCores: loadCores}
	if sum.Ramp != nil {
		r.ramp, r.done = *sum.Ramp, true
	}
	r.generatorLimit = sum.DriverLimit || strings.Contains(r.ramp.Stop, "load generator is the bottleneck")
	r.generatorWhy = sum.DriverWhy
	f, err := runfile.ReadFile(path)
	if err != nil {
		return r
	}
	best := -1.0
	var count, late int64
	for _, iv := range f.Intervals {
		if iv.Tail || iv.EndNS <= iv.StartNS {
			continue
		}
		var n int64
		for _, t := range iv.Templates {
			n += t.Count
			late += t.DriverLate
		}
		count += n
		tp := float64(n) / (float64(iv.EndNS-iv.StartNS) / 1e9)
		cpu := 0.0
		if len(iv.Procs) > 0 {
			cpu = iv.Procs[0].CPUPercent / float64(max(serverCores, 1))
		}
		r.users, r.throughput, r.cpu = append(r.users, float64(iv.Users)), append(r.throughput, tp), append(r.cpu, cpu)
		if iv.Users == r.ramp.UsersAtMax && tp > best {
			best = tp
			r.serverCPU = cpu
			if len(iv.Procs) > 0 {
				r.serverRSS = float64(iv.Procs[0].RSSBytes) / (1 << 20)
				if rt := iv.Procs[0].Runtime; rt != nil && rt.Error == "" {
					r.heapInUse = float64(rt.HeapInUseBytes) / (1 << 20)
				}
			}
			if iv.Driver != nil {
				r.driverCPU = iv.Driver.CPUPercent / float64(max(loadCores, 1))
			}
		}
	}
	if count > 0 {
		r.late = 100 * float64(late) / float64(count)
	}
	return r
}

// line is the variant's one-line result.
func (r *mtResult) line() string {
	if !r.done {
		return "max throughput: no ramp summary (the run did not end): see " + r.path
	}
	gen := "no"
	if r.generatorLimit {
		gen = "YES — the figure is a lower bound of the server's"
	}
	heap := ""
	if r.heapInUse > 0 {
		heap = fmt.Sprintf(", heap in use %.1f MiB", r.heapInUse)
	}
	return fmt.Sprintf("max throughput %.0f answers/s at %d users; stopped at %d users: %s; server CPU %.0f %%, RSS %.1f MiB%s; load generator CPU %.0f %% of %d core(s), %.2f %% of sends late: the limit? %s",
		r.ramp.MaxThroughput, r.ramp.UsersAtMax, r.ramp.MaxUsers, r.ramp.Stop, r.serverCPU, r.serverRSS, heap, r.driverCPU, r.loadCores, r.late, gen)
}

// verdicts are the ramp's lines: the throughput before the failure (shown;
// suite --fail-if peak<N judges it), why it stopped, and the wrong
// answers (none allowed).
func (r *mtResult) verdicts() []Verdict {
	wrong := Verdict{Variant: r.variant, Measure: "wrong answers", Metric: "wrong", Value: fmt.Sprint(r.wrong), Number: numPtr(float64(r.wrong)),
		Threshold: "0", Result: resultOf(r.wrong == 0)}
	if !r.done {
		return []Verdict{{Variant: r.variant, Measure: "max throughput", Metric: "peak", Value: "not measured", Result: NA, Detail: "no ramp summary: see " + r.path}, wrong}
	}
	peak := Verdict{Variant: r.variant, Measure: "max throughput", Metric: "peak", Value: fmt.Sprintf("%.0f answers/s at %d users", r.ramp.MaxThroughput, r.ramp.UsersAtMax),
		Number: numPtr(r.ramp.MaxThroughput), Unit: "answers/s", Result: Info, Detail: "stopped at " + fmt.Sprint(r.ramp.MaxUsers) + " users: " + r.ramp.Stop}
	if r.generatorLimit {
		peak.Detail += "; the load generator was the limit: a lower bound of the server's"
	}
	return []Verdict{peak, wrong}
}

// maxThroughputSection is the report's section: the table of results, and
// throughput and the server's CPU against users.
func maxThroughputSection(e MaxThroughput, rs []*mtResult) report.Section {
	sec := report.Section{ID: "max-throughput", Title: "Max throughput until failure (seed 003)"}
	t := report.Table{Title: "Max throughput", Note: "At the best interval before the one that failed; CPU as a share of the CPUs each process may use.",
		Head: []string{"variant", "max throughput (answers/s)", "users then", "users at the stop", "why it stopped", "server CPU %", "server RSS (MiB)", "heap in use (MiB)", "generator CPU %", "sends late %", "generator the limit"}}
	var tp, cpu []report.LineSeries
	for i, r := range rs {
		sec.Paras = append(sec.Paras, r.variant+": "+r.line())
		heap := "–"
		if r.heapInUse > 0 {
			heap = fmt.Sprintf("%.1f", r.heapInUse)
		}
		gen := "no"
		if r.generatorLimit {
			gen = "yes: " + r.generatorWhy
		}
		t.Rows = append(t.Rows, []string{r.variant, fmt.Sprintf("%.0f", r.ramp.MaxThroughput), fmt.Sprint(r.ramp.UsersAtMax), fmt.Sprint(r.ramp.MaxUsers), r.ramp.Stop,
			fmt.Sprintf("%.0f", r.serverCPU), fmt.Sprintf("%.1f", r.serverRSS), heap, fmt.Sprintf("%.0f", r.driverCPU), fmt.Sprintf("%.2f", r.late), gen})
		tp = append(tp, report.LineSeries{Name: r.variant, Color: i, Xs: r.users, Ys: r.throughput})
		cpu = append(cpu, report.LineSeries{Name: r.variant, Color: i, Xs: r.users, Ys: r.cpu})
	}
	sec.Tables = []report.Table{t, {Title: "Seed 003's published result (GraphQL ASP.NET v0.14.0-beta, 2022-12-01)", Head: []string{"metric", "GraphQL query"},
		Rows: [][]string{{"max throughput", "57,919 req/s, cut short: \"we ran out of client machines\"; the server at 5 % CPU and under 750 MB of committed memory"}}}}
	sec.Lines = []report.LineChart{
		{ID: "mt-throughput", Title: "Throughput as users are added", XLabel: "users", YLabel: "answers / s", Lines: tp,
			Caption: fmt.Sprintf("Answers completed per second in each interval of the ramp (+%g users/s, each a query every 0–%v).", e.RampRate, e.Think)},
		{ID: "mt-cpu", Title: "The server's CPU as users are added", XLabel: "users", YLabel: "CPU %", Lines: cpu,
			Caption: "The server process's CPU time over wall time, as a share of the CPUs it may use."},
	}
	return sec
}
