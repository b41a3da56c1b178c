package drive

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/measure/layers"
	"github.com/gqlbench/gqlbench/runfile"
)

// engine is one Run: the workers, the collector, the run file.
type engine struct {
	stmts   counterDelta // the database's statements, when cfg.Statements
	cfg     Config
	w       *runfile.Writer
	names   []string // templates
	tmplOf  []int32  // per request, its template's index
	ids     []string // per request, its id
	coll    *measure.Collector
	snap    *measure.Snapshot
	checker *Checker
	sum     *runfile.Summarizer
	all     []*runfile.Interval // every interval written, histograms dropped

	mu      sync.Mutex
	workers []*worker
	done    bool

	users atomic.Int64 // active simulated users
	errs  errorLog     // the errors by kind and reason, and the last one
	start time.Time
	// lastResp is when an interval last held a response (collector only).
	lastResp time.Time
	// stopped is why a ramp stopped (collector only), after the interval
	// e.all[stoppedAt-1].
	stopped   string
	stoppedAt int
	// capResult is a capacity search's result.
	capResult *runfile.Capacity
	spec      *ModeSpec    // the mode's definition
	fails     *failureLog  // the first wrong answers
	apqMisses atomic.Int64 // persisted-query hashes the server did not know
	connects  atomic.Int64 // connections made inside requests' time
	// base is the number of task labels; in paired mode names holds each
	// twice, prefixed by the two APIs, and pairs records the pairs.
	base  int
	pairs *pairRecorder
	// partnerFrom is the first worker on the partner's side (paired: the
	// partner of client c is worker c + partnerFrom).
	partnerFrom int
	series      *series // --sample-interval's fine samples, or nil
	// profiling is closed once the profiler has been started, at the first
	// measured phase.
	profiling sync.Once
}

// phase is a run (closed, open), a pass (sequential), a step (capacity) or
// the ramp: workers sending for a window, measured interval by interval.
type phase struct {
	run, step int
	warmup    bool
	window    time.Duration // sends start only within it; 0: until the work ends
	think     time.Duration // a closed-loop client's think time after each answer, uniform in [0, think]
	rate      float64       // offered rate, for the interval lines
	base      time.Time     // the phase's zero on the monotonic clock
	keep      bool          // keep the intervals (and a Summarizer of them)
	ivs       []*runfile.Interval
	sum       *runfile.Summarizer
	// stop, if set, is asked after each interval whether to stop the phase
	// (a ramp's failure); a non-empty answer says why.
	stop func(iv *runfile.Interval) string
}

func newEngine(cfg Config, w *runfile.Writer) *engine {
	e := &engine{cfg: cfg, w: w, sum: runfile.NewSummarizer()}
	e.names, e.tmplOf = templates(cfg.Requests)
	e.base = len(e.names)
	if cfg.Partner != nil { // (the pairs' group is the mode's: runPaired sets it)
		e.pairs = newPairRecorder(e.names, DefaultGroup)
		e.names = pairedNames(e.names, cfg.APIs)
	}
	e.ids = make([]string, len(cfg.Requests))
	for i, r := range cfg.Requests {
		e.ids[i] = r.ID
	}
	spec, _ := ModeByName(cfg.Mode)
	e.spec = spec
	corrected := spec != nil && spec.Corrected
	e.coll = measure.NewCollector(measure.Options{Templates: len(e.names), Corrected: corrected, Samples: cfg.Records != nil})
	e.snap = e.coll.NewSnapshot()
	e.checker = newRunChecker(cfg.Requests, 0, cfg.Ignore)
	e.fails = newFailureLog(cfg.FailuresDir, cfg.MaxFailures, cfg.Requests, cfg.Ignore)
	e.checker.onWrong = e.fails.record
	e.stmts.c = cfg.Statements
	e.errs.secrets = cfg.Secrets
	return e
}

// worker is one client or connection, kept across phases.
type worker struct {
	e       *engine
	id      int32
	side    int32 // paired mode: 1 for the --paired-target's side
	pair    int64 // paired mode: the number of the pair being sent
	conn    wire.Conn
	rec     *measure.Recorder
	res     wire.Response
	s       measure.Sample
	sl      sleeper
	vacc    float64
	backoff time.Duration
	// busy is 1 while a request is in flight; checking, while an answer
	// is being checked and recorded, is when it completed (nanoseconds
	// since the engine's start, plus one): an interval ending after that
	// waits for its record (see awaitChecks). Each is the worker's own
	// word, read by the collector.
	busy     atomic.Int32
	checking atomic.Int64
	// layers adds up the server's own account of the worker's measured
	// responses (Config.Layers), or nil.
	layers *layers.Acc
}

// layersReport merges the workers' layers (Config.Layers).
func (e *engine) layersReport() *layers.Report {
	e.mu.Lock()
	defer e.mu.Unlock()
	all := layers.NewAcc(e.names, 0)
	for _, w := range e.workers {
		if w != nil && w.layers != nil {
			all.Merge(w.layers)
		}
	}
	return all.Report()
}

// worker returns worker c, making it on first use.
func (e *engine) worker(c int) (*worker, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return nil, wire.ErrClosed
	}
	for len(e.workers) <= c {
		e.workers = append(e.workers, nil)
	}
	if e.workers[c] == nil {
		w := &worker{e: e, id: int32(c), rec: e.coll.NewRecorder()}
		if e.cfg.Layers {
			w.layers = layers.NewAcc(e.names, 0)
		}
		if e.cfg.Partner != nil && e.partnerFrom > 0 && c >= e.partnerFrom { // the partner of client c − partnerFrom
			w.side, w.conn = 1, e.cfg.Partner.NewConn()
		} else {
			w.conn = e.cfg.Transport.NewConn()
		}
		e.workers[c] = w
	}
	return e.workers[c], nil
}

// inFlight counts the requests in flight.
func (e *engine) inFlight() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, w := range e.workers {
		if w != nil && w.busy.Load() != 0 {
			n++
		}
	}
	return n
}

// awaitChecks waits until every answer completed before end is recorded:
// a slow check (a huge answer) must not move its sample into a later
// interval, or past the window into the tail.
func (e *engine) awaitChecks(end time.Time) {
	limit := int64(end.Sub(e.start)) + 1
	for {
		pending := false
		e.mu.Lock()
		for _, w := range e.workers {
			if w != nil {
				if c := w.checking.Load(); c != 0 && c <= limit {
					pending = true
					break
				}
			}
		}
		e.mu.Unlock()
		if !pending {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// closeAll closes every connection: requests in flight fail at once, and
// the workers, seeing their context done, return without recording them.
func (e *engine) closeAll() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done = true
	for _, w := range e.workers {
		if w != nil {
			w.conn.Close()
		}
	}
}

// send sends request i and records it in w.s and the recorder, and says
// whether it did. intended < 0 means "now" (closed loop); idle says the
// worker waited for the intended time, so a late send is the driver's fault.
// In closed loop, waited is how long the request waited on the driver
// itself since it was due (its client had the previous answer and thought
// its think time); < 0: not known (the client's first request).
func (w *worker) send(ctx context.Context, ph *phase, i int, intended time.Duration, idle bool, waited time.Duration) bool {
	w.busy.Store(1)
	err := w.conn.Do(i, &w.res)
	w.busy.Store(0)
	if err != nil && ctx.Err() != nil {
		return false // cut short by the load generator: not a measurement
	}
	if pause := w.complete(ph, i, &w.res, intended, idle, waited, err); pause > 0 {
		w.sl.sleep(ctx, pause)
	}
	return true
}

// complete checks and records request i's exchange, res and err, in w.s
// and the recorder (see send), and returns how long to wait before the
// client's next request: a failed connect's back-off, or 0.
func (w *worker) complete(ph *phase, i int, res *wire.Response, intended time.Duration, idle bool, waited time.Duration, err error) time.Duration {
	e := w.e
	// Recorded in the interval it completed in, however long its check
	// takes: the collector waits for it.
	w.checking.Store(int64(res.End.Sub(e.start)) + 1)
	if e.cfg.checkLag > 0 {
		time.Sleep(e.cfg.checkLag) // a slow check, for tests
	}
	if res.Retried {
		e.apqMisses.Add(1)
	}
	if res.Connects > 0 {
		e.connects.Add(int64(res.Connects))
	}
	s := &w.s
	*s = measure.Sample{Template: e.tmplOf[i] + w.side*int32(e.base), Query: int32(i), Client: w.id,
		Start: res.Start.Sub(ph.base), End: res.End.Sub(ph.base),
		SentBytes: res.SentBytes, RecvBytes: res.RecvBytes, Calls: int32(res.Calls), Pair: w.pair}
	s.Intended = intended
	if intended < 0 {
		s.Intended = s.Start
	}
	if err != nil {
		s.Outcome = wire.Classify(err)
		s.NoResponse = true // never a latency sample, even a response that is not HTTP (bad_response)
		e.errs.add(s.Outcome, 0, wire.Reason(err, s.Outcome, e.cfg.Timeout), nil)
	} else {
		s.Status = int16(res.Status)
		s.FirstByte = res.FirstByte.Sub(ph.base)
		s.Outcome, s.Verified = e.checker.Check(i, res.Status, res.Body, w.sampled())
		if w.layers != nil && !ph.warmup && !s.Outcome.IsError() {
			w.layers.Add(int(s.Template), res.End.Sub(res.Start), res.ServerTiming, res.Body)
		}
		if s.Outcome.IsError() {
			status := 0
			if s.Outcome == measure.ErrStatus {
				status = res.Status
			}
			e.errs.add(s.Outcome, status, checkReason(s.Outcome, res.Status, res.Body), res.Body)
		}
	}
	if intended < 0 {
		// Closed loop: a send is late when it waited on the generator; a
		// slow server makes the answers late, not the sends.
		s.Late = waited > e.cfg.Late
		s.DriverLate = s.Late
	} else {
		s.Late = s.Start-s.Intended > e.cfg.Late
		s.DriverLate = s.Late && idle
	}
	s.Overrun = ph.window > 0 && s.End > ph.window
	w.rec.Record(s)
	w.checking.Store(0)
	if e.series != nil {
		e.series.complete(w.side, s.End)
	}
	if e.cfg.lag > 0 {
		time.Sleep(e.cfg.lag) // a slowed generator, for tests
	}
	// After a failed connect, wait a little before the next: a dead server
	// is not to be hammered in a tight loop (the abort watchdog decides).
	if err != nil && s.Outcome == measure.ErrTransport && res.SentBytes == 0 {
		w.backoff = min(max(2*w.backoff, 10*time.Millisecond), time.Second)
		return w.backoff
	}
	w.backoff = 0
	return 0
}

// sampled says whether the next response's data are compared.
func (w *worker) sampled() bool {
	f := w.e.cfg.VerifySample
	if f >= 1 {
		return true
	}
	w.vacc += f
	if w.vacc >= 1 {
		w.vacc--
		return true
	}
	return false
}

// rng returns a worker's random stream for a phase.
func (e *engine) rng(worker, run, step int) *rand.Rand {
	return rand.New(rand.NewPCG(e.cfg.Seed, uint64(worker)<<32|uint64(run)<<16|uint64(step)))
}

// sleeper sleeps on one reusable timer, waking early when ctx is done.
type sleeper struct{ t *time.Timer }

func (s *sleeper) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	if s.t == nil {
		s.t = time.NewTimer(d)
	} else {
		s.t.Reset(d)
	}
	select {
	case <-s.t.C:
		return true
	case <-ctx.Done():
		s.t.Stop()
		return false
	}
}

// sleepUntil waits until offset at of the phase's clock: a timer for all
// but the last millisecond, then fineSleep for the rest. It reports whether
// ctx is still live.
func (s *sleeper) sleepUntil(ctx context.Context, base time.Time, at time.Duration) bool {
	d := at - time.Since(base)
	if fineSleep == nil {
		return s.sleep(ctx, d)
	}
	if d > time.Millisecond {
		if !s.sleep(ctx, d-time.Millisecond) {
			return false
		}
		d = at - time.Since(base)
	}
	if d > 0 {
		fineSleep(d)
	}
	return ctx.Err() == nil
}

// errStop cancels a phase that stopped by its own rule (a ramp's failure).
var errStop = errors.New("stopped")

// runPhase runs work for a phase, writing an interval line every Interval
// (and one for the window's remainder, and tail intervals while requests in
// flight at the window's end complete). It returns the context's error when
// interrupted, an *AbortError when the server stopped answering.
func (e *engine) runPhase(ctx context.Context, ph *phase, work func(context.Context)) error {
	wctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if ph.keep {
		ph.sum = runfile.NewSummarizer()
	}
	if !e.awaitRunStart(ctx, ph) { // a split run's grid (shard.go)
		return ctx.Err()
	}
	if !ph.warmup && e.cfg.Profiler != nil {
		e.profiling.Do(func() { e.cfg.Profiler.Start(ctx) })
	}
	ph.base = time.Now()
	if e.series != nil {
		e.series.start(ph.base)
		defer e.series.stop()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		work(wctx)
	}()
	t := time.NewTimer(e.cfg.Interval)
	defer t.Stop()
	l := &phaseLoop{e: e, ph: ph, cancel: cancel}
	ctxDone := ctx.Done()
	for {
		to := l.from + e.cfg.Interval
		if ph.window > 0 && l.from < ph.window && to > ph.window {
			to = ph.window
		}
		t.Reset(time.Until(ph.base.Add(to)))
		select {
		case <-done:
			done = nil
			if over, err := l.workEnded(); over {
				return err
			}
		case <-ctxDone:
			ctxDone = nil
			l.stop(ctx.Err())
			if l.workDone {
				_, err := e.interval(ph, l.idx, l.from, time.Since(ph.base), 0)
				return errors.Join(l.stopErr, err)
			}
		case <-t.C:
			if l.tick(to) {
				return nil
			}
		}
	}
}

// phaseLoop is runPhase's state: the interval being measured, from from,
// and why the phase is stopping.
type phaseLoop struct {
	e        *engine
	ph       *phase
	cancel   context.CancelCauseFunc // stops the work
	idx      int
	from     time.Duration
	workDone bool  // the work ended within the window, which the phase still lasts
	stopErr  error // the first reason to stop
}

// stop stops the work for err (the first reason given wins); connections
// are closed unless the phase stopped by its own rule.
func (l *phaseLoop) stop(err error) {
	if l.stopErr != nil {
		return
	}
	l.stopErr = err
	l.cancel(err)
	if !errors.Is(err, errStop) {
		l.e.closeAll()
	}
}

// workEnded handles the end of the work: over says the phase is over,
// with err.
func (l *phaseLoop) workEnded() (over bool, err error) {
	ph := l.ph
	end := time.Since(ph.base)
	if ph.window > 0 && l.from < ph.window && l.stopErr == nil && end <= ph.window {
		// No more sends in this window (an open loop's schedule is
		// over): the run still lasts its window.
		l.workDone = true
		return false, nil
	}
	if ph.window > 0 && l.from < ph.window && end > ph.window {
		// the work ended just past the window, before its timer: the
		// interval ends with the window (later completions are overruns,
		// counted out of the throughput)
		end = ph.window
	}
	if _, err := l.e.interval(ph, l.idx, l.from, end, 0); err != nil {
		return true, err
	}
	if errors.Is(l.stopErr, errStop) {
		return true, nil
	}
	return true, l.stopErr
}

// tick ends the interval at to, then checks that the server still answers
// and the phase's own stop rule; it says whether the phase is over.
func (l *phaseLoop) tick(to time.Duration) (over bool) {
	e, ph := l.e, l.ph
	iv, err := e.interval(ph, l.idx, l.from, to, time.Since(ph.base)-to)
	if err != nil {
		l.stop(err)
		return false
	}
	l.idx, l.from = l.idx+1, to
	if l.workDone && l.from >= ph.window {
		return true
	}
	if err := e.watchdog(iv); err != nil {
		l.stop(err)
	} else if ph.stop != nil && l.stopErr == nil {
		if why := ph.stop(iv); why != "" {
			e.stopped, e.stoppedAt = why, len(e.all)
			l.stop(errStop)
		}
	}
	return false
}

type hdrHist = hdrhistogram.Histogram

// templates returns the distinct templates of reqs in order of first
// appearance and, per request, its template's index.
func templates(reqs []wire.Request) (names []string, of []int32) {
	idx := map[string]int32{}
	of = make([]int32, len(reqs))
	for i, r := range reqs {
		t, ok := idx[r.Template]
		if !ok {
			t = int32(len(names))
			idx[r.Template] = t
			names = append(names, r.Template)
		}
		of[i] = t
	}
	return names, of
}
