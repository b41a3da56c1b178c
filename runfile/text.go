package runfile

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// WriteText writes a summary for people: how the run ended, each run's
// throughput, per template the counts and latency percentiles (ms), and the
// mode's result.
func WriteText(w io.Writer, s *Summary) {
	fmt.Fprintf(w, "status: %s", s.Status)
	if s.Reason != "" {
		fmt.Fprintf(w, ": %s", s.Reason)
	}
	fmt.Fprintln(w)
	if a := s.Shards; a != nil {
		fmt.Fprintf(w, "shards: %d of %d merged, start skew %.1f ms", len(a.Merged), a.Count, float64(a.StartSkewNS)/1e6)
		if len(a.Missing) > 0 {
			fmt.Fprintf(w, "; MISSING %s", shardList(a.Missing))
		}
		for _, f := range a.Failed {
			fmt.Fprintf(w, "; FAILED %s", f)
		}
		fmt.Fprintln(w)
	}
	for _, r := range s.Runs {
		label := fmt.Sprintf("run %d", r.Run)
		if r.Step > 0 {
			label = fmt.Sprintf("step %d", r.Step)
		}
		if r.Warmup {
			label += " (warm-up, excluded)"
		}
		if s.Unchecked() {
			fmt.Fprintf(w, "  %s: %d in %.1fs = %.1f req/s, %d errors\n",
				label, r.Count, float64(r.DurationNS)/1e9, r.Throughput, r.Errors)
			continue
		}
		fmt.Fprintf(w, "  %s: %d in %.1fs = %.1f req/s, %.1f correct/s, %d errors, %d wrong\n",
			label, r.Count, float64(r.DurationNS)/1e9, r.Throughput, r.Goodput, r.Errors, r.Wrong)
	}
	if s.Unchecked() {
		fmt.Fprintf(w, "  throughput %s req/s%s; answers not checked (--check status: only HTTP 200, no GraphQL errors and data present)\n",
			spread(s.Throughput), runsNote(s.Throughput.N))
	} else {
		fmt.Fprintf(w, "  throughput %s req/s, goodput %s correct/s%s\n", spread(s.Throughput), spread(s.Goodput), runsNote(s.Throughput.N))
	}
	for _, name := range sortedKeys(s.Templates) {
		printTemplate(w, name, s.Templates[name], s.Unchecked())
	}
	if len(s.Templates) > 1 {
		printTemplate(w, "all", &s.Total, s.Unchecked())
	}
	writeErrorReasons(w, s)
	switch c := s.Capacity; {
	case c != nil && c.Invalid != "":
		fmt.Fprintf(w, "  capacity: not measured, %s; %s was met up to %.1f req/s, a lower bound (%d steps)\n", c.Invalid, s.SLO, c.AtLeast, c.Steps)
	case c != nil:
		fmt.Fprintf(w, "  capacity: %.1f req/s meets %s (%d steps; %s)\n", c.Rate, s.SLO, c.Steps, c.Limit)
	}
	if s.Ramp != nil {
		fmt.Fprintf(w, "  ramp: best %.1f req/s at %d users; stopped at %d users: %s\n", s.Ramp.MaxThroughput, s.Ramp.UsersAtMax, s.Ramp.MaxUsers, s.Ramp.Stop)
	}
	if s.SLOMet != nil {
		fmt.Fprintf(w, "  objective %s met: %v %s\n", s.SLO, *s.SLOMet, s.SLOWhy)
	}
	if s.LateIntervals > 0 {
		fmt.Fprintf(w, "  WARNING: %d interval line(s) collected more than %v late: the load generator could not keep its tick (what completed meanwhile counts in them)\n",
			s.LateIntervals, time.Duration(LateIntervalNS))
	}
	if s.LastError != "" {
		fmt.Fprintf(w, "  last error: %s\n", s.LastError)
	}
	if s.FirstWrong != "" {
		fmt.Fprintf(w, "  first wrong answer: %s\n", s.FirstWrong)
	}
	if s.Failures != "" {
		fmt.Fprintf(w, "  the first wrong answers of each label, with their differences: %s\n", s.Failures)
	}
	if st := s.Statements; st != nil {
		fmt.Fprintf(w, "  database: %.2f SQL statements per request (%d statements, %d requests, %d intervals counted",
			st.PerRequest, st.Total, st.Requests, st.Intervals)
		if st.Missing > 0 {
			fmt.Fprintf(w, ", %d without a count", st.Missing)
		}
		fmt.Fprintln(w, ")")
	}
	if p := s.Paired; p != nil {
		writePaired(w, p)
	}
	writeLayers(w, s)
	if s.APQMisses > 0 {
		fmt.Fprintf(w, "  persisted-query misses (the full query sent after the hash): %d\n", s.APQMisses)
	}
	if s.ConnectsPerRequest >= 0.01 {
		fmt.Fprintf(w, "  connects: %d, %.2f per request (a connect made for a request counts in its time: the server's cost)\n",
			s.Connects, s.ConnectsPerRequest)
	}
	writeVerdict(w, s)
}

// writeVerdict writes what the run says of itself: whether the load
// generator was the bottleneck, the share of sends on time (open loop,
// capacity), how much the measured runs' throughput varied, and --runs
// auto's account.
func writeVerdict(w io.Writer, s *Summary) {
	parts := []string{"the load generator was not the bottleneck"}
	if s.DriverLimit {
		parts[0] = "the load generator was the bottleneck (the warning below says how it knows)"
	}
	if s.OnTime != nil {
		parts = append(parts, fmt.Sprintf("%.1f%% of sends on time", 100**s.OnTime))
	}
	if s.CV != nil {
		p := fmt.Sprintf("run-to-run CV %.1f%%", 100**s.CV)
		if *s.CV > NoisyCV {
			p += fmt.Sprintf(" (above %.0f%%: noisy)", 100*NoisyCV)
		}
		parts = append(parts, p)
	}
	fmt.Fprintf(w, "  verdict: %s\n", strings.Join(parts, "; "))
	if a := s.RunsAuto; a != nil {
		hw, met := "unknown", "not met"
		if a.HalfWidth != nil {
			hw = fmt.Sprintf("±%.1f%%", 100**a.HalfWidth)
		}
		if a.Met {
			met = "met"
		} else if a.Runs+1 >= a.MaxRuns {
			met = fmt.Sprintf("not met in %d runs (--max-runs)", a.MaxRuns)
		}
		fmt.Fprintf(w, "  runs auto: %d measured runs, 95%% CI of the mean %s (target ±%.1f%%): %s\n", a.Runs, hw, 100*a.Target, met)
	}
	if s.DriverLimit {
		fmt.Fprintf(w, "  WARNING: the load generator, not the server, was the bottleneck: %s\n", s.DriverWhy)
	}
}

// spread is a mean with its run-to-run spread, "109.5 ± 3.2", or the mean
// alone when fewer than two runs have no spread to show; runsNote says
// over how many runs.
func spread(m MeanSD) string {
	if m.N < 2 {
		return fmt.Sprintf("%.1f", m.Mean)
	}
	return fmt.Sprintf("%.1f ± %.1f", m.Mean, m.SD)
}

func runsNote(n int) string {
	if n < 2 {
		return fmt.Sprintf(" (%d measured run: spread n/a)", n)
	}
	return fmt.Sprintf(" over %d runs", n)
}

// writeErrorReasons says what the errors were: per kind, status and reason
// their count, and the start of one answer's body when there was one.
func writeErrorReasons(w io.Writer, s *Summary) {
	if len(s.ErrorReasons) == 0 {
		return
	}
	fmt.Fprintf(w, "  errors by kind and reason (%d errors in %d requests):\n", s.Total.Errors, s.Total.Count)
	for _, r := range s.ErrorReasons {
		fmt.Fprintf(w, "    %d × %s", r.Count, r.String())
		if r.Sample != "" {
			fmt.Fprintf(w, "; body %q", r.Sample)
		}
		fmt.Fprintln(w)
	}
}

func printTemplate(w io.Writer, name string, t *TemplateSummary, unchecked bool) {
	ms := func(ns int64) string { return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64) }
	if unchecked {
		fmt.Fprintf(w, "  %-5s n=%d ok=%d errors=%d", name, t.Count, t.OK, t.Errors)
	} else {
		fmt.Fprintf(w, "  %-5s n=%d ok=%d errors=%d wrong=%d verified=%d", name, t.Count, t.OK, t.Errors, t.Wrong, t.Verified)
	}
	fmt.Fprintf(w, "  QET ms p50 %s p90 %s p99 %s max %s  QRT p50 %s",
		ms(t.QET.P50), ms(t.QET.P90), ms(t.QET.P99), ms(t.QET.Max), ms(t.QRT.P50))
	if t.Latency != nil {
		fmt.Fprintf(w, "  corrected p50 %s p99 %s max %s  late %d dropped %d", ms(t.Latency.P50), ms(t.Latency.P99), ms(t.Latency.Max), t.Late, t.Dropped)
	}
	if t.Calls > 0 && t.Count > 0 {
		n := float64(t.Count)
		fmt.Fprintf(w, "  per task: %.2f calls, %.0f bytes sent, %.0f received", float64(t.Calls)/n, float64(t.SentBytes)/n, float64(t.RecvBytes)/n)
	}
	fmt.Fprintln(w)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// template names sort by number: QT2 before QT10
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && lessName(keys[j], keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func lessName(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// writePaired writes a paired run's pairs: per label the mean QET of both
// APIs, their mean difference ± its sd, and the paired t statistic (the
// report gives its p-value).
func writePaired(w io.Writer, p *Paired) {
	fmt.Fprintf(w, "  pairs (%s − %s, QET of the pairs both right; groups of %d):\n", p.APIs[0], p.APIs[1], p.Group)
	line := func(name string, s *PairStats) {
		fmt.Fprintf(w, "    %-5s %d pairs (%d broken): %s %.3f ms, %s %.3f ms, difference %.3f ± %.3f ms",
			name, s.N, s.Broken, p.APIs[0], s.AMean/1e6, p.APIs[1], s.BMean/1e6, s.DMean/1e6, s.DSD/1e6)
		if s.N > 1 && s.DSD > 0 {
			fmt.Fprintf(w, ", t = %.2f (df %d)", s.DMean/(s.DSD/math.Sqrt(float64(s.N))), s.N-1)
		}
		fmt.Fprintf(w, ", %d groups\n", len(s.Groups))
	}
	for _, name := range sortedKeys(p.Labels) {
		line(name, p.Labels[name])
	}
	if len(p.Labels) > 1 {
		line("all", &p.Total)
	}
}
