package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// headline answers the question the runs asked, in a sentence or two:
// which series is fastest where and by how much (or, with one series, how
// fast it is). With baseline runs it says first whether anything
// regressed. Caveats says how far to trust it.
func (r *Report) headline() []string {
	var out []string
	if len(r.Baseline) > 0 {
		out = append(out, r.baselineSentence())
	}
	if ms := r.comparing(); len(ms) > 0 {
		out = append(out, r.winnersSentence(ms))
		if s := r.overallSentence(ms); s != "" {
			out = append(out, s)
		}
	} else {
		out = append(out, r.soloSentences()...)
	}
	return out
}

// cellName names a matrix row for the headline: its label, with the
// conditions when the report compares under several.
func (r *Report) cellName(m matrix, row matrixLine, several bool) string {
	if several {
		return row.label + " (" + condLabel(m.cond) + ")"
	}
	return row.label
}

// rowsNoun names what the rows of the matrices are.
func rowsNoun(ms []matrix, n int) string {
	mixed := false
	for _, m := range ms {
		for _, row := range m.rows {
			mixed = mixed || row.mixed
		}
	}
	noun := "templates"
	if mixed {
		noun = "templates and mixed workloads"
	}
	if len(ms) > 1 {
		noun += fmt.Sprintf(" under %d conditions", len(ms))
	}
	if n == 1 {
		noun = strings.Replace(noun, "templates", "template", 1)
	}
	return noun
}

// winnersSentence says which series is the fastest on how many rows, and by
// how much: its median speed-up over the reference on those rows (over the
// runner-up when it is the reference itself). A series wins a row only
// when it is significantly faster than the runner-up (Welch's t-test);
// elsewhere there is no clear winner, and the sentence says so.
func (r *Report) winnersSentence(ms []matrix) string {
	wins := map[string][]string{}
	ratios := map[string][]float64{}
	total := 0
	several := len(ms) > 1
	var unclear []string
	var lastUnclear struct {
		m   matrix
		row matrixLine
	}
	for _, m := range ms {
		for _, row := range m.rows {
			if row.best < 0 {
				continue
			}
			total++
			if !row.clear {
				unclear = append(unclear, r.cellName(m, row, several))
				lastUnclear.m, lastUnclear.row = m, row
				continue
			}
			s, best := m.series[row.best], row.cells[row.best]
			wins[s] = append(wins[s], r.cellName(m, row, several))
			switch {
			case s != m.reference && best.speedup > 0:
				ratios[s] = append(ratios[s], best.speedup)
			case s == m.reference && row.runnerUp >= 0:
				ratios[s] = append(ratios[s], speedup(m, best.stat.Mean, row.cells[row.runnerUp].stat.Mean))
			}
		}
	}
	if total == 0 {
		return "No series returned correct answers to compare."
	}
	if len(unclear) == total {
		return noWinnerSentence(unclear, lastUnclear.m, lastUnclear.row, ms)
	}
	winners := r.seriesOf(func(s string) bool { return len(wins[s]) > 0 })
	slices.SortStableFunc(winners, func(a, b string) int { return len(wins[b]) - len(wins[a]) })
	var parts []string
	for i, s := range winners {
		if i == 3 && len(winners) > 4 {
			rest := 0
			for _, o := range winners[3:] {
				rest += len(wins[o])
			}
			parts = append(parts, fmt.Sprintf("%d others on %d", len(winners)-3, rest))
			break
		}
		parts = append(parts, r.winPhrase(s, i, wins[s], ratios[s], total, ms, i == len(winners)-1 && i > 0 && len(unclear) == 0))
	}
	if len(unclear) > 0 {
		parts = append(parts, "no clear winner on "+unclearWhere(unclear, total, ms)+
			" (the fastest is not significantly faster than the runner-up: Welch's t-test, α = 0.05)")
	}
	return joinClauses(parts) + "."
}

// unclearWhere names the rows without a clear winner.
func unclearWhere(unclear []string, total int, ms []matrix) string {
	if len(unclear) <= 4 {
		return joinAnd(unclear)
	}
	return fmt.Sprintf("%d of the %d %s (%s)", len(unclear), total, rowsNoun(ms, total), listSome(unclear, 3))
}

// noWinnerSentence says that no row has a clear winner, and why: too few
// runs for a test, or differences within the runs' noise. With one row it
// gives the fastest's lead and the test's p.
func noWinnerSentence(unclear []string, m matrix, row matrixLine, ms []matrix) string {
	why := "the fastest is not significantly faster than the runner-up (Welch's t-test, α = 0.05)"
	if !row.test.Valid {
		why = "each figure rests on one measured run, too few for a test"
	}
	if len(unclear) > 1 {
		return fmt.Sprintf("No clear winner on any of the %d %s: %s.", len(unclear), rowsNoun(ms, len(unclear)), why)
	}
	b, u := row.cells[row.best], row.cells[row.runnerUp]
	lead := fmt.Sprintf("%s is ahead of %s by %s", m.series[row.best], m.series[row.runnerUp], timesCell(speedup(m, b.stat.Mean, u.stat.Mean)))
	if row.test.Valid {
		why = fmt.Sprintf("not a significant difference (Welch's t-test, p %s, α = 0.05)", pCell(row.test.P))
		if b.noisy || u.noisy {
			why += fmt.Sprintf("; the runs disagree by up to %s (CV)", pctCell(100*max(b.stat.CV, u.stat.CV)))
		}
	}
	return fmt.Sprintf("No clear winner on %s: %s, %s.", unclear[0], lead, why)
}

// winPhrase is one winner's clause of the winners sentence. When every
// matrix compares the same two series, the clause says "faster than".
func (r *Report) winPhrase(s string, i int, wins []string, ratios []float64, total int, ms []matrix, last bool) string {
	var where string
	switch {
	case total == 1:
		where = "on " + wins[0]
	case len(wins) == total:
		where = fmt.Sprintf("on all %d %s", total, rowsNoun(ms, total))
	case len(wins) <= 3:
		where = "on " + joinAnd(wins)
	case last:
		where = fmt.Sprintf("on the other %d", len(wins))
	case i == 0:
		where = fmt.Sprintf("on %d of %d %s", len(wins), total, rowsNoun(ms, total))
	default:
		where = fmt.Sprintf("on %d", len(wins))
	}
	ref, other := ms[0].reference, pairOther(ms, s)
	who := s
	if i == 0 {
		who += " is the fastest"
		if other != "" {
			who = s + " is faster than " + other
		}
	}
	by := ""
	switch {
	case len(ratios) == 0:
	case s != ref:
		by = fmt.Sprintf(", %s %s", ratioWord(median(ratios), len(ratios)), ref)
	case other != "":
		by = fmt.Sprintf(", by %s", ratioWord(median(ratios), len(ratios)))
	default:
		by = fmt.Sprintf(", ahead of the runner-up by %s", ratioWord(median(ratios), len(ratios)))
	}
	return who + " " + where + by
}

// pairOther is the other series when every matrix compares the same two
// series, one of them s; else "".
func pairOther(ms []matrix, s string) string {
	other := ""
	for _, m := range ms {
		if len(m.series) != 2 || !slices.Contains(m.series, s) {
			return ""
		}
		o := m.series[0]
		if o == s {
			o = m.series[1]
		}
		if other != "" && o != other {
			return ""
		}
		other = o
	}
	return other
}

// ratioWord is "1.99×", or "a median 1.99×" over several rows.
func ratioWord(x float64, n int) string {
	if n > 1 {
		return "a median " + timesCell(x)
	}
	return timesCell(x)
}

// speedup is how much faster figure a is than b in the matrix's metric.
func speedup(m matrix, a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if m.metric == metricQET {
		return b / a
	}
	return a / b
}

// overallSentence ranks every series by the geometric mean of its
// speed-ups over the reference across the rows both ran.
func (r *Report) overallSentence(ms []matrix) string {
	logs := map[string][]float64{}
	rows := 0
	for _, m := range ms {
		for _, row := range m.rows {
			rows++
			for i, c := range row.cells {
				if c.speedup > 0 && m.series[i] != m.reference {
					logs[m.series[i]] = append(logs[m.series[i]], math.Log(c.speedup))
				}
			}
		}
	}
	if rows < 2 {
		return ""
	}
	type entry struct {
		name string
		gm   float64
	}
	var es []entry
	for _, s := range r.seriesOf(func(s string) bool { return len(logs[s]) > 0 }) {
		var sum float64
		for _, l := range logs[s] {
			sum += l
		}
		name := s
		if r.flagged(s) {
			name += " (wrong answers)"
		}
		es = append(es, entry{name, math.Exp(sum / float64(len(logs[s])))})
	}
	if len(es) == 0 {
		return ""
	}
	slices.SortStableFunc(es, func(a, b entry) int { return cmpFloat(b.gm, a.gm) })
	var parts []string
	for _, e := range es {
		parts = append(parts, e.name+" "+timesCell(e.gm))
	}
	return fmt.Sprintf("Over all %d %s, the geometric mean speed-up over %s: %s.", rows, rowsNoun(ms, rows), ms[0].reference, strings.Join(parts, ", "))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// soloSentences describe one series' figures, per condition, when nothing
// is compared.
func (r *Report) soloSentences() []string {
	var out []string
	for i, m := range r.matrices {
		if i == 3 {
			out = append(out, fmt.Sprintf("And %d more conditions: see the tables.", len(r.matrices)-3))
			break
		}
		where := ""
		if len(r.matrices) > 1 {
			where = " (" + condLabel(m.cond) + ")"
		}
		unit, fm := " queries/s", rateCell
		if m.metric == metricQET {
			unit, fm = " ms mean QET", msWord
		}
		if len(m.rows) == 1 {
			c := m.rows[0].cells[0]
			out = append(out, fmt.Sprintf("%s%s: %s%s on %s (%s).", m.series[0], where, fm(c.stat.Mean), unit, m.rows[0].label, runsWord(c.stat, fm)))
			continue
		}
		lo, hi := 0, 0
		var xs []float64
		for k, row := range m.rows {
			xs = append(xs, row.cells[0].stat.Mean)
			if row.cells[0].stat.Mean < m.rows[lo].cells[0].stat.Mean {
				lo = k
			}
			if row.cells[0].stat.Mean > m.rows[hi].cells[0].stat.Mean {
				hi = k
			}
		}
		out = append(out, fmt.Sprintf("%s%s over %d %s: a median of %s%s, from %s on %s to %s on %s.", m.series[0], where, len(m.rows),
			rowsNoun([]matrix{m}, len(m.rows)), fm(median(xs)), unit, fm(m.rows[lo].cells[0].stat.Mean), m.rows[lo].label,
			fm(m.rows[hi].cells[0].stat.Mean), m.rows[hi].label))
	}
	return out
}

// runsWord says how many runs a figure rests on, with its 95 % CI.
func runsWord(s Stat, fm func(float64) string) string {
	switch {
	case s.N < 2:
		return "one measured run"
	case !s.HasCI:
		return fmt.Sprintf("mean of %d measured runs, too few for a confidence interval", s.N)
	}
	return fmt.Sprintf("mean of %d measured runs, 95 %% CI %s–%s", s.N, fm(s.CILow), fm(s.CIHigh))
}

// caveats say how far the headline can be trusted: runs too few or too
// short for a test, figures the load generator limited, noisy rows; and
// where the series left out of the comparison stand. (Rows without a
// clear winner are the headline's own.)
func (r *Report) caveats() []string {
	var out []string
	ms := r.comparing()
	single, tested, unclear := 0, 0, 0
	for _, m := range ms {
		for _, row := range m.rows {
			if row.best < 0 || row.runnerUp < 0 {
				continue
			}
			if !row.test.Valid {
				single++
				continue
			}
			tested++
			if !row.clear {
				unclear++
			}
		}
	}
	switch {
	case single > 0 && tested == 0:
		out = append(out, fmt.Sprintf("Each figure is one measured run%s: with no confidence interval, small differences are not a verdict (more runs give one: --runs 3 or more).", r.runLength()))
	case unclear > 0:
	case tested > 0:
		out = append(out, "Every winner is significantly faster than the runner-up (Welch's t-test, α = 0.05).")
	}
	if single > 0 && tested > 0 {
		out = append(out, fmt.Sprintf("%d of the rows rest on one measured run: no test there.", single))
	}
	if s := r.limitedSentence(); s != "" {
		out = append(out, s)
	}
	if s := r.noisySentence(ms); s != "" {
		out = append(out, s)
	}
	return append(out, r.apartSentences()...)
}

// noisySentence counts the figures whose runs disagree.
func (r *Report) noisySentence(ms []matrix) string {
	noisy, cells := 0, 0
	for _, m := range ms {
		for _, row := range m.rows {
			for _, c := range row.cells {
				if c.ok {
					cells++
				}
				if c.noisy {
					noisy++
				}
			}
		}
	}
	if noisy == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d figures are noisy: their runs disagree by more than %s (CV, marked %s in the tables).",
		noisy, cells, pctCell(100*runfile.NoisyCV), strings.TrimSpace(noisyMark))
}

// runLength is " of 500ms" when every compared run file ran its runs for
// the same duration.
func (r *Report) runLength() string {
	d := map[int64]bool{}
	for _, ri := range r.Runs {
		if !r.apart(ri.Key.Series) && ri.Params.DurationNS > 0 {
			d[ri.Params.DurationNS] = true
		}
	}
	if len(d) != 1 {
		return ""
	}
	for ns := range d {
		return " of " + time.Duration(ns).String()
	}
	return ""
}

// limitedSentence says where the load generator, not the server, was the
// limit: those throughputs are lower bounds.
func (r *Report) limitedSentence() string {
	var where []string
	count := map[string]int{}
	files := 0
	for _, ri := range r.Runs {
		if ri.DriverWhy == "" {
			continue
		}
		files++
		w := ri.Key.Workload
		if count[w] == 0 {
			where = append(where, w)
		}
		count[w]++
	}
	if files == 0 {
		return ""
	}
	for i, w := range where {
		where[i] = fmt.Sprintf("%s (%d)", w, count[w])
	}
	return fmt.Sprintf("The load generator, not the server, was the limit in %d run file(s), on %s: their throughputs are lower bounds.",
		files, listSome(where, 5))
}

// apartSentences place the series that are not compared: the load
// generator's ceiling, and series that ran under conditions of their own.
func (r *Report) apartSentences() []string {
	var out []string
	for _, s := range r.Series {
		if !s.Apart {
			continue
		}
		var figs []string
		for _, t := range append(nonMixed(r.Throughput), r.Workloads...) {
			if t.Series == s.Name {
				figs = append(figs, fmt.Sprintf("%s queries/s on %s", rateCell(t.Mean), rowLabel(t)))
			}
		}
		what := "ran under conditions no other series ran"
		if s.Ceiling {
			what = "measures the load generator's ceiling"
		}
		line := s.Name + " " + what
		if len(figs) > 0 {
			line += ": " + listSome(figs, 3)
		}
		if s.Ceiling && r.ceilingDrawn() {
			line += " (the dashed line in the throughput charts)"
		}
		out = append(out, line+".")
	}
	return out
}

// ceilingFor returns the load generator's ceiling measured under the
// mode and clients of cond, if any: a reference line in its charts.
func (r *Report) ceilingFor(cond Key) (Throughput, bool) {
	for _, t := range nonMixed(r.Throughput) {
		if r.ceiling(t.Series) && t.Mode == cond.Mode && t.Clients == cond.Clients && t.Mean > 0 {
			return t, true
		}
	}
	return Throughput{}, false
}

// ceilingDrawn reports whether a ceiling is drawn in some throughput chart.
func (r *Report) ceilingDrawn() bool {
	for _, m := range r.matrices {
		if _, ok := r.ceilingFor(m.cond); ok && m.metric == metricThroughput {
			return true
		}
	}
	return false
}

// baselineSentence says whether anything regressed against the baseline.
func (r *Report) baselineSentence() string {
	if len(r.Regressions) == 0 {
		return "No baseline run has the same series and conditions as a run here: nothing was compared with the baseline."
	}
	var drops []string
	worst := r.Regressions[0]
	for _, g := range r.Regressions {
		if g.ChangePct < worst.ChangePct {
			worst = g
		}
		if g.ChangePct < 0 && g.Test.Significant {
			drops = append(drops, fmt.Sprintf("%s %s %s (p %s)", g.Series, orDash(g.Template), signedPct(g.ChangePct), pCell(g.Test.P)))
		}
	}
	if len(drops) > 0 {
		return fmt.Sprintf("Against the baseline, %d of %d throughputs dropped significantly: %s.", len(drops), len(r.Regressions), listSome(drops, 4))
	}
	return fmt.Sprintf("Against the baseline, no throughput dropped significantly (%d compared; the largest change %s, %s %s).",
		len(r.Regressions), signedPct(worst.ChangePct), worst.Series, orDash(worst.Template))
}

// verdict is correctness in one line: run files, answers verified, wrong
// answers and errors (every request, warm-up included), and who got them.
func (r *Report) verdict() string {
	var verified, wrong, errs int64
	var who, erred []string
	for _, s := range r.Series {
		verified += s.Verified
		wrong += s.Wrong
		errs += s.Errors
		if s.Wrong > 0 {
			who = append(who, fmt.Sprintf("%s %s", s.Name, countCell(s.Wrong)))
		}
		if s.Errors > 0 {
			erred = append(erred, fmt.Sprintf("%s %s", s.Name, countCell(s.Errors)))
		}
	}
	wrongPart, errPart := countCell(wrong)+" wrong", countCell(errs)+" errors"
	if len(who) > 0 {
		wrongPart += " (" + strings.Join(who, ", ") + ")"
	}
	if len(erred) > 0 {
		errPart += " (" + strings.Join(erred, ", ") + ")"
	}
	v := fmt.Sprintf("%d run files, %s answers verified, %s, %s", len(r.Runs), countCell(verified), wrongPart, errPart)
	v += "."
	if s := r.checksSentence(); s != "" {
		v += " " + s
	}
	return v
}
