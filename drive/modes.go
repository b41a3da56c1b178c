package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

func init() {
	registerMode(ModeSpec{
		Name:   Closed,
		Traits: runfile.Traits{Order: 1, Throughput: true, SLOAtEnd: true},
		Help: `--clients N each cycling its share, next query when the answer is complete;
--duration per run, --runs R (the first a warm-up) or auto (--ci, --max-runs),
--think D (uniform in [0,D]); a send --late after its answer waited on the generator`,
		Params: []string{"clients", "duration", "runs", "ci", "max-runs", "think", "late"},
		settings: func(p Params) Settings {
			return ClosedSettings{Clients: p.Clients, Think: p.Think, Repeat: p.repeat()}
		},
		run:    (*engine).runClosed,
		shards: true,
	})
	registerMode(ModeSpec{
		Name:   Sequential,
		Traits: runfile.Traits{Order: 2, PerQuery: true, SLOAtEnd: true},
		Help: `one connection, round-robin over templates, each query once per pass; --passes P
measured after --warmup-passes W (1)`,
		Params:   []string{"passes", "warmup-passes"},
		settings: func(p Params) Settings { return SequentialSettings{Passes: p.Passes, WarmupPasses: p.WarmupPasses} },
		run:      (*engine).runSequential,
		label:    func(ph *phase, _ int) string { return fmt.Sprintf("pass %d", ph.run) },
	})
}

// ClosedSettings are closed mode's: LinGBM's throughput driver.
type ClosedSettings struct {
	Clients int           // simulated clients, one connection each (default 1)
	Think   time.Duration // think time after each answer, uniform in [0, Think]
	Repeat                // the runs (default 6: LinGBM's, the first a warm-up)
}

func (s ClosedSettings) withDefaults() Settings {
	s.Clients = cmp.Or(s.Clients, 1)
	s.Repeat = s.Repeat.withDefaults(6)
	return s
}

func (s ClosedSettings) validate(c *Config) error {
	switch {
	case s.Clients < 1:
		return errors.New("--clients must be at least 1")
	case s.Think < 0:
		return errors.New("--think must not be negative")
	case s.Clients < c.Shard.count():
		return fmt.Errorf("--clients %d cannot be split over %d shards: give at least one client per shard", s.Clients, c.Shard.Count)
	}
	if err := c.Shard.checkRepeat(s.Repeat); err != nil {
		return err
	}
	return s.Repeat.validate()
}

// header records the shard's own clients (merged files add them up).
func (s ClosedSettings) header(c *Config, p *runfile.Params) {
	p.Clients, p.ThinkNS, p.LateNS = c.Shard.Clients(s.Clients), int64(s.Think), int64(c.Late)
	s.Repeat.header(p)
}

func (s ClosedSettings) flags(add func(param, value string)) {
	add("clients", flagInt(s.Clients))
	add("think", flagDur(s.Think))
	s.Repeat.flags(add)
}

// SequentialSettings are sequential mode's: LinGBM's QET/QRT driver.
type SequentialSettings struct {
	Passes int // measured passes over every query (default 1)
	// WarmupPasses are passes run before the measured ones and excluded
	// from every figure: the first pass over a query meets cold caches
	// (the database's buffers, the server's plans), and without it a
	// query's mean says more about whichever server ran first.
	WarmupPasses int
}

func (s SequentialSettings) withDefaults() Settings {
	s.Passes = cmp.Or(s.Passes, 1)
	return s
}

func (s SequentialSettings) validate(*Config) error {
	switch {
	case s.Passes < 1:
		return errors.New("--passes must be at least 1")
	case s.WarmupPasses < 0:
		return errors.New("--warmup-passes must not be negative")
	}
	return nil
}

func (s SequentialSettings) header(_ *Config, p *runfile.Params) {
	p.Passes, p.WarmupPasses = s.Passes, s.WarmupPasses
}

func (s SequentialSettings) flags(add func(param, value string)) {
	add("passes", flagInt(s.Passes))
	add("warmup-passes", flagInt(s.WarmupPasses))
}

// cycle is the sequence of requests a closed-loop client goes through, over
// and over: request (start + (pos mod length)·stride) mod total at
// position pos. It is computed, not listed, so a thousand users cost nothing.
type cycle struct{ start, stride, length, total int }

func (c cycle) at(pos int) int { return (c.start + (pos%c.length)*c.stride) % c.total }

// cursor walks a cycle from its position 0, at(0), at(1), ..., without
// the two divisions of at per step.
type cursor struct {
	c    cycle
	k, i int // the position in the cycle (pos mod length) and at(pos)
}

func (c cycle) cursor() cursor { return cursor{c: c, i: c.at(0)} }

// next returns the request at the cursor and moves on.
func (u *cursor) next() int {
	i := u.i
	if u.k++; u.k == u.c.length {
		u.k, u.i = 0, u.c.at(0)
	} else if u.i += u.c.stride; u.i >= u.c.total {
		u.i -= u.c.total
	}
	return i
}

// share returns client c's share of total requests among n clients: every
// n-th from the c-th (LinGBM distributes the queries among the clients);
// when there are fewer requests than clients, all of them from the
// (c mod total)-th on.
func share(c, n, total int) cycle {
	if total >= n {
		return cycle{start: c, stride: n, length: (total - c + n - 1) / n, total: total}
	}
	return rotation(c, total)
}

// rotation is every request, from the (c mod total)-th on.
func rotation(c, total int) cycle {
	return cycle{start: c % total, stride: 1, length: total, total: total}
}

// runClosed runs LinGBM's throughput driver: Runs runs of Duration, Clients
// clients each cycling its share, the next request when the previous
// answer is complete (and the think time over).
func (e *engine) runClosed(ctx context.Context) error {
	s := e.cfg.Settings.(ClosedSettings)
	mine := e.cfg.Shard.Clients(s.Clients)
	e.users.Store(int64(mine))
	e.connect(mine)
	return e.runs(ctx, s.Repeat, func(ctx context.Context, r int, warmup bool) error {
		ph := &phase{run: r, warmup: warmup, window: s.Duration, think: s.Think}
		return e.runPhase(ctx, ph, func(ctx context.Context) {
			e.clients(ctx, ph, s.Clients)
		})
	})
}

// clients runs the closed-loop clients of n (this shard's: Shard.Clients)
// until the phase's window closes or ctx is done. A client's share and
// random stream are those of its run-wide number among n.
func (e *engine) clients(ctx context.Context, ph *phase, n int) {
	if e.loopClients(ctx, ph, n) {
		return
	}
	var wg sync.WaitGroup
	e.eachClient(n, func(w *worker, k int) {
		sh := share(k, n, len(e.cfg.Requests))
		rng := e.rng(k, ph.run, ph.step)
		wg.Go(func() { w.closedLoop(ctx, ph, sh, rng) })
	})
	wg.Wait()
}

// eachClient calls f with each closed-loop client of n that this shard
// runs: its worker, named by the client's run-wide number k, and k; it
// stops when no worker can be had (the run is closing).
func (e *engine) eachClient(n int, f func(w *worker, k int)) {
	for c := range e.cfg.Shard.Clients(n) {
		w, err := e.worker(c)
		if err != nil {
			return
		}
		k := e.cfg.Shard.client(c)
		w.id = int32(k) // the records name the run's client
		f(w, k)
	}
}

// closedLoop sends the share's requests in turn until the window closes.
// Between an answer and the next send a client does nothing but think: any
// other delay there (checking and recording the answer, waiting for a CPU)
// is the load generator's own, and a send it delays more than Late is
// late, the driver's fault. A slow server delays the answers, never this.
func (w *worker) closedLoop(ctx context.Context, ph *phase, sh cycle, rng *rand.Rand) {
	think := ph.think
	// answered is when the previous answer ended (a phase offset; < 0: no
	// answer to wait from), thought the think time slept since.
	answered, thought := time.Duration(-1), time.Duration(0)
	for cur := sh.cursor(); ctx.Err() == nil; {
		now := time.Since(ph.base)
		if ph.window > 0 && now >= ph.window {
			return
		}
		waited := time.Duration(-1)
		if answered >= 0 {
			waited = now - answered - thought
		}
		sent := w.send(ctx, ph, cur.next(), -1, false, waited)
		answered, thought = -1, 0
		if sent && w.s.Timed() {
			answered = w.s.End
		}
		if think > 0 {
			d := time.Duration(rng.Int64N(int64(think) + 1))
			from := time.Since(ph.base)
			if ph.window > 0 && from+d >= ph.window {
				return
			}
			if !w.sl.sleep(ctx, d) {
				return
			}
			thought = time.Since(ph.base) - from
		}
	}
}

// runSequential runs LinGBM's QET/QRT driver: one connection, the templates
// in turn (the first query of each, then the second of each, ...), every
// query once per pass; each pass is a run, the first WarmupPasses of them
// warm-ups. Then one query line per request with aQETq ± sd and aQRTq ± sd
// over the measured passes.
func (e *engine) runSequential(ctx context.Context) error {
	order := roundRobin(e.tmplOf, len(e.names))
	s := e.cfg.Settings.(SequentialSettings)
	e.users.Store(1)
	st := make([]queryStat, len(e.cfg.Requests))
	var runErr error
	for p := 1; p <= s.WarmupPasses+s.Passes && runErr == nil; p++ {
		ph := &phase{run: p, warmup: p <= s.WarmupPasses}
		runErr = e.runPhase(ctx, ph, func(ctx context.Context) {
			w, err := e.worker(0)
			if err != nil {
				return
			}
			for _, i := range order {
				if ctx.Err() != nil {
					return
				}
				if w.send(ctx, ph, i, -1, false, -1) && !ph.warmup {
					st[i].add(&w.s)
				}
			}
		})
	}
	for i := range st {
		q := st[i].query(e.cfg.Requests[i])
		if q.N+q.Errors+q.Wrong == 0 {
			continue
		}
		if err := e.w.Write(q); err != nil && runErr == nil {
			runErr = fmt.Errorf("run file: %w", err)
		}
	}
	return runErr
}

// roundRobin orders request indices template by template in turn: the
// first request of each template, then the second of each, and so on.
func roundRobin(tmplOf []int32, templates int) []int {
	by := make([][]int, templates)
	for i, t := range tmplOf {
		by[t] = append(by[t], i)
	}
	var out []int
	for k := 0; len(out) < len(tmplOf); k++ {
		for _, l := range by {
			if k < len(l) {
				out = append(out, l[k])
			}
		}
	}
	return out
}

// queryStat accumulates one query's times (Welford's algorithm).
type queryStat struct {
	n, errors, wrong int64
	qetMean, qetM2   float64
	qrtMean, qrtM2   float64
}

func (q *queryStat) add(s *measure.Sample) {
	switch {
	case s.Outcome == measure.Wrong:
		q.wrong++
	case s.Outcome.IsError():
		q.errors++
	}
	if !s.Timed() {
		return
	}
	q.n++
	welford(&q.qetMean, &q.qetM2, q.n, float64(s.QET()))
	welford(&q.qrtMean, &q.qrtM2, q.n, float64(s.QRT()))
}

func welford(mean, m2 *float64, n int64, x float64) {
	d := x - *mean
	*mean += d / float64(n)
	*m2 += d * (x - *mean)
}

// query returns the query line: means with their sample standard deviations.
func (q *queryStat) query(r wire.Request) *runfile.Query {
	out := &runfile.Query{ID: r.ID, Template: r.Template, N: q.n, Errors: q.errors, Wrong: q.wrong,
		QETMean: q.qetMean, QRTMean: q.qrtMean}
	if q.n > 1 {
		out.QETSD = math.Sqrt(q.qetM2 / float64(q.n-1))
		out.QRTSD = math.Sqrt(q.qrtM2 / float64(q.n-1))
	}
	return out
}
