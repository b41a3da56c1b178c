package report

import (
	"slices"
)

// matrix is the comparison under one set of conditions at a glance: a row
// per template (then per mixed workload), a column per compared series,
// each cell the series' figure and its speed-up over the reference series.
// The headline is read from the matrices, and the overview's heat map draws
// them.
type matrix struct {
	cond      Key    // the conditions; Series and Workload are empty
	metric    string // metricThroughput (higher is faster) or metricQET (lower is faster)
	series    []string
	reference string // r.Reference, else the first series present
	rows      []matrixLine
}

const (
	metricThroughput = "throughput" // queries per second over the measured runs
	metricQET        = "qet"        // mean query execution time in ms (sequential runs)
)

// matrixLine is one row of a matrix: a template or a mixed workload.
type matrixLine struct {
	label          string
	mixed          bool // a whole mixed workload (aTPw)
	cells          []matrixCell
	best, runnerUp int // indexes of the fastest and second fastest correct series; -1 when none
	// test is Welch's test of the fastest against the runner-up; clear
	// says that the fastest is the winner: significantly faster (or the
	// only correct series).
	test  TTest
	clear bool
}

// matrixCell is one series' figure in one row.
type matrixCell struct {
	ok      bool // the series ran it
	stat    Stat // per-run throughputs, or the mean QET in ms (N = 1)
	samples []float64
	speedup float64 // over the reference: above 1 is faster; 0 when unknown
	flagged bool    // the series returned wrong answers
	noisy   bool    // its runs disagree (CV above runfile.NoisyCV)
	limited bool    // the load generator was the limit in one of its run files
	same    bool    // Welch's test finds no significant difference from the reference
}

// faster reports whether figure a is faster than b in the metric.
func (m *matrix) faster(a, b float64) bool {
	if m.metric == metricQET {
		return a < b
	}
	return a > b
}

// buildMatrices makes one throughput matrix per condition from the aTPt and
// aTPw rows of the compared series; without throughput, one of mean QETs
// per condition of sequential runs.
func (r *Report) buildMatrices() []matrix {
	var rows []Throughput
	for _, t := range append(nonMixed(r.Throughput), r.Workloads...) {
		if !r.apart(t.Series) {
			rows = append(rows, t)
		}
	}
	slices.SortStableFunc(rows, func(a, b Throughput) int { return r.compareConds(a.Key, b.Key) })
	limited := map[Key]bool{}
	for _, ri := range r.Runs {
		if ri.DriverWhy != "" {
			limited[ri.Key] = true
		}
	}
	var out []matrix
	for _, g := range groupBy(rows, func(k Key) string { k.Workload = ""; return condLabel(k) }) {
		var es []matrixEntry
		for _, t := range g.rows {
			es = append(es, matrixEntry{t.Series, rowLabel(t), t.Template == ""})
		}
		m := r.newMatrix(g.rows[0].Key, metricThroughput, es)
		for _, t := range g.rows {
			c := m.cell(rowLabel(t), t.Series)
			*c = matrixCell{ok: true, stat: t.Stat, samples: t.Samples, flagged: t.Flagged, noisy: t.Noisy, limited: limited[t.Key]}
		}
		m.finish()
		out = append(out, m)
	}
	if len(out) > 0 {
		return out
	}
	return r.qetMatrices()
}

// qetMatrices makes the matrices of mean QET, one per condition of runs
// that measured no throughput (sequential passes).
func (r *Report) qetMatrices() []matrix {
	var rows []Latency
	for _, l := range r.Latency {
		if !r.measuresThroughput(l.Mode) && !r.apart(l.Series) && l.QET.N > 0 {
			rows = append(rows, l)
		}
	}
	var out []matrix
	for _, g := range groupBy(rows, func(k Key) string { k.Workload = ""; return condLabel(k) }) {
		var es []matrixEntry
		for _, l := range g.rows {
			es = append(es, matrixEntry{l.Series, l.Template, false})
		}
		m := r.newMatrix(g.rows[0].Key, metricQET, es)
		for _, l := range g.rows {
			c := m.cell(l.Template, l.Series)
			*c = matrixCell{ok: true, stat: Stat{N: 1, Mean: l.QET.Mean / 1e6, CILow: l.QET.Mean / 1e6, CIHigh: l.QET.Mean / 1e6},
				samples: r.queryQETs(l.Key, l.Template), flagged: r.flagged(l.Series)}
		}
		m.finish()
		out = append(out, m)
	}
	return out
}

// queryQETs are the mean QETs (ms) of a template's queries under a key:
// the samples a sequential run's winner is tested on.
func (r *Report) queryQETs(k Key, template string) []float64 {
	var out []float64
	for _, q := range r.Queries {
		if q.Key == k && q.Template == template && q.N > 0 {
			out = append(out, q.QETMean/1e6)
		}
	}
	return out
}

// rowLabel is a throughput row's label in a matrix: its template, or its
// mixed workload's name.
func rowLabel(t Throughput) string {
	if t.Template == "" {
		return t.Workload
	}
	return t.Template
}

// matrixEntry is one figure to place in a matrix.
type matrixEntry struct {
	series, label string
	mixed         bool
}

// newMatrix lays out a matrix's series and rows from its entries, in
// report order.
func (r *Report) newMatrix(k Key, metric string, entries []matrixEntry) matrix {
	k.Series, k.Workload = "", ""
	m := matrix{cond: k, metric: metric}
	has := map[string]bool{}
	var labels []string
	mixed := map[string]bool{}
	for _, e := range entries {
		has[e.series] = true
		if !slices.Contains(labels, e.label) {
			labels = append(labels, e.label)
			mixed[e.label] = e.mixed
		}
	}
	m.series = r.seriesOf(func(s string) bool { return has[s] })
	m.reference = m.series[0]
	if has[r.Reference] {
		m.reference = r.Reference
	}
	// The reference's column first: the others read against it.
	i := slices.Index(m.series, m.reference)
	m.series = append([]string{m.reference}, slices.Delete(slices.Clone(m.series), i, i+1)...)
	for _, l := range labels {
		m.rows = append(m.rows, matrixLine{label: l, mixed: mixed[l], cells: make([]matrixCell, len(m.series)), best: -1, runnerUp: -1})
	}
	return m
}

// cell returns the cell of a row and series.
func (m *matrix) cell(label, series string) *matrixCell {
	i := slices.Index(m.series, series)
	for k := range m.rows {
		if m.rows[k].label == label {
			return &m.rows[k].cells[i]
		}
	}
	panic("report: no matrix row " + label)
}

// finish computes the speed-ups over the reference, the fastest and the
// runner-up of each row (correct series only), and whether each difference
// from the reference is significant.
func (m *matrix) finish() {
	ref := slices.Index(m.series, m.reference)
	for k := range m.rows {
		row := &m.rows[k]
		rc := row.cells[ref]
		for i := range row.cells {
			c := &row.cells[i]
			if !c.ok {
				continue
			}
			if rc.ok && rc.stat.Mean > 0 && c.stat.Mean > 0 {
				c.speedup = c.stat.Mean / rc.stat.Mean
				if m.metric == metricQET {
					c.speedup = rc.stat.Mean / c.stat.Mean
				}
			}
			if i != ref && rc.ok {
				t := WelchTest(c.samples, rc.samples)
				c.same = t.Valid && !t.Significant
			}
			if c.flagged {
				continue
			}
			switch {
			case row.best < 0 || m.faster(c.stat.Mean, row.cells[row.best].stat.Mean):
				row.best, row.runnerUp = i, row.best
			case row.runnerUp < 0 || m.faster(c.stat.Mean, row.cells[row.runnerUp].stat.Mean):
				row.runnerUp = i
			}
		}
		row.clear = row.best >= 0 && row.runnerUp < 0
		if row.best >= 0 && row.runnerUp >= 0 {
			row.test = WelchTest(row.cells[row.best].samples, row.cells[row.runnerUp].samples)
			row.clear = row.test.Significant
		}
	}
}

// comparing returns the matrices that compare at least two series.
func (r *Report) comparing() []matrix {
	var out []matrix
	for _, m := range r.matrices {
		if len(m.series) > 1 {
			out = append(out, m)
		}
	}
	return out
}
