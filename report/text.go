package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Summary writes a compact plain-text table for a terminal, then flagged
// series and significant regressions. With several series it is a matrix:
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
	for _, g := range r.Regressions {
		if g.ChangePct < 0 && g.Test.Significant {
			fmt.Fprintf(w, "regression: %s %s %s: %s (p %s)\n", g.Series, condLabel(g.Key.cond()), orDash(g.Template), signedPct(g.ChangePct), pCell(g.Test.P))
		}
	}
	fmt.Fprintf(w, "%d run file(s), %d series; warm-up runs excluded from throughput and latency.\n", len(r.Runs), len(r.Series))
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
	tp := map[string]Throughput{}
	for _, t := range r.Throughput {
		tp[rowID(t.Key, t.Template)] = t
	}
	type row struct {
		cond     Key
		template string
		by       map[string]Correctness
	}
	var rows []*row
	index := map[string]*row{}
	for _, c := range r.Correctness {
		id := rowID(c.Key.cond(), c.Template)
		rw := index[id]
		if rw == nil {
			rw = &row{cond: c.Key.cond(), template: c.Template, by: map[string]Correctness{}}
			index[id] = rw
			rows = append(rows, rw)
		}
		rw.by[c.Series] = c
	}
	mean := func(c Correctness) (float64, string) {
		if t, ok := tp[rowID(c.Key, c.Template)]; ok {
			return t.Mean, meanSDCell(t.Stat)
		}
		return c.Throughput, f1(c.Throughput)
	}
	// A one-template workload says again what the template column says.
	keep := func(cols []string) []string { return cols[1:] } // without the series
	if i := slices.Index(head, "workload"); i > 0 && !slices.ContainsFunc(rows, func(rw *row) bool { return rw.cond.Workload != rw.template }) {
		keep = func(cols []string) []string { return slices.Delete(slices.Clone(cols), i, i+1)[1:] }
	}
	fmt.Fprintf(w, "throughput/s, mean ± sd over the measured runs (ratio to %s):\n", r.Reference)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	h := append(append(keep(head), "template"), series...)
	fmt.Fprintln(tw, strings.Join(h, "\t")+"\t")
	for _, rw := range rows {
		line := append(keep(cells(rw.cond)), rw.template)
		ref, hasRef := rw.by[r.Reference]
		refMean := 0.0
		if hasRef {
			refMean, _ = mean(ref)
		}
		for _, s := range series {
			c, ok := rw.by[s]
			if !ok {
				line = append(line, "–")
				continue
			}
			m, cell := mean(c)
			if s != r.Reference && hasRef && refMean > 0 {
				cell += fmt.Sprintf(" (%.2f×)", m/refMean)
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
	tp := map[string]Throughput{}
	for _, t := range r.Throughput {
		tp[rowID(t.Key, t.Template)] = t
	}
	lat := map[string]Latency{}
	for _, l := range r.Latency {
		lat[rowID(l.Key, l.Template)] = l
	}
	for _, c := range r.Correctness {
		thr := f1(c.Throughput)
		if t, ok := tp[rowID(c.Key, c.Template)]; ok {
			thr = meanSDCell(t.Stat)
		}
		p50, p99 := "–", "–"
		if l, ok := lat[rowID(c.Key, c.Template)]; ok {
			p50, p99 = msCell(float64(l.QET.P50)), msCell(float64(l.QET.P99))
		}
		fmt.Fprintln(tw, strings.Join(append(cells(c.Key), c.Template, thr, p50, p99, itoa(c.Errors), itoa(c.Wrong), ""), "\t"))
	}
	tw.Flush()
}
