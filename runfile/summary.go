package runfile

import (
	"fmt"
	"math"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/measure"
)

// Summarizer adds up intervals into a Summary: throughput per run within
// each run's window, and per template the counters and merged histograms of
// the non-warm-up runs. It merges the intervals' encoded histograms bucket
// by bucket into one counts array per template and kind, so its memory does
// not grow with the number of intervals.
type Summarizer struct {
	runs      map[runKey]*runAcc
	order     []runKey
	templates map[string]*tAcc
	total     tAcc
	scheduled bool // a measured interval had an offered rate: sends had intended times
	late      int  // intervals collected late
	stmts     Statements
	measured  int // measured intervals with requests
	pairs     pairAcc
	reasons   []ErrorReason // the measured intervals' errors by reason
}

type runKey struct{ run, step int }

type runAcc struct {
	warmup                   bool
	windowNS                 int64
	count, ok, errors, wrong int64
}

type tAcc struct {
	c                  TemplateInterval
	windowCount, winOK int64
	qet, qrt, latency  []int64 // counts arrays, nil until a value
}

// NewSummarizer returns an empty Summarizer.
func NewSummarizer() *Summarizer {
	return &Summarizer{runs: map[runKey]*runAcc{}, templates: map[string]*tAcc{}}
}

// Add adds one interval; it fails only on a corrupt histogram.
func (s *Summarizer) Add(iv *Interval) error {
	k := runKey{iv.Run, iv.Step}
	r := s.runs[k]
	if r == nil {
		r = &runAcc{warmup: iv.Warmup}
		s.runs[k] = r
		s.order = append(s.order, k)
	}
	if !iv.Tail && iv.EndNS > r.windowNS {
		r.windowNS = iv.EndNS
	}
	if iv.CollectedLateNS > 0 {
		s.late++
	}
	if !iv.Warmup && iv.Rate > 0 {
		s.scheduled = true
	}
	if !iv.Warmup {
		s.addStatements(iv)
		s.reasons = AddErrorReasons(s.reasons, iv.ErrorReasons)
	}
	s.pairs.add(iv)
	for name, t := range iv.Templates {
		r.count += t.Count - t.Overrun
		r.ok += t.OK - t.OverrunOK
		r.errors += t.Errors - t.OverrunErrors // within the window, as count
		r.wrong += t.Wrong
		if iv.Warmup {
			continue
		}
		a := s.templates[name]
		if a == nil {
			a = &tAcc{}
			s.templates[name] = a
		}
		for _, a := range []*tAcc{a, &s.total} {
			if err := a.add(t); err != nil {
				return fmt.Errorf("interval %d of run %d, %s: %w", iv.Index, iv.Run, name, err)
			}
		}
	}
	return nil
}

// addStatements counts a measured interval's database statements with the
// requests completed in it.
func (s *Summarizer) addStatements(iv *Interval) {
	var n int64
	for _, t := range iv.Templates {
		n += t.Count
	}
	if n == 0 && iv.DBStatements == nil {
		return
	}
	s.measured++
	if iv.DBStatements != nil {
		s.stmts.Total += *iv.DBStatements
		s.stmts.Requests += n
		s.stmts.Intervals++
	}
}

func (a *tAcc) add(t *TemplateInterval) error {
	c := &a.c
	c.AddCounts(t)
	a.windowCount += t.Count - t.Overrun
	a.winOK += t.OK - t.OverrunOK
	for _, h := range []struct {
		dst *[]int64
		s   string
		mem *measure.Hist
	}{{&a.qet, t.QET, t.QETHist}, {&a.qrt, t.QRT, t.QRTHist}, {&a.latency, t.Latency, t.LatencyHist}} {
		// the writer's interval holds the counts it encoded: added as they
		// are, not decoded again
		var err error
		if h.mem != nil {
			err = addHistCounts(h.dst, h.mem)
		} else {
			err = mergeCounts(h.dst, h.s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// mergeCounts adds the encoded histogram s into *dst, allocated on first use.
func mergeCounts(dst *[]int64, s string) error {
	if s == "" {
		return nil
	}
	if *dst == nil {
		*dst = make([]int64, countsLen)
	}
	return addCounts(*dst, s)
}

// histFrom returns a histogram of a copy of counts (nil for nil).
func histFrom(counts []int64) *hdrhistogram.Histogram {
	if counts == nil {
		return nil
	}
	return histOf(slices.Clone(counts))
}

// Summary returns the totals so far, the on-time share of scheduled sends
// and the measured runs' CV. Status, Reason, End, Elapsed and the mode's
// results (SLO, Capacity, Ramp, RunsAuto) are the caller's to fill.
func (s *Summarizer) Summary() *Summary {
	out := &Summary{Type: TypeSummary, Templates: map[string]*TemplateSummary{}, LateIntervals: s.late}
	var tp, gp []float64
	var windowNS int64
	steps := false
	for _, k := range s.order {
		r := s.runs[k]
		rs := r.summary(k)
		out.Runs = append(out.Runs, rs)
		steps = steps || k.step > 0
		if !r.warmup {
			tp, gp = append(tp, rs.Throughput), append(gp, rs.Goodput)
			windowNS += r.windowNS
		}
	}
	out.Throughput, out.Goodput = meanSD(tp), meanSD(gp)
	for name, a := range s.templates {
		out.Templates[name] = a.summary(windowNS)
	}
	out.Total = *s.total.summary(windowNS)
	out.Paired = s.pairs.summary()
	out.ErrorReasons = slices.Clone(s.reasons)
	if st := s.stmts; st.Intervals > 0 {
		st.Missing = s.measured - st.Intervals
		if st.Requests > 0 {
			st.PerRequest = float64(st.Total) / float64(st.Requests)
		}
		out.Statements = &st
	}
	if s.scheduled {
		t := &out.Total
		if sends := t.Count + t.Dropped; sends > 0 {
			on := float64(t.Count-t.Late) / float64(sends)
			out.OnTime = &on
		}
	}
	// (a capacity search's steps run at different rates: their spread is
	// the search's, not noise)
	if cv, ok := CV(out.Throughput); ok && !steps {
		out.CV = &cv
	}
	return out
}

func (r *runAcc) summary(k runKey) RunSummary {
	rs := RunSummary{Run: k.run, Step: k.step, Warmup: r.warmup, DurationNS: r.windowNS,
		Count: r.count, OK: r.ok, Errors: r.errors, Wrong: r.wrong}
	if r.windowNS > 0 {
		sec := float64(r.windowNS) / 1e9
		rs.Throughput, rs.Goodput = float64(r.count)/sec, float64(r.ok)/sec
	}
	return rs
}

// Throughput returns the mean and sample standard deviation of the
// measured runs' throughput so far, without the rest of a Summary: what
// --runs auto decides on after each run.
func (s *Summarizer) Throughput() MeanSD {
	var tp []float64
	for _, k := range s.order {
		if r := s.runs[k]; !r.warmup {
			tp = append(tp, r.summary(k).Throughput)
		}
	}
	return meanSD(tp)
}

func (a *tAcc) summary(windowNS int64) *TemplateSummary {
	c := &a.c
	ts := &TemplateSummary{Count: c.Count, OK: c.OK, Errors: c.Errors, Wrong: c.Wrong, Verified: c.Verified,
		Late: c.Late, DriverLate: c.DriverLate, Dropped: c.Dropped, Overrun: c.Overrun,
		SentBytes: c.SentBytes, RecvBytes: c.RecvBytes, ErrorKinds: c.ErrorKinds,
		QET: distOfCounts(a.qet), QRT: distOfCounts(a.qrt)}
	if calls := c.CallCount(); calls != c.Count {
		ts.Calls = calls
	}
	if windowNS > 0 {
		sec := float64(windowNS) / 1e9
		ts.Throughput, ts.Goodput = float64(a.windowCount)/sec, float64(a.winOK)/sec
	}
	if a.latency != nil {
		d := distOfCounts(a.latency)
		ts.Latency = &d
	}
	return ts
}

// Hists returns the merged non-warm-up histograms of every template
// together: QET, QRT and the corrected latency (nil when not recorded).
func (s *Summarizer) Hists() (qet, qrt, latency *hdrhistogram.Histogram) {
	return histFrom(s.total.qet), histFrom(s.total.qrt), histFrom(s.total.latency)
}

// DistOf summarises h (a zero Dist for nil or empty).
func DistOf(h *hdrhistogram.Histogram) Dist {
	if h == nil || h.TotalCount() == 0 {
		return Dist{}
	}
	return Dist{N: h.TotalCount(), Min: h.Min(), Mean: h.Mean(), SD: h.StdDev(),
		P50: h.ValueAtQuantile(50), P90: h.ValueAtQuantile(90), P99: h.ValueAtQuantile(99),
		P999: h.ValueAtQuantile(99.9), Max: h.Max()}
}

// distOfCounts is DistOf of the histogram with these counts (countsLen
// of them, or none), to the last bit, in two passes over them where
// HdrHistogram's methods make nine (Min, Mean, StdDev with its own Mean,
// four quantiles, Max), each working out every index's equivalent values
// — the end of every run's summary.
func distOfCounts(counts []int64) Dist {
	var n int64
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return Dist{}
	}
	d := Dist{N: n, Min: -1}
	quantiles := [...]struct {
		p   float64
		dst *int64
	}{{50, &d.P50}, {90, &d.P90}, {99, &d.P99}, {99.9, &d.P999}}
	var at [len(quantiles)]int64 // the count each quantile is reached at, as HdrHistogram works it out
	for k, q := range quantiles {
		at[k] = int64(q.p/100*float64(n) + 0.5)
		if at[k] == 0 { // reached before any index: HdrHistogram's value 0
			*q.dst = 0
		}
	}
	var sum, seen int64
	next := 0
	for next < len(at) && at[next] == 0 {
		next++
	}
	for i, c := range counts {
		if c == 0 {
			continue
		}
		lo, size := measure.ValueAt(i), measure.RangeAt(i)
		if d.Min < 0 {
			d.Min = lo
		}
		d.Max = lo + size - 1
		sum += c * (lo + size>>1) // the median equivalent value, as HdrHistogram's Mean
		seen += c
		for next < len(at) && seen >= at[next] {
			*quantiles[next].dst = lo + size - 1 // the highest equivalent value
			next++
		}
	}
	d.Mean = float64(sum) / float64(n)
	var dev2 float64
	for i, c := range counts {
		if c == 0 {
			continue
		}
		dev := float64(measure.ValueAt(i)+measure.RangeAt(i)>>1) - d.Mean
		dev2 += (dev * dev) * float64(c)
	}
	d.SD = math.Sqrt(dev2 / float64(n))
	return d
}

// meanSD returns the mean and sample standard deviation of xs.
func meanSD(xs []float64) MeanSD {
	m := MeanSD{N: len(xs)}
	if len(xs) == 0 {
		return m
	}
	for _, x := range xs {
		m.Mean += x
	}
	m.Mean /= float64(len(xs))
	if len(xs) > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - m.Mean) * (x - m.Mean)
		}
		m.SD = math.Sqrt(ss / float64(len(xs)-1))
	}
	return m
}

// Summarize recomputes the totals of a file from its intervals. The status
// and the mode's results are taken from the file's own summary when it has
// one; a file cut short gets status "incomplete".
func Summarize(f *File) (*Summary, error) {
	s := NewSummarizer()
	for _, iv := range f.Intervals {
		if err := s.Add(iv); err != nil {
			return nil, err
		}
	}
	out := s.Summary()
	if f.Summary != nil {
		o := f.Summary
		out.Status, out.Reason, out.End, out.ElapsedNS = o.Status, o.Reason, o.End, o.ElapsedNS
		out.DriverLimit, out.DriverWhy = o.DriverLimit, o.DriverWhy
		out.SLO, out.SLOMet, out.SLOWhy = o.SLO, o.SLOMet, o.SLOWhy
		out.Capacity, out.Ramp, out.Generators = o.Capacity, o.Ramp, o.Generators
		out.RunsAuto = o.RunsAuto
		out.LastError, out.FirstWrong, out.Failures, out.APQMisses = o.LastError, o.FirstWrong, o.Failures, o.APQMisses
		if out.Paired != nil && o.Paired != nil {
			out.Paired.APIs, out.Paired.Group, out.Paired.Targets = o.Paired.APIs, o.Paired.Group, o.Paired.Targets
		}
	} else {
		out.Status, out.Reason = "incomplete", "the file ends before its summary line"
	}
	if f.Header != nil {
		out.Check = f.Header.Params.Check
	}
	return out, nil
}
