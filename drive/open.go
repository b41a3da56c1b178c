package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/runfile"
)

func init() {
	registerMode(ModeSpec{
		Name:   Open,
		Traits: runfile.Traits{Order: 3, Throughput: true, Curve: runfile.CurveRate, Corrected: true, SLOAtEnd: true},
		Help: `--rate R per second, --arrival constant|poisson, --connections N; latency
from the intended send time (coordinated omission corrected); --runs R or auto;
--min-on-time F fails the run when fewer sends start within --late of their time`,
		Params:   []string{"connections", "duration", "runs", "ci", "max-runs", "rate", "arrival", "late", "max-lateness", "min-on-time"},
		settings: func(p Params) Settings { return OpenSettings{Repeat: p.repeat(), Arrivals: p.arrivals()} },
		run:      (*engine).runOpen,
		shards:   true,
		check: func(e *engine, s *runfile.Summary) (string, bool) {
			least := e.cfg.Settings.(OpenSettings).MinOnTime
			if least > 0 && s.OnTime != nil && *s.OnTime < least {
				return runfile.OnTimeWhy(*s.OnTime, least), true
			}
			return "", false
		},
	})
}

// OpenSettings are open mode's: runs of a schedule of sends.
type OpenSettings struct {
	Repeat   // the runs (default 1)
	Arrivals // the schedule; a rate is required
}

func (s OpenSettings) withDefaults() Settings {
	s.Repeat, s.Arrivals = s.Repeat.withDefaults(1), s.Arrivals.withDefaults()
	return s
}

func (s OpenSettings) validate(c *Config) error {
	if s.Rate <= 0 {
		return errors.New("open loop needs a rate: --rate R (requests per second)")
	}
	if err := c.Shard.checkRepeat(s.Repeat); err != nil {
		return err
	}
	if err := s.Arrivals.validate(); err != nil {
		return err
	}
	return s.Repeat.validate()
}

func (s OpenSettings) header(c *Config, p *runfile.Params) {
	s.Arrivals.header(c, p)
	s.Repeat.header(p)
}

func (s OpenSettings) flags(add func(param, value string)) {
	s.Arrivals.flags(add)
	s.Repeat.flags(add)
}

// Arrivals are the schedule of a mode that sends on one, whatever the
// server does (open, capacity): its latency is corrected.
type Arrivals struct {
	Connections int     // the most requests in flight (default 64)
	Rate        float64 // requests per second; capacity: the first step's
	Poisson     bool    // Poisson arrivals instead of evenly spaced ones
	// MaxLate drops a send that cannot start within it of its time; 0:
	// never.
	MaxLate time.Duration
	// MinOnTime is the least share of sends that must start on time: an
	// open run below it fails its check, a capacity step does not pass.
	// 0: no check.
	MinOnTime float64
}

// arrivals is the schedule of load's flags.
func (p Params) arrivals() Arrivals {
	return Arrivals{Connections: p.Connections, Rate: p.Rate, Poisson: p.Poisson, MaxLate: p.MaxLate, MinOnTime: p.MinOnTime}
}

// scheduled is a mode's settings that embed Arrivals.
type scheduled interface{ arrivals() Arrivals }

func (a Arrivals) arrivals() Arrivals { return a }

func (a Arrivals) withDefaults() Arrivals {
	a.Connections = cmp.Or(a.Connections, 64)
	return a
}

func (a Arrivals) validate() error {
	switch {
	case a.Connections < 1:
		return errors.New("--connections must be at least 1")
	case a.MaxLate < 0:
		return errors.New("--max-lateness must not be negative")
	case a.MinOnTime < 0 || a.MinOnTime > 1:
		return fmt.Errorf("the least share of sends on time must be in [0, 1], got %g", a.MinOnTime)
	}
	return nil
}

// header records the schedule, the late threshold and its calibration;
// the rate is the shard's own (merged files add them up).
func (a Arrivals) header(c *Config, p *runfile.Params) {
	p.Connections, p.Rate, p.Arrival = a.Connections, a.Rate/float64(c.Shard.count()), "constant"
	if a.Poisson {
		p.Arrival = "poisson"
	}
	p.LateNS, p.MaxLateNS, p.MinOnTime = int64(c.Late), int64(a.MaxLate), a.MinOnTime
	if cal := c.Calibration; cal != nil {
		p.LateAuto, p.JitterP99NS = true, int64(cal.P99)
	}
}

func (a Arrivals) flags(add func(param, value string)) {
	add("connections", flagInt(a.Connections))
	add("rate", flagFloat(a.Rate))
	arrival := "constant"
	if a.Poisson {
		arrival = "poisson"
	}
	add("arrival", arrival)
	add("max-lateness", flagDur(a.MaxLate))
	add("min-on-time", flagFloat(a.MinOnTime))
}

// runOpen runs the open loop: runs of Duration at Rate (see runs).
func (e *engine) runOpen(ctx context.Context) error {
	s := e.cfg.Settings.(OpenSettings)
	e.connect(s.Connections)
	return e.runs(ctx, s.Repeat, func(ctx context.Context, r int, warmup bool) error {
		ph := &phase{run: r, warmup: warmup, window: s.Duration, rate: s.Rate}
		return e.runPhase(ctx, ph, e.openWork(ph, s.Arrivals, uint64(r)))
	})
}

// pacer returns the phase's schedule; stream separates the runs' and
// steps' Poisson streams of one seed.
func (e *engine) pacer(rate float64, poisson bool, stream uint64) Pacer {
	if poisson {
		return Poisson(rate, streamSeed(e.cfg.Seed, stream))
	}
	return Constant(rate)
}

// streamSeed is the seed of run (or step) stream of a run seeded with seed.
func streamSeed(seed, stream uint64) uint64 { return seed ^ stream*0x9e3779b97f4a7c15 }

// openWork returns the work of an open-loop phase: Connections workers take
// the schedule's sends in turn. A worker that is free waits for its send's
// time; one that was busy past it sends at once, late (or drops the send if
// it is more than MaxLate behind). Latency is measured from the intended
// time, whichever happened.
func (e *engine) openWork(ph *phase, a Arrivals, stream uint64) func(context.Context) {
	return func(ctx context.Context) {
		p := e.cfg.Shard.pacer(e.pacer(ph.rate, a.Poisson, stream)) // the whole run's schedule, this shard's sends
		var wg sync.WaitGroup
		for c := range a.Connections {
			w, err := e.worker(c)
			if err != nil {
				break
			}
			wg.Go(func() { w.openLoop(ctx, ph, p, a.MaxLate) })
		}
		wg.Wait()
	}
}

// connect makes the first n workers and connects them (where the transport
// can), in parallel, before a schedule starts: a send must not wait for a
// handshake. Failures are left for the sends to meet and count.
func (e *engine) connect(n int) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for c := range n {
		w, err := e.worker(c)
		if err != nil {
			return
		}
		if cc, ok := w.conn.(wire.Connecter); ok {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				cc.Connect()
			})
		}
	}
	wg.Wait()
}

func (w *worker) openLoop(ctx context.Context, ph *phase, p Pacer, maxLate time.Duration) {
	e := w.e
	n := int64(len(e.cfg.Requests))
	for ctx.Err() == nil {
		seq, at := p.Next()
		if at >= ph.window {
			return
		}
		i := int(seq % n)
		now := time.Since(ph.base)
		if now >= ph.window {
			// The window is over: a send due in it but not made yet is
			// never made after it (a run lasts its window, plus the
			// answers in flight at its end); it and every send still due
			// are dropped.
			w.dropRest(ph, p, i)
			return
		}
		idle := at > now
		if idle {
			if !w.sl.sleepUntil(ctx, ph.base, at) {
				return
			}
		} else if maxLate > 0 && now-at > maxLate {
			w.rec.Drop(int(e.tmplOf[i]), 1)
			continue
		}
		w.send(ctx, ph, i, at, idle, -1)
	}
}

// dropRest counts as dropped send i and every send of p still due within
// the phase's window: they were due, no connection was free to make them
// before the window closed. The workers share p, so each send is counted
// by one of them.
func (w *worker) dropRest(ph *phase, p Pacer, i int) {
	e := w.e
	n := int64(len(e.cfg.Requests))
	per := make([]int64, e.base)
	per[e.tmplOf[i]]++
	for {
		seq, at := p.Next()
		if at >= ph.window {
			break
		}
		per[e.tmplOf[seq%n]]++
	}
	for t, k := range per {
		if k > 0 {
			w.rec.Drop(t, k)
		}
	}
}
