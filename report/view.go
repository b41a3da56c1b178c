package report

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// runCVCell is the CV of a row's runs, marked when they disagree.
func runCVCell(t Throughput) string {
	if t.Noisy {
		return cvCell(t.Stat) + noisyMark
	}
	return cvCell(t.Stat)
}

// sections lays the report out, skipping what has no data: the overview,
// the caller's sections, then the details.
func (r *Report) sections() []section {
	var out []section
	all := append([]section{r.overview()}, r.added...)
	all = append(all, r.throughputSection(), r.mixedSection(),
		r.latencySection(), r.queriesSection(), r.layersSection(), r.profilesSection(), r.scalingSection(), r.curveSection(), r.resourcesSection(),
		r.templateSection(), r.correctnessSection(), r.statisticsSection(), r.regressionSection(), r.reproductionSection())
	for _, s := range all {
		if len(s.Paras)+len(s.Alerts)+len(s.Tables)+len(s.Charts)+len(s.Lead)+len(s.Subs)+len(s.Cautions)+len(s.Notes) > 0 || s.Verdict != "" {
			out = append(out, s)
		}
	}
	return out
}

func (r *Report) correctnessSection() section {
	s := section{ID: "correctness", Title: "Correctness"}
	if len(r.Correctness) == 0 {
		return s
	}
	head, cells := r.keyCols(true)
	t := table{Title: "Requests, errors and wrong answers per template",
		Note: "All requests, warm-up included. Wrong = the answer differed from the oracle's; verified = answers compared. Throughput and goodput (correct answers) per second over the measured runs; bytes per request as sent and received on the wire.",
		Head: append(head, "template", "requests", "errors", "wrong", "verified", "throughput/s", "goodput/s", "sent B/req", "recv B/req")}
	stmts := slices.ContainsFunc(r.Correctness, func(c Correctness) bool { return c.Statements > 0 })
	if stmts {
		t.Head = append(t.Head, "SQL stmts/req")
		t.Note += " SQL statements per request as the database counted them (pg_stat_statements), for any server; – where not counted."
	}
	for _, c := range r.Correctness {
		row := append(cells(c.Key), c.Template, strconv.FormatInt(c.Requests, 10), errorsCell(c),
			wrongCell(c.Series, c.Wrong), wrongCell(c.Series, c.Verified), f1(c.Throughput), gpCell(c.Series, c.Goodput),
			strconv.FormatFloat(c.SentPerRequest, 'f', 0, 64), strconv.FormatFloat(c.RecvPerRequest, 'f', 0, 64))
		if stmts {
			row = append(row, stmtsCell(c.Statements))
		}
		t.add(c.Wrong > 0, row...)
	}
	s.Tables = append(s.Tables, t)
	if et, ok := r.errorReasonsTable(); ok {
		s.Tables = append(s.Tables, et)
	}
	return s
}

// wrongCell is a count of wrong (or verified) answers: "–" for a series
// whose answers were not checked, where none could be.
func wrongCell(series string, n int64) string {
	if strings.HasSuffix(series, uncheckedMark) {
		return "–"
	}
	return strconv.FormatInt(n, 10)
}

// errorReasonsTable says what the errors were, per run file: per kind,
// HTTP status and reason their count, with the start of one answer's body.
func (r *Report) errorReasonsTable() (table, bool) {
	t := table{Title: "Errors by kind and reason",
		Note: "Per run file, the measured runs' errors by kind, HTTP status and reason (at most " + strconv.Itoa(runfile.MaxErrorReasons) +
			" reasons, then \"other\" per kind), with the first bytes of one answer's body, secrets hidden.",
		Head: []string{"file", "series", "errors", "kind", "reason", "sample body"}}
	for _, ri := range r.Runs {
		for _, e := range ri.ErrorReasons {
			reason := e.Reason
			if reason == "" && e.Status != 0 {
				reason = "HTTP " + strconv.Itoa(e.Status)
			}
			t.add(false, filepath.Base(ri.Path), ri.Key.Series, strconv.FormatInt(e.Count, 10), e.Kind, reason, e.Sample)
		}
	}
	return t, len(t.Rows) > 0
}

// stmtsCell is a statements-per-request figure, "–" when not counted.
func stmtsCell(v float64) string {
	if v == 0 {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func errorsCell(c Correctness) string {
	n := strconv.FormatInt(c.Errors, 10)
	if len(c.ErrorKinds) == 0 {
		return n
	}
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(c.ErrorKinds)) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, c.ErrorKinds[k]))
	}
	return n + " (" + strings.Join(kinds, ", ") + ")"
}

// throughputTable lists throughput rows.
func (r *Report) throughputTable(title, note string, rows []Throughput, what string) table {
	head, cells := r.keyCols(what != "workload")
	t := table{Title: title, Note: note,
		Head: append(head, what, "runs", "mean ± sd /s", "95 % CI", "CV", "goodput/s", "vs "+r.Reference, "rank")}
	for _, row := range rows {
		name := row.Template
		if what == "workload" {
			name = row.Workload
		}
		t.add(row.Flagged, append(cells(row.Key), name, strconv.Itoa(row.N), meanSDCell(row.Stat), ciCell(row.Stat),
			runCVCell(row), gpCell(row.Series, row.Goodput), ratioCell(row.Ratio), rankCell(row))...)
	}
	return t
}

func rankCell(t Throughput) string {
	if t.Flagged {
		return strconv.Itoa(t.Rank) + " ✗"
	}
	return strconv.Itoa(t.Rank)
}

func (r *Report) throughputSection() section {
	s := section{ID: "throughput", Title: "Throughput per template (aTPt)"}
	if one := nonMixed(r.Throughput); len(one) > 0 {
		s.Tables = append(s.Tables, r.throughputTable("aTPt: one-template workloads",
			"Completed queries per second in each measured run, averaged over the runs (LinGBM's aTPt, per second instead of per run). 95 % CI of the mean from Student's t; CV = sd / mean, marked ⚠ above 5 % (the runs disagree). Ranks put series with wrong answers last.",
			one, "template"))
	}
	var in []Throughput
	for _, t := range r.Throughput {
		if t.Mixed {
			in = append(in, t)
		}
	}
	if len(in) > 0 {
		s.Tables = append(s.Tables, r.throughputTable("Templates within mixed workloads",
			"Each template's completed queries per second in each measured run of a mixed workload.", in, "template"))
		s.Tables[len(s.Tables)-1].Long = len(in) > 16
	}
	if maps := r.chartsWith("heatmap"); len(maps) > len(r.overviewMaps()) {
		s.Charts = maps[len(r.overviewMaps()):]
	}
	s.Charts = append(s.Charts, r.chartsWith("atpt-bars")...)
	return s
}

func (r *Report) mixedSection() section {
	s := section{ID: "mixed", Title: "Mixed workloads (aTPw, aTPm)"}
	if len(r.Workloads) == 0 {
		return s
	}
	s.Tables = append(s.Tables, r.throughputTable("aTPw: whole mixed workloads",
		"Completed queries per second of the whole workload in each measured run, averaged over the runs.", r.Workloads, "workload"))
	if len(r.Mixes) > 0 {
		head, cells := r.keyCols(false)
		t := table{Title: "aTPm: over distinct mixed workloads", Note: "Mean ± sd of the series' aTPw over its different mixed workloads.",
			Head: append(head, "workloads", "aTPm /s", "95 % CI", "CV")}
		for _, m := range r.Mixes {
			t.add(r.flagged(m.Series), append(cells(m.Key), strings.Join(m.Workloads, ", "), meanSDCell(m.Stat), ciCell(m.Stat), cvCell(m.Stat))...)
		}
		s.Tables = append(s.Tables, t)
	}
	s.Charts = r.chartsWith("atpw-bars")
	return s
}

func (r *Report) latencySection() section {
	s := section{ID: "latency", Title: "Query execution time per template (QETt)"}
	if len(r.Latency) == 0 {
		return s
	}
	head, cells := r.keyCols(true)
	t := table{Title: "QETt: five-number summary with mean (ms)",
		Note: "Send start → last byte of the response, over the measured runs, from HDR histograms (3 significant digits): minimum, first quartile, median, third quartile, maximum, mean, p90, p99.",
		Head: append(head, "template", "n", "min", "Q1", "median", "Q3", "max", "mean", "p90", "p99")}
	corrected := false
	for _, l := range r.Latency {
		q := l.QET
		t.add(r.flagged(l.Series), append(cells(l.Key), l.Template, strconv.FormatInt(q.N, 10), msCell(float64(q.Min)),
			msCell(float64(q.P25)), msCell(float64(q.P50)), msCell(float64(q.P75)), msCell(float64(q.Max)), msCell(q.Mean),
			msCell(float64(q.P90)), msCell(float64(q.P99)))...)
		corrected = corrected || l.Corrected != nil
	}
	s.Tables = append(s.Tables, t)
	if corrected {
		c := table{Title: "Latency from the intended send time (open loop, capacity; ms)",
			Note: "Coordinated omission corrected: measured from when each request should have been sent.",
			Head: append(slices.Clone(head), "template", "n", "p50", "p90", "p99", "p99.9", "max")}
		for _, l := range r.Latency {
			if q := l.Corrected; q != nil {
				c.add(r.flagged(l.Series), append(cells(l.Key), l.Template, strconv.FormatInt(q.N, 10), msCell(float64(q.P50)),
					msCell(float64(q.P90)), msCell(float64(q.P99)), msCell(float64(q.P999)), msCell(float64(q.Max)))...)
			}
		}
		s.Tables = append(s.Tables, c)
	}
	s.Charts = r.chartsWith("qett-boxes")
	return s
}

func (r *Report) queriesSection() section {
	s := section{ID: "queries", Title: "Single queries (aQETq, aQRTq)"}
	if len(r.Queries) == 0 {
		return s
	}
	head, cells := r.keyCols(false)
	t := table{Title: "aQETq and aQRTq per query (ms)", Long: len(r.Queries) > 20,
		Note: "Sequential runs: each query executed once per pass; mean ± sample sd over the passes. QRT ends at the first byte of the response.",
		Head: append(head, "query", "template", "n", "aQETq", "aQRTq", "errors", "wrong")}
	for _, q := range r.Queries {
		t.add(q.Wrong > 0, append(cells(q.Key), q.ID, q.Template, strconv.FormatInt(q.N, 10),
			msCell(q.QETMean)+" ± "+msCell(q.QETSD), msCell(q.QRTMean)+" ± "+msCell(q.QRTSD),
			strconv.FormatInt(q.Errors, 10), strconv.FormatInt(q.Wrong, 10))...)
	}
	s.Tables = append(s.Tables, t)
	s.Charts = r.chartsWith("sf-aqetq")
	return s
}

func (r *Report) scalingSection() section {
	return section{ID: "scaling", Title: "Scaling: scale factor, clients and pool size", Charts: r.chartsWith("sf-atpt", "clients-atpt")}
}

func (r *Report) curveSection() section {
	s := section{ID: "capacity", Title: "Latency against throughput"}
	if len(r.Curve) == 0 {
		return s
	}
	head, cells := r.keyCols(true)
	t := table{Title: "Capacity steps and open-loop runs", Note: "Latency from the intended send time (ms).",
		Head: append(head, "step", "offered /s", "throughput /s", "goodput /s", "p50", "p99", "SLO met")}
	for _, p := range r.Curve {
		met := "–"
		if p.Met != nil {
			met = yesNo(*p.Met)
		}
		step := "–"
		if p.Step > 0 {
			step = strconv.Itoa(p.Step)
		}
		t.add(r.flagged(p.Series), append(cells(p.Key), step, f1(p.Rate), f1(p.Throughput), gpCell(p.Series, p.Goodput),
			msCell(float64(p.P50)), msCell(float64(p.P99)), met)...)
	}
	s.Tables = append(s.Tables, t)
	s.Charts = r.chartsWith("latency-throughput")
	return s
}

func (r *Report) resourcesSection() section {
	s := section{ID: "resources", Title: "Resources and time series"}
	if len(r.Processes) > 0 {
		head, cells := r.keyCols(true)
		t := table{Title: "CPU and memory of the watched processes",
			Note: "Sampled each interval of the measured runs (--watch-pid), each process with its descendants (a database's backends); " +
				"CPU 100 % = one core; CPU µs/query = CPU time per completed query; memory in MiB (RSS of a lone process, summed PSS of a tree). " +
				"The load generator's own use is shown too.",
			Head: append(head, "process", "samples", "CPU % mean", "CPU % max", "CPU µs/query", "memory mean", "memory max")}
		for _, p := range r.Processes {
			name := p.Name
			switch {
			case p.PID > 0 && p.Processes > 1:
				name += fmt.Sprintf(" (pid %d, %d processes)", p.PID, p.Processes)
			case p.PID > 0:
				name += fmt.Sprintf(" (pid %d)", p.PID)
			}
			t.add(r.flagged(p.Series), append(cells(p.Key), name, strconv.Itoa(p.Samples), f1(p.CPUMean), f1(p.CPUMax),
				f1(p.CPUPerQuery), mib(p.RSSMeanByte), mib(float64(p.RSSMaxBytes)))...)
		}
		s.Tables = append(s.Tables, t)
	}
	s.Charts = r.chartsWith("cpu-per-query", "time")
	return s
}

func (r *Report) statisticsSection() section {
	s := section{ID: "statistics", Title: "Statistics"}
	if len(r.Welch) > 0 {
		head, cells := r.keyCols(true)
		t := table{Title: "Welch's t-test of per-run throughputs",
			Note: "Two-tailed, unequal variances, α = 0.05, each series against the reference under the same conditions. Efficiency = (1 − min/max) × 100 % of the two means (seed 001, Eq. 1).",
			Head: append(head, "template", "against", "mean /s", "against /s", "ratio", "efficiency", "t", "df", "p", "significant")}
		for _, c := range r.Welch {
			row := append(cells(c.Key), orDash(c.Template), c.Against, f1(c.Mean), f1(c.AgainstMu), ratioCell(c.Ratio), pctCell(c.Efficiency))
			t.add(r.flagged(c.Series), append(row, testCells(c.Test)...)...)
		}
		s.Tables = append(s.Tables, t)
	}
	if len(r.Matched) > 0 {
		head, cells := r.keyCols(false)
		t := table{Title: "Paired t-tests over matched templates and queries",
			Note: "Two-tailed paired t-test, α = 0.05: aTPt of the templates both series ran, or aQETq of the queries with the same id (seed 001, Table 5).",
			Head: append(head, "metric", "against", "pairs", "mean", "against mean", "efficiency", "t", "df", "p", "significant")}
		for _, p := range r.Matched {
			unit := f1
			if p.Metric == "aQETq" {
				unit = func(ns float64) string { return msCell(ns) + " ms" }
			}
			row := append(cells(p.Key), p.Metric+" over "+p.Over, p.Against, strconv.Itoa(p.Pairs),
				unit(p.Test.Mean1), unit(p.Test.Mean2), pctCell(p.Efficiency))
			t.add(r.flagged(p.Series), append(row, testCells(p.Test)...)...)
		}
		s.Tables = append(s.Tables, t)
	}
	return s
}

func testCells(t TTest) []string {
	if !t.Valid {
		return []string{"–", "–", "–", "too few runs"}
	}
	return []string{f2(t.T), f1(t.DF), pCell(t.P), yesNo(t.Significant)}
}

func (r *Report) regressionSection() section {
	s := section{ID: "regressions", Title: "Regressions against the baseline"}
	if len(r.Baseline) == 0 {
		return s
	}
	if len(r.Regressions) == 0 {
		s.Alerts = append(s.Alerts, "No baseline run has the same series and conditions as a run here: nothing was compared.")
		return s
	}
	head, cells := r.keyCols(true)
	t := table{Title: "Throughput against the baseline",
		Note: "A drop counts as a regression only when Welch's two-tailed t-test finds it significant at 0.05.",
		Head: append(head, "template", "baseline /s", "current /s", "change", "p", "significant")}
	for _, g := range r.Regressions {
		t.add(r.flagged(g.Series), append(cells(g.Key), orDash(g.Template), meanSDCell(g.Baseline), meanSDCell(g.Current),
			signedPct(g.ChangePct), testCells(g.Test)[2], testCells(g.Test)[3])...)
	}
	s.Tables = append(s.Tables, t)
	return s
}

func (r *Report) reproductionSection() section {
	s := section{ID: "reproduction", Title: "Reproduction",
		Paras: []string{"Everything needed to run it again (LinGBM R5): the tool, the command line, the dataset and the queries file's SHA-256, the driver's parameters and the machine."}}
	if len(r.Config) > 0 {
		t := table{Title: "Configuration", Head: []string{"setting", "value"}}
		for _, kv := range r.Config {
			t.add(false, kv.Key, kv.Value)
		}
		s.Tables = append(s.Tables, t)
	}
	for _, set := range []struct {
		title string
		runs  []RunInfo
	}{{"Run files", r.Runs}, {"Baseline run files", r.Baseline}} {
		if len(set.runs) == 0 {
			continue
		}
		t := table{Title: set.title, Long: len(set.runs) > 8,
			Head: []string{"file", "series", "labels", "tool", "mode and parameters", "dataset", "queries (sha256)", "started", "status", "command"}}
		for _, ri := range set.runs {
			t.add(r.flagged(ri.Key.Series), ri.Path, ri.Key.Series, labelsCell(ri.Labels), toolCell(ri), paramsCell(ri),
				datasetCell(ri.Dataset), fmt.Sprintf("%s, %d instances of %s (%s)", ri.Queries, ri.Instances, strings.Join(ri.Templates, ","), ri.SHA256),
				ri.Start.UTC().Format(time.RFC3339), ri.Status+suffix(": ", ri.Reason), strings.Join(ri.Command, " "))
		}
		s.Tables = append(s.Tables, t)
	}
	m := table{Title: "Machines (where the load generator ran)", Head: []string{"host", "cpu", "cores", "memory", "os/arch", "kernel", "go"}}
	seen := map[string]bool{}
	for _, ri := range append(slices.Clone(r.Runs), r.Baseline...) {
		mc := ri.Machine
		cells := []string{mc.Hostname, mc.CPU, strconv.Itoa(mc.Cores), fmt.Sprintf("%.1f GiB", float64(mc.MemoryBytes)/(1<<30)),
			mc.OS + "/" + mc.Arch, mc.Kernel, mc.Go}
		if k := strings.Join(cells, "\x00"); !seen[k] {
			seen[k] = true
			m.add(false, cells...)
		}
	}
	s.Tables = append(s.Tables, m)
	return s
}

func labelsCell(l map[string]string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(l)) {
		out = append(out, k+"="+l[k])
	}
	return strings.Join(out, " ")
}

func toolCell(ri RunInfo) string {
	s := ri.Tool.Name + " " + ri.Tool.Version
	if ri.Tool.Commit != "" {
		s += " (" + ri.Tool.Commit + ")"
	}
	return s + ", " + ri.Tool.Go
}

func paramsCell(ri RunInfo) string {
	p := ri.Params
	parts := []string{ri.Key.Mode}
	add := func(cond bool, f string, a ...any) {
		if cond {
			parts = append(parts, fmt.Sprintf(f, a...))
		}
	}
	add(p.Clients > 0, "clients %d", p.Clients)
	add(p.Connections > 0, "connections %d", p.Connections)
	add(p.DurationNS > 0, "duration %v", time.Duration(p.DurationNS))
	add(p.Runs > 0, "runs %d", p.Runs)
	add(p.Passes > 0, "passes %d", p.Passes)
	add(p.ThinkNS > 0, "think %v", time.Duration(p.ThinkNS))
	add(p.Rate > 0, "rate %g/s", p.Rate)
	add(p.Arrival != "", "arrival %s", p.Arrival)
	add(p.LateAuto, "late %v (calibrated: timer jitter p99 %v)", time.Duration(p.LateNS), time.Duration(p.JitterP99NS))
	add(p.SLO != "", "slo %s", p.SLO)
	add(true, "seed %d", p.Seed)
	add(p.IntervalNS > 0, "interval %v", time.Duration(p.IntervalNS))
	add(p.VerifySample > 0 && p.VerifySample < 1, "verify sample %g", p.VerifySample)
	add(p.Client != "", "client %s", p.Client)
	return strings.Join(parts, ", ")
}

func datasetCell(d map[string]any) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(d)) {
		out = append(out, fmt.Sprintf("%s=%v", k, d[k]))
	}
	return strings.Join(out, " ")
}
