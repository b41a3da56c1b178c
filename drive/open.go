package drive

import (
	"context"
	"errors"
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
		Params: []string{"connections", "duration", "runs", "ci", "max-runs", "rate", "arrival", "late", "max-lateness", "min-on-time"},
		validate: func(c *Config) error {
			if c.Rate <= 0 {
				return errors.New("open loop needs a rate: --rate R (requests per second)")
			}
			return nil
		},
		run: (*engine).runOpen,
		header: func(c *Config, p *runfile.Params) {
			openParams(c, p)
			runsParams(c, p)
		},
		check: func(e *engine, s *runfile.Summary) (string, bool) {
			if e.cfg.MinOnTime > 0 && s.OnTime != nil && *s.OnTime < e.cfg.MinOnTime {
				return runfile.OnTimeWhy(*s.OnTime, e.cfg.MinOnTime), true
			}
			return "", false
		},
	})
}

// openParams records the parameters open loop and capacity search share.
func openParams(c *Config, p *runfile.Params) {
	p.Connections, p.DurationNS, p.Rate, p.Arrival = c.Connections, int64(c.Duration), c.Rate, "constant"
	if c.Poisson {
		p.Arrival = "poisson"
	}
	p.LateNS, p.MaxLateNS, p.MinOnTime = int64(c.Late), int64(c.MaxLate), c.MinOnTime
	if cal := c.Calibration; cal != nil {
		p.LateAuto, p.JitterP99NS = true, int64(cal.P99)
	}
}

// runOpen runs the open loop: runs of Duration at Rate (see runs).
func (e *engine) runOpen(ctx context.Context) error {
	e.connect(e.cfg.Connections)
	return e.runs(ctx, func(ctx context.Context, r int, warmup bool) error {
		ph := &phase{run: r, warmup: warmup, window: e.cfg.Duration, rate: e.cfg.Rate}
		return e.runPhase(ctx, ph, e.openWork(ph, uint64(r)))
	})
}

// pacer returns the phase's schedule; stream separates the runs' and
// steps' Poisson streams of one seed.
func (e *engine) pacer(rate float64, stream uint64) Pacer {
	if e.cfg.Poisson {
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
func (e *engine) openWork(ph *phase, stream uint64) func(context.Context) {
	return func(ctx context.Context) {
		p := e.pacer(ph.rate, stream)
		var wg sync.WaitGroup
		for c := range e.cfg.Connections {
			w, err := e.worker(c)
			if err != nil {
				break
			}
			wg.Go(func() { w.openLoop(ctx, ph, p) })
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

func (w *worker) openLoop(ctx context.Context, ph *phase, p Pacer) {
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
		} else if e.cfg.MaxLate > 0 && now-at > e.cfg.MaxLate {
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
