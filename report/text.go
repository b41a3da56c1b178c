package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Summary writes a compact plain-text table for a terminal, then flagged
// series and significant regressions, the headline and the correctness
// verdict. With several series it is a matrix:
// a row per condition and template, a column per series, each cell the
// throughput (mean ± sd over the measured runs) and its ratio to the
// reference series, with errors and wrong answers called out — a
// quickstart's 6 variants × 16 templates in 16 rows. With one series, a row
// per condition and template with throughput, QET p50 and p99, errors and
// wrong answers.
func (r *Report) Summary(w io.Writer) {
	if len(r.Series) > 1 {
		r.seriesMatrix(w)
	} else {
		r.longSummary(w)
	}
	for _, s := range r.Series {
		if s.Flagged {
			fmt.Fprintf(w, "WRONG ANSWERS: %s returned %d wrong answer(s); it never ranks first.\n", s.Name, s.Wrong)
		}
	}
	for _, a := range r.noisyAlerts() {
		fmt.Fprintf(w, "NOISY: %s\n", a)
	}
	for _, g := range r.Regressions {
		if g.ChangePct < 0 && g.Test.Significant {
			fmt.Fprintf(w, "regression: %s %s %s: %s (p %s)\n", g.Series, condLabel(g.Key.cond()), orDash(g.Template), signedPct(g.ChangePct), pCell(g.Test.P))
		}
	}
	for _, h := range r.Headline {
		fmt.Fprintln(w, h)
	}
	fmt.Fprintf(w, "%s %d series; warm-up runs excluded from throughput and latency, counted in correctness.\n", r.Verdict, len(r.Series))
}

// seriesMatrix is Summary's table for several series.
func (r *Report) seriesMatrix(w io.Writer) {
	head, cells := r.keyCols(true)
	series := []string{r.Reference}
	for _, s := range r.Series {
		if s.Name != r.Reference {
			series = append(series, s.Name)
		}
	}
	tp, lat := r.byRow()
	var rows, seq []*matrixRow
	index := map[string]*matrixRow{}
	for _, c := range r.Correctness {
		id := rowID(c.Key.cond(), c.Template)
		rw := index[id]
		if rw == nil {
			rw = &matrixRow{cond: c.Key.cond(), template: c.Template, by: map[string]Correctness{}}
			index[id] = rw
			if r.perQuery(c.Mode) {
				seq = append(seq, rw)
			} else {
				rows = append(rows, rw)
			}
		}
		rw.by[c.Series] = c
	}
	throughput := func(c Correctness) (float64, string) {
		if t, ok := tp[rowID(c.Key, c.Template)]; ok {
			return t.Mean, meanSDCell(t.Stat)
		}
		return c.Throughput, f1(c.Throughput)
	}
	qet := func(c Correctness) (float64, string) {
		l, ok := lat[rowID(c.Key, c.Template)]
		if !ok || l.QET.N == 0 {
			return 0, "–"
		}
		return l.QET.Mean, msCell(l.QET.Mean)
	}
	if len(rows) > 0 {
		fmt.Fprintf(w, "throughput/s, mean ± sd over the measured runs (ratio to %s):\n", r.Reference)
		r.matrix(w, head, cells, series, rows, throughput, func(v, ref float64) float64 { return v / ref })
	}
	if len(seq) > 0 {
		fmt.Fprintf(w, "sequential runs: mean QET, ms (%s's over the series', above 1 = faster):\n", r.Reference)
		r.matrix(w, head, cells, series, seq, qet, func(v, ref float64) float64 { return ref / v })
	}
}

// matrixRow is a row of Summary's matrix: one condition and template.
type matrixRow struct {
	cond     Key
	template string
	by       map[string]Correctness // by series
}

// matrix writes rows with a column per series: value's figure and cell,
// and the ratio to the reference series.
func (r *Report) matrix(w io.Writer, head []string, cells func(Key) []string, series []string, rows []*matrixRow,
	value func(Correctness) (float64, string), ratio func(v, ref float64) float64) {
	// A one-template workload says again what the template column says.
	keep := func(cols []string) []string { return cols[1:] } // without the series
	if i := slices.Index(head, "workload"); i > 0 && !slices.ContainsFunc(rows, func(rw *matrixRow) bool { return rw.cond.Workload != rw.template }) {
		keep = func(cols []string) []string { return slices.Delete(slices.Clone(cols), i, i+1)[1:] }
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	h := append(append(keep(head), "template"), series...)
	fmt.Fprintln(tw, strings.Join(h, "\t")+"\t")
	for _, rw := range rows {
		line := append(keep(cells(rw.cond)), rw.template)
		ref, hasRef := rw.by[r.Reference]
		refValue := 0.0
		if hasRef {
			refValue, _ = value(ref)
		}
		for _, s := range series {
			c, ok := rw.by[s]
			if !ok {
				line = append(line, "–")
				continue
			}
			v, cell := value(c)
			if s != r.Reference && refValue > 0 && v > 0 {
				cell += fmt.Sprintf(" (%.2f×)", ratio(v, refValue))
			}
			if c.Errors > 0 {
				cell += fmt.Sprintf(" !%d errors", c.Errors)
			}
			if c.Wrong > 0 {
				cell += fmt.Sprintf(" !%d WRONG", c.Wrong)
			}
			line = append(line, cell)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t")+"\t")
	}
	tw.Flush()
}

// longSummary is Summary's table for one series.
func (r *Report) longSummary(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head, cells := r.keyCols(true)
	fmt.Fprintln(tw, strings.Join(append(head, "template", "throughput/s", "QET p50 ms", "QET p99 ms", "errors", "wrong", ""), "\t"))
	tp, lat := r.byRow()
	for _, c := range r.Correctness {
		thr := f1(c.Throughput)
		if t, ok := tp[rowID(c.Key, c.Template)]; ok {
			thr = meanSDCell(t.Stat)
		}
		p50, p99 := "–", "–"
		if l, ok := lat[rowID(c.Key, c.Template)]; ok {
			p50, p99 = msCell(float64(l.QET.P50)), msCell(float64(l.QET.P99))
		}
		fmt.Fprintln(tw, strings.Join(append(cells(c.Key), c.Template, thr, p50, p99, itoa(c.Errors), wrongCell(c.Series, c.Wrong), ""), "\t"))
	}
	tw.Flush()
}

// byRow indexes the throughput and latency rows by key and template (rowID).
func (r *Report) byRow() (map[string]Throughput, map[string]Latency) {
	tp := map[string]Throughput{}
	for _, t := range r.Throughput {
		tp[rowID(t.Key, t.Template)] = t
	}
	lat := map[string]Latency{}
	for _, l := range r.Latency {
		lat[rowID(l.Key, l.Template)] = l
	}
	return tp, lat
}
