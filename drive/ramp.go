package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

func init() {
	registerMode(ModeSpec{
		Name:   Ramp,
		Traits: runfile.Traits{Order: 4, Users: true},
		Help: `closed-loop users added at --ramp-rate per second (with --think) until errors,
wrong answers or --slo break, up to --max-clients, within --duration`,
		Params: []string{"duration", "think", "ramp-rate", "max-clients", "late"},
		settings: func(p Params) Settings {
			return RampSettings{Duration: p.Duration, Think: p.Think, RampRate: p.RampRate, MaxClients: p.MaxClients}
		},
		run:     (*engine).runRamp,
		summary: func(e *engine, s *runfile.Summary) { s.Ramp = e.rampResult() },
		// A ramp runs until something breaks: its errors are its result.
		check: func(*engine, *runfile.Summary) (string, bool) { return "", true },
		label: func(_ *phase, users int) string { return fmt.Sprintf("%d users", users) },
	})
}

// RampSettings are ramp mode's: closed-loop users added at a rate.
type RampSettings struct {
	Duration   time.Duration // the ramp at most (default 60 s)
	Think      time.Duration // think time after each answer, uniform in [0, Think]
	RampRate   float64       // users added per second (default 20: seed 003's)
	MaxClients int           // users at most (default 1000)
}

func (s RampSettings) withDefaults() Settings {
	s.Duration = cmp.Or(s.Duration, 60*time.Second)
	s.RampRate = cmp.Or(s.RampRate, 20)
	s.MaxClients = cmp.Or(s.MaxClients, 1000)
	return s
}

func (s RampSettings) validate(*Config) error {
	switch {
	case s.Duration <= 0:
		return errors.New("--duration must be positive")
	case s.Think < 0:
		return errors.New("--think must not be negative")
	case s.RampRate <= 0 || s.MaxClients < 1:
		return errors.New("a ramp needs a positive rate of users and maximum of users")
	}
	return nil
}

func (s RampSettings) header(c *Config, p *runfile.Params) {
	p.DurationNS, p.ThinkNS, p.RampRate, p.MaxClients = int64(s.Duration), int64(s.Think), s.RampRate, s.MaxClients
	p.LateNS = int64(c.Late)
}

func (s RampSettings) flags(add func(param, value string)) {
	add("duration", flagDur(s.Duration))
	add("think", flagDur(s.Think))
	add("ramp-rate", flagFloat(s.RampRate))
	add("max-clients", flagInt(s.MaxClients))
}

// runRamp adds closed-loop users (with think time) at RampRate per second,
// up to MaxClients, until an interval has more errors than MaxErrorRate,
// wrong answers, a broken SLO or a saturated load generator, or Duration
// ends. The summary tells the best interval's throughput before the stop.
func (e *engine) runRamp(ctx context.Context) error {
	s := e.cfg.Settings.(RampSettings)
	ph := &phase{run: 1, window: s.Duration, think: s.Think, stop: e.rampStop}
	return e.runPhase(ctx, ph, func(ctx context.Context) {
		var wg sync.WaitGroup
		defer wg.Wait()
		var sl sleeper
		for u := range s.MaxClients {
			at := time.Duration(math.Round(float64(u) / s.RampRate * 1e9))
			if at >= ph.window || !sl.sleep(ctx, at-time.Since(ph.base)) {
				return
			}
			w, err := e.worker(u)
			if err != nil {
				return
			}
			e.users.Add(1)
			sh := rotation(u, len(e.cfg.Requests))
			rng := e.rng(u, 1, 0)
			wg.Go(func() { w.closedLoop(ctx, ph, sh, rng) })
		}
	})
}

// rampStop says why a ramp stops after interval iv, or "".
func (e *engine) rampStop(iv *runfile.Interval) string {
	if iv.Tail {
		return ""
	}
	var n, errs, wrong int64
	for _, t := range iv.Templates {
		n += t.Count
		errs += t.Errors
		wrong += t.Wrong
	}
	switch {
	case wrong > 0:
		return fmt.Sprintf("%d wrong answers at %d users", wrong, iv.Users)
	case errs > 0 && float64(errs) > e.cfg.MaxErrorRate*float64(n):
		return fmt.Sprintf("%d errors in %d requests at %d users", errs, n, iv.Users)
	}
	if limited, why := runfile.DriverLimit([]*runfile.Interval{iv}, e.cfg.Cores); limited {
		return "the load generator is the bottleneck at " + fmt.Sprint(iv.Users) + " users: " + why
	}
	if len(e.cfg.SLO) > 0 && n > 0 {
		var qet *measure.Hist
		for _, t := range iv.Templates {
			measure.AddHist(&qet, t.QETHist)
		}
		var h *hdrHist
		if qet != nil {
			h = qet.Histogram()
		}
		if ok, why := e.cfg.SLO.Check(h); !ok {
			return fmt.Sprintf("objective %s broken at %d users: %s", e.cfg.SLO, iv.Users, why)
		}
	}
	return ""
}

// rampResult is the ramp's outcome: the best interval before the stop.
func (e *engine) rampResult() *runfile.Ramp {
	ivs := e.all
	if e.stopped != "" {
		// the interval that broke the ramp does not count as reached
		ivs = e.all[:e.stoppedAt-1]
	}
	r := runfile.RampOf(ivs)
	r.MaxUsers = int(e.users.Load())
	r.Stop = e.stopped
	if r.Stop == "" {
		r.Stop = "the duration ended without failure"
		if r.MaxUsers >= e.cfg.Settings.(RampSettings).MaxClients {
			r.Stop = "all users added without failure"
		}
	}
	return r
}
