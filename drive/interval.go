package drive

import (
	"context"
	"fmt"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// interval collects what every worker recorded since the last one and
// writes it as an interval line; late is how long after its end the tick
// came, flagged beyond runfile.LateIntervalNS.
func (e *engine) interval(ph *phase, idx int, from, to, late time.Duration) (*runfile.Interval, error) {
	e.awaitChecks(ph.base.Add(to))
	e.snap.Reset()
	e.coll.Collect(e.snap)
	tail := ph.window > 0 && from >= ph.window
	// Rate is the shard's part of the offered rate: merged shards add up to it.
	iv := &runfile.Interval{Run: ph.run, Warmup: ph.warmup, Step: ph.step, Index: idx, Tail: tail,
		StartNS: int64(from), EndNS: int64(max(to, from)), Rate: ph.rate / float64(e.cfg.Shard.count()), Users: int(e.users.Load()),
		Templates: map[string]*runfile.TemplateInterval{}}
	if int64(late) > runfile.LateIntervalNS {
		iv.CollectedLateNS = int64(late)
	}
	for t := range e.snap.T {
		st := &e.snap.T[t]
		if st.Count == 0 && st.Dropped == 0 {
			continue
		}
		ti, err := templateInterval(st)
		if err != nil {
			return nil, err
		}
		iv.Templates[e.names[t]] = ti
	}
	// read even when the interval is not written: the next one counts
	// from here
	if n, ok := e.stmts.delta(context.Background()); ok {
		iv.DBStatements = &n
	}
	if e.pairs != nil {
		iv.Pairs = e.pairs.collect()
	}
	if e.series != nil {
		iv.Series = e.series.collect(from, max(to, from))
	}
	iv.ErrorReasons = e.errs.collect()
	if tail && len(iv.Templates) == 0 {
		e.errs.putBack(iv.ErrorReasons)
		e.waiting(ph, iv)
		return iv, nil
	}
	for _, p := range e.cfg.Watch {
		s := p.Sample()
		iv.Procs = append(iv.Procs, runfile.ProcSample{PID: p.PID, CPUPercent: s.CPUPercent, RSSBytes: s.RSSBytes, Processes: s.Processes, Gone: s.Gone, Runtime: s.Runtime})
	}
	if e.cfg.Self != nil {
		s := e.cfg.Self.Sample()
		iv.Driver = &runfile.ProcSample{PID: e.cfg.Self.PID, CPUPercent: s.CPUPercent, RSSBytes: s.RSSBytes}
	}
	if e.cfg.Records != nil && len(e.snap.Samples) > 0 {
		n := ph.run
		if ph.step > 0 {
			n = ph.step
		}
		if err := e.cfg.Records.Write(n, e.snap.Samples, e.ids, e.names); err != nil {
			return nil, fmt.Errorf("records: %w", err)
		}
	}
	if err := e.w.Write(iv); err != nil {
		return nil, fmt.Errorf("run file: %w", err)
	}
	if err := e.sum.Add(iv); err != nil {
		return nil, err
	}
	if ph.keep {
		ph.sum.Add(iv)
	}
	e.progress(ph, iv)
	// Kept for the summary are the counters: the histograms belong to the
	// snapshot (reset at the next interval) and their encodings are in the
	// file and the summarizers already.
	kept := *iv
	kept.Templates = make(map[string]*runfile.TemplateInterval, len(iv.Templates))
	for name, t := range iv.Templates {
		c := *t
		c.QET, c.QRT, c.Latency, c.QETHist, c.QRTHist, c.LatencyHist = "", "", "", nil, nil, nil
		kept.Templates[name] = &c
	}
	e.all = append(e.all, &kept)
	if ph.keep {
		ph.ivs = append(ph.ivs, &kept)
	}
	return iv, nil
}

// templateInterval turns one template's collected Stats into its line.
func templateInterval(st *measure.Stats) (*runfile.TemplateInterval, error) {
	c := &st.Counts
	ti := &runfile.TemplateInterval{Count: c.Count, OK: c.OK, Errors: c.Errors, Wrong: c.Wrong, Verified: c.Verified,
		Late: c.Late, DriverLate: c.DriverLate, Dropped: c.Dropped, Overrun: c.Overrun, OverrunOK: c.OverrunOK, OverrunErrors: c.OverrunErr,
		Clamped: c.Clamped, SentBytes: c.SentBytes, RecvBytes: c.RecvBytes}
	if c.Calls != c.Count {
		ti.Calls = c.Calls // absent: one call per request
	}
	for k, o := range measure.ErrorKinds {
		if n := c.ErrorKinds[k]; n > 0 {
			if ti.ErrorKinds == nil {
				ti.ErrorKinds = map[string]int64{}
			}
			ti.ErrorKinds[o.String()] = n
		}
	}
	var err error
	hist := func(h *measure.Hist) (*measure.Hist, string) {
		if h == nil || h.TotalCount() == 0 || err != nil {
			return nil, ""
		}
		var s string
		s, err = runfile.EncodeCounts(h)
		return h, s
	}
	ti.QETHist, ti.QET = hist(st.QET)
	ti.QRTHist, ti.QRT = hist(st.QRT)
	ti.LatencyHist, ti.Latency = hist(st.Latency)
	return ti, err
}

// watchdog aborts a run whose server stopped answering: for AbortAfter
// nothing but errors came back — refused connections, resets, timeouts,
// and answers that are errors too (malformed HTTP, a status other than
// 200, GraphQL errors, no data). In a capacity search an answer with a
// status is an answer: a step refused with 503s fails, and the search
// goes on at a lower rate.
func (e *engine) watchdog(iv *runfile.Interval) error {
	var responses, failures int64
	for _, t := range iv.Templates {
		f := t.Errors
		if e.spec.statusIsAnswer {
			f -= t.ErrorKinds[measure.ErrStatus.String()] + t.ErrorKinds[measure.ErrGraphQL.String()]
		}
		failures += f
		responses += t.Count - f
	}
	now := time.Now()
	if responses > 0 || e.lastResp.IsZero() {
		e.lastResp = now
		return nil
	}
	if failures > 0 && e.cfg.AbortAfter > 0 && now.Sub(e.lastResp) >= e.cfg.AbortAfter {
		why := e.errs.lastError()
		if rs := iv.ErrorReasons; len(rs) > 0 {
			why = runfile.ErrorReasonsText(rs[:min(3, len(rs))])
		}
		return &AbortError{fmt.Sprintf("the server stopped answering: no answer but errors for %v (%s)",
			now.Sub(e.lastResp).Round(time.Millisecond), why)}
	}
	return nil
}

// progress prints one line per interval.
func (e *engine) progress(ph *phase, iv *runfile.Interval) {
	if e.cfg.Log == nil {
		return
	}
	var n, ok, errs, wrong int64
	var p99 int64
	for _, t := range iv.Templates {
		n += t.Count
		ok += t.OK
		errs += t.Errors
		wrong += t.Wrong
		h := t.LatencyHist
		if h == nil {
			h = t.QETHist
		}
		if h != nil {
			p99 = max(p99, h.ValueAtQuantile(99))
		}
	}
	sec := float64(iv.EndNS-iv.StartNS) / 1e9
	if sec <= 0 {
		return
	}
	label := e.label(ph, iv)
	tail := ""
	if iv.Tail {
		tail = " (in flight at the end)"
	}
	if n == 0 {
		if k := e.inFlight(); k > 0 {
			tail += "; " + e.inFlightText(ph, k)
		}
	}
	if e.cfg.Check == CheckStatus {
		fmt.Fprintf(e.cfg.Log, "load: %s %6.1fs: %8.0f req/s (answers not checked), %d errors, worst p99 %v%s\n",
			label, float64(iv.EndNS)/1e9, float64(n)/sec, errs, time.Duration(p99).Round(time.Microsecond), tail)
		return
	}
	fmt.Fprintf(e.cfg.Log, "load: %s %6.1fs: %8.0f req/s, %8.0f correct/s, %d errors, %d wrong, worst p99 %v%s\n",
		label, float64(iv.EndNS)/1e9, float64(n)/sec, float64(ok)/sec, errs, wrong, time.Duration(p99).Round(time.Microsecond), tail)
}

// label names the phase in a progress line: "run 2", "step 3 (400/s)".
func (e *engine) label(ph *phase, iv *runfile.Interval) string {
	label := fmt.Sprintf("run %d", ph.run)
	switch {
	case ph.step > 0:
		label = fmt.Sprintf("step %d (%.0f/s)", ph.step, ph.rate)
	case e.spec.label != nil:
		label = e.spec.label(ph, iv.Users)
	}
	if ph.warmup {
		label += " (warm-up)"
	}
	return label
}

// waiting says, for a tick after the window in which nothing completed,
// what the run is waiting for: a stalled server would otherwise leave the
// terminal silent until the requests time out.
func (e *engine) waiting(ph *phase, iv *runfile.Interval) {
	if e.cfg.Log == nil {
		return
	}
	if k := e.inFlight(); k > 0 {
		fmt.Fprintf(e.cfg.Log, "load: %s %6.1fs: the window closed at %.1fs; %s\n",
			e.label(ph, iv), float64(iv.EndNS)/1e9, float64(ph.window)/1e9, e.inFlightText(ph, k))
	}
}

// inFlightText says how many requests are in flight and how long they may
// still take: each was sent within the window, so each ends by the
// window's end plus the request timeout.
func (e *engine) inFlightText(ph *phase, k int) string {
	what := fmt.Sprintf("%d requests in flight", k)
	if k == 1 {
		what = "1 request in flight"
	}
	if e.cfg.Timeout <= 0 {
		return what + ", waiting for the answers"
	}
	s := fmt.Sprintf("%s, waiting up to %v (--timeout) for the answers", what, e.cfg.Timeout)
	if ph.window > 0 {
		if left := ph.window + e.cfg.Timeout - time.Since(ph.base); left > 0 && left < e.cfg.Timeout {
			s += fmt.Sprintf(": %v more at most", left.Round(100*time.Millisecond))
		}
	}
	return s
}
