package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Summary writes a compact plain-text table for a terminal: per series,
// conditions and template, throughput (mean ± sd over the measured runs),
// QET p50 and p99, errors and wrong answers; then flagged series and
// significant regressions.
func (r *Report) Summary(w io.Writer) {
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
