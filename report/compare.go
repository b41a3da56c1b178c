package report

import (
	"fmt"
	"slices"

	"github.com/gqlbench/gqlbench/runfile"
)

// Comparison is Welch's two-tailed t-test of one series' per-run
// throughputs against another's (the reference series, or the first series
// present), for one template or whole mixed workload under equal conditions.
type Comparison struct {
	Key                // the conditions; Series is the series compared
	Template   string  `json:"template,omitempty"`
	Against    string  `json:"against"`
	Mean       float64 `json:"mean"`
	AgainstMu  float64 `json:"against_mean"`
	Ratio      float64 `json:"ratio"`      // Mean / AgainstMu
	Efficiency float64 `json:"efficiency"` // (1 − min/max) × 100 of the two means
	Test       TTest   `json:"test"`
}

// Matched is a two-tailed paired t-test of one series against another over
// matched items: templates (their aTPt) or queries with the same id (their
// aQETq).
type Matched struct {
	Key                // the conditions; Series is the series compared; Workload is empty
	Over       string  `json:"over"`   // "templates" (aTPt) or "queries" (aQETq)
	Metric     string  `json:"metric"` // "aTPt" or "aQETq"
	Against    string  `json:"against"`
	Pairs      int     `json:"pairs"`
	Efficiency float64 `json:"efficiency"` // of the means over the pairs
	Test       TTest   `json:"test"`
}

// Regression compares a throughput with the baseline's under the same key:
// a drop counts only when Welch's test finds it significant.
type Regression struct {
	Key
	Template  string  `json:"template,omitempty"`
	Baseline  Stat    `json:"baseline"`
	Current   Stat    `json:"current"`
	ChangePct float64 `json:"change_pct"` // (current − baseline) / baseline × 100
	Test      TTest   `json:"test"`
}

// CurvePoint is one point of a latency–throughput curve: a capacity step,
// or an open-loop run.
type CurvePoint struct {
	Key
	Step       int     `json:"step,omitempty"`
	Rate       float64 `json:"rate"` // offered requests/s
	Throughput float64 `json:"throughput"`
	Goodput    float64 `json:"goodput"`
	P50        int64   `json:"latency_p50_ns"`
	P99        int64   `json:"latency_p99_ns"`
	Met        *bool   `json:"slo_met,omitempty"`
}

func (r *Report) compare() {
	var tp, wl []Throughput
	for _, t := range r.Throughput {
		if !r.ceiling(t.Series) {
			tp = append(tp, t)
		}
	}
	for _, t := range r.Workloads {
		if !r.ceiling(t.Series) {
			wl = append(wl, t)
		}
	}
	r.Welch = append(welch(tp, r.Reference, false), welch(wl, r.Reference, false)...)
	r.pairedTemplates()
	r.pairedQueries()
}

// welch compares every row with its group's reference row (the reference
// series, else the group's first row).
func welch(rows []Throughput, reference string, mixedToo bool) []Comparison {
	var out []Comparison
	for _, g := range groupRows(rows) {
		if len(g) < 2 || (!mixedToo && g[0].Mixed && g[0].Template != "") {
			continue
		}
		ref := g[0]
		for _, row := range g {
			if row.Series == reference {
				ref = row
			}
		}
		for _, row := range g {
			if row.Series == ref.Series {
				continue
			}
			c := Comparison{Key: row.Key, Template: row.Template, Against: ref.Series, Mean: row.Mean, AgainstMu: ref.Mean,
				Efficiency: Efficiency(row.Mean, ref.Mean), Test: WelchTest(row.Samples, ref.Samples)}
			if ref.Mean > 0 {
				c.Ratio = row.Mean / ref.Mean
			}
			out = append(out, c)
		}
	}
	return out
}

// groupRows groups rows that differ in their series only, in order.
func groupRows(rows []Throughput) [][]Throughput {
	idx := map[[2]any]int{}
	var out [][]Throughput
	for _, row := range rows {
		g := [2]any{row.Key.cond(), row.Template}
		i, ok := idx[g]
		if !ok {
			i = len(out)
			idx[g] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], row)
	}
	return out
}

// pairedTemplates pairs the aTPt of two series over the templates both ran
// under equal conditions.
func (r *Report) pairedTemplates() {
	type cell struct{ series, template string }
	byCond := map[Key]map[cell]float64{}
	var conds []Key
	for _, row := range r.Throughput {
		if row.Mixed {
			continue
		}
		c := row.Key.cond()
		c.Workload = ""
		if byCond[c] == nil {
			byCond[c] = map[cell]float64{}
			conds = append(conds, c)
		}
		byCond[c][cell{row.Series, row.Template}] = row.Mean
	}
	for _, c := range conds {
		m := byCond[c]
		r.pairedOver(c, "templates", "aTPt", func(series string) map[string]float64 {
			out := map[string]float64{}
			for k, v := range m {
				if k.series == series {
					out[k.template] = v
				}
			}
			return out
		})
	}
}

// pairedQueries pairs the aQETq of two series over the query ids both ran
// under equal conditions (sequential runs).
func (r *Report) pairedQueries() {
	byCond := map[Key]map[string]map[string]float64{} // cond → series → id → aQETq
	var conds []Key
	for _, q := range r.Queries {
		c := q.Key.cond()
		c.Workload = ""
		if byCond[c] == nil {
			byCond[c] = map[string]map[string]float64{}
			conds = append(conds, c)
		}
		if byCond[c][q.Series] == nil {
			byCond[c][q.Series] = map[string]float64{}
		}
		if q.N > 0 {
			byCond[c][q.Series][q.ID] = q.QETMean
		}
	}
	for _, c := range conds {
		m := byCond[c]
		r.pairedOver(c, "queries", "aQETq", func(series string) map[string]float64 { return m[series] })
	}
}

// pairedOver runs the paired test of every series against the reference
// (else the first series present) over the items both have.
func (r *Report) pairedOver(cond Key, over, metric string, values func(series string) map[string]float64) {
	var present []string
	for _, s := range r.Series {
		if !s.Ceiling && len(values(s.Name)) > 0 {
			present = append(present, s.Name)
		}
	}
	if len(present) < 2 {
		return
	}
	ref := present[0]
	if slices.Contains(present, r.Reference) {
		ref = r.Reference
	}
	refv := values(ref)
	for _, s := range present {
		if s == ref {
			continue
		}
		v := values(s)
		var items []string
		for item := range v {
			if _, ok := refv[item]; ok {
				items = append(items, item)
			}
		}
		slices.SortFunc(items, compareTemplates)
		if len(items) < 2 {
			continue
		}
		var a, b []float64
		for _, item := range items {
			a, b = append(a, v[item]), append(b, refv[item])
		}
		k := cond
		k.Series = s
		t := PairedTest(a, b)
		r.Matched = append(r.Matched, Matched{Key: k, Over: over, Metric: metric, Against: ref, Pairs: len(items),
			Efficiency: Efficiency(t.Mean1, t.Mean2), Test: t})
	}
}

// regressions compares the throughputs with the baseline's.
func (r *Report) regressions(base []*point) {
	if len(base) == 0 {
		return
	}
	rows := map[string]Throughput{}
	for _, p := range base {
		if !r.measuresThroughput(p.key.Mode) {
			continue
		}
		mixed := p.mixed()
		for _, t := range p.templates() {
			rows[rowID(p.key, t)] = r.throughputOf(p, t, mixed)
		}
		if mixed {
			rows[rowID(p.key, "")] = r.throughputOf(p, "", true)
		}
	}
	for _, cur := range append(slices.Clone(r.Throughput), r.Workloads...) {
		b, ok := rows[rowID(cur.Key, cur.Template)]
		if !ok {
			continue
		}
		g := Regression{Key: cur.Key, Template: cur.Template, Baseline: b.Stat, Current: cur.Stat,
			Test: WelchTest(cur.Samples, b.Samples)}
		if b.Mean > 0 {
			g.ChangePct = (cur.Mean - b.Mean) / b.Mean * 100
		}
		r.Regressions = append(r.Regressions, g)
	}
}

func rowID(k Key, template string) string { return fmt.Sprintf("%#v\x00%s", k, template) }

// curve collects the latency–throughput points: capacity steps and
// open-loop runs.
func (r *Report) curve() {
	for _, p := range r.points {
		for _, run := range p.runs {
			switch r.modes[p.key.Mode].Curve {
			case runfile.CurveSteps:
				for _, s := range run.File.Steps {
					met := s.Met
					r.Curve = append(r.Curve, CurvePoint{Key: p.key, Step: s.Step, Rate: s.Rate, Throughput: s.Throughput,
						Goodput: s.Goodput, P50: s.Latency.P50, P99: s.Latency.P99, Met: &met})
				}
			case runfile.CurveRate:
				s := run.Summary
				c := CurvePoint{Key: p.key, Rate: run.File.Header.Params.Rate, Throughput: s.Throughput.Mean,
					Goodput: s.Goodput.Mean, Met: s.SLOMet}
				if l := s.Total.Latency; l != nil {
					c.P50, c.P99 = l.P50, l.P99
				}
				r.Curve = append(r.Curve, c)
			}
		}
	}
}
