package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/report/plot"
	"github.com/gqlbench/gqlbench/runfile"
)

// overview is the report's first section: the headline and its caveats,
// the correctness verdict and the heat map first, then the alerts, the
// notes and the load generator's account.
func (r *Report) overview() section {
	s := section{ID: "overview", Title: "Overview", Lead: r.Headline, Caveats: r.Caveats, Verdict: r.Verdict, Charts: r.overviewMaps()}
	for _, se := range r.Series {
		s.VerdictBad = s.VerdictBad || se.Wrong > 0 || se.Errors > 0
		if se.Flagged {
			s.Alerts = append(s.Alerts, fmt.Sprintf("%s returned %d wrong answer(s) out of %d verified: its speed does not count. It is ranked after every correct series and marked ✗ in tables and with red stripes or dots in charts.",
				se.Name, se.Wrong, se.Verified))
		}
	}
	for _, se := range r.Series {
		if strings.HasSuffix(se.Name, uncheckedMark) {
			s.Cautions = append(s.Cautions, fmt.Sprintf("%s: only the status of its responses was checked (HTTP 200, no GraphQL errors, data present), not the answers: a fast wrong server would look the same. Its goodput is not known.", se.Name))
		}
	}
	s.Cautions = append(s.Cautions, r.runCautions()...)
	s.Cautions = append(s.Cautions, r.noisyCaution()...)
	s.Notes = append(slices.Clone(r.Notes), r.aboutRuns()...)
	if t := r.limitedTable(); len(t.Rows) > 0 {
		s.Tables = append(s.Tables, t)
	}
	return s
}

// overviewMaps are the heat maps the overview shows: the first only when
// the throughput section can show the others (of further conditions).
func (r *Report) overviewMaps() []plot.Chart {
	maps := r.chartsWith("heatmap")
	if len(nonMixed(r.Throughput))+len(r.Workloads) > 0 {
		return maps[:min(len(maps), 1)]
	}
	return maps
}

// runCautions call out the run files that did not end well, whose load
// generator was the limit (all in one), or whose sends were late.
func (r *Report) runCautions() []string {
	var out []string
	for _, ri := range r.Runs {
		if ri.Status != "ok" {
			out = append(out, fmt.Sprintf("%s ended with status %q%s.", ri.Path, ri.Status, suffix(": ", ri.Reason)))
		}
		if ri.OnTime != nil && *ri.OnTime < max(ri.Params.MinOnTime, onTimeAlert) {
			out = append(out, fmt.Sprintf("%s: only %s of its sends started on time (within %v of their intended time): the rate asked for was not offered.",
				ri.Path, pctCell(100**ri.OnTime), time.Duration(ri.Params.LateNS)))
		}
		if ri.reconnects >= reconnectAlert {
			out = append(out, fmt.Sprintf("%s: %s connections per request: the server closed its connections (Connection: close, or idle ones); each new connection counts in its request's latency, as the server's cost.",
				ri.Path, f2(ri.ConnectsPerRequest)))
		}
	}
	switch limited := r.limitedRuns(); {
	case len(limited) == 1:
		out = append(out, fmt.Sprintf("%s: the load generator, not the server, was the limit: %s.", limited[0].Path, limited[0].DriverWhy))
	case len(limited) > 1:
		out = append(out, fmt.Sprintf("In %d run files the load generator, not the server, was the limit: their throughputs are lower bounds. The table below says where and why.", len(limited)))
	}
	return out
}

// limitedTable lists the run files whose load generator was the limit.
func (r *Report) limitedTable() table {
	t := table{Title: "Where the load generator was the limit", Head: []string{"file", "series", "workload", "why"}}
	limited := r.limitedRuns()
	if len(limited) < 2 {
		return t
	}
	for _, ri := range limited {
		t.add(r.flagged(ri.Key.Series), ri.Path, ri.Key.Series, ri.Key.Workload, ri.DriverWhy)
	}
	return t
}

// limitedRuns are the run files whose load generator was the limit.
func (r *Report) limitedRuns() []RunInfo {
	var out []RunInfo
	for _, ri := range r.Runs {
		if ri.DriverWhy != "" {
			out = append(out, ri)
		}
	}
	return out
}

// aboutRuns are the overview's notes on the runs: how many, what was held
// constant, what was excluded, what the load generator said of itself.
func (r *Report) aboutRuns() []string {
	var names []string
	for _, se := range r.Series {
		names = append(names, se.Name)
	}
	measured, warm := 0, 0
	for _, ri := range r.Runs {
		measured += ri.Measured
		warm += ri.Warmups
	}
	out := []string{fmt.Sprintf("%d run file(s) of %d series (%s); ratios and tests compare with the reference series %q.",
		len(r.Runs), len(r.Series), strings.Join(names, ", "), r.Reference)}
	if len(r.Constant) > 0 {
		var kv []string
		for _, c := range r.Constant {
			kv = append(kv, c.Key+" "+c.Value)
		}
		out = append(out, "Held constant (so the tables leave these columns out): "+strings.Join(kv, ", ")+".")
	}
	out = append(out, fmt.Sprintf("Every figure is recomputed from the run files' interval lines. Throughput and latency are over the measured runs: %d run(s) measured, %d warm-up run(s) excluded (in closed and open mode the first of several runs is a warm-up). Correctness counts every request, warm-up included.", measured, warm))
	if len(r.Baseline) > 0 {
		out = append(out, fmt.Sprintf("Compared with %d baseline run file(s): see Regressions.", len(r.Baseline)))
	}
	return append(out, r.honesty())
}

// condsVary reports whether the compared runs differ in a condition other
// than their workload.
func (r *Report) condsVary() bool {
	return slices.ContainsFunc(r.Varying, func(v string) bool { return v != "workload" })
}

// reconnectAlert is the connections made per request from which a run is
// called out.
const reconnectAlert = 0.1

// onTimeAlert is the share of sends on time below which an open-loop run
// is called out, whatever its own --min-on-time: LDBC's audited runs
// require 95 %.
const onTimeAlert = 0.95

// noisyAlerts names each series whose runs disagree (CV above
// runfile.NoisyCV) in some throughput row, and where.
func (r *Report) noisyAlerts() []string {
	where := r.noisyPlaces()
	var out []string
	for _, se := range r.Series {
		if w := where[se.Name]; len(w) > 0 {
			out = append(out, fmt.Sprintf("%s: the throughput of its runs varies by more than %s (CV, marked %s in the tables): %s. %s",
				se.Name, pctCell(100*runfile.NoisyCV), strings.TrimSpace(noisyMark), listNoisy(w), noisyAdvice))
		}
	}
	return out
}

// noisyAdvice says what to do about noisy runs.
const noisyAdvice = "Differences smaller than that are noise: make more runs (load --runs auto --ci 5%) or longer ones, on a quieter machine."

// noisyCaution is the page's one alert of noisy series: noisyAlerts' when
// one series is noisy, else one for all of them.
func (r *Report) noisyCaution() []string {
	where := r.noisyPlaces()
	var parts []string
	for _, se := range r.Series {
		if w := where[se.Name]; len(w) > 0 {
			parts = append(parts, se.Name+" on "+listNoisy(w))
		}
	}
	if len(parts) < 2 {
		return r.noisyAlerts()
	}
	return []string{fmt.Sprintf("The throughput of these series' runs varies by more than %s (CV, marked %s in the tables): %s. %s",
		pctCell(100*runfile.NoisyCV), strings.TrimSpace(noisyMark), strings.Join(parts, "; "), noisyAdvice)}
}

func listNoisy(w []string) string {
	if len(w) > 6 {
		w = append(w[:6:6], fmt.Sprintf("and %d more", len(w)-6))
	}
	return strings.Join(w, ", ")
}

// noisyPlaces lists, per series, where its runs disagree and by how much.
func (r *Report) noisyPlaces() map[string][]string {
	where := map[string][]string{}
	for _, row := range append(slices.Clone(r.Throughput), r.Workloads...) {
		if !row.Noisy {
			continue
		}
		what := row.Template
		switch {
		case what == "":
			what = row.Workload
		case row.Mixed:
			what += " in " + row.Workload
		}
		if c := r.condShort(row.Key.cond()); c != "" {
			what += " (" + c + ")"
		}
		where[row.Series] = append(where[row.Series], what+" "+pctCell(100*row.CV))
	}
	return where
}

// honesty is the overview's account of what the load generator said of its
// runs: whether it was the bottleneck, the lowest share of sends on time,
// the largest disagreement between the runs of a file.
func (r *Report) honesty() string {
	limited := 0
	var lowest, highest *RunInfo
	for i := range r.Runs {
		ri := &r.Runs[i]
		if ri.DriverWhy != "" {
			limited++
		}
		if ri.OnTime != nil && (lowest == nil || *ri.OnTime < *lowest.OnTime) {
			lowest = ri
		}
		if ri.CV != nil && (highest == nil || *ri.CV > *highest.CV) {
			highest = ri
		}
	}
	p := fmt.Sprintf("The load generator was the bottleneck in %d of %d run file(s) (it watches its own CPU, and whether sends waited on it rather than on the server).",
		limited, len(r.Runs))
	if lowest != nil {
		p += fmt.Sprintf(" Sends on time (open loop and capacity, within --late of their intended time): %s at the lowest (%s).", pctCell(100**lowest.OnTime), lowest.Path)
	}
	if highest != nil {
		p += fmt.Sprintf(" Run-to-run CV of a file's throughput: %s at the highest (%s).", pctCell(100**highest.CV), highest.Path)
	}
	return p
}
