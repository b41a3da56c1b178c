package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

func init() {
	registerMode(ModeSpec{
		Name:           Capacity,
		Traits:         runfile.Traits{Order: 5, Curve: runfile.CurveSteps, Corrected: true},
		statusIsAnswer: true,
		Help: `the highest open-loop rate meeting --slo (e.g. p99<200ms): doubling from
--rate, then bisection to --precision; each step lasts --duration`,
		Params: []string{"connections", "duration", "rate", "arrival", "max-rate", "precision", "max-steps", "late", "max-lateness", "min-on-time"},
		settings: func(p Params) Settings {
			return CapacitySettings{Arrivals: p.arrivals(), Duration: p.Duration, MaxRate: p.MaxRate, Precision: p.Precision, MaxSteps: p.MaxSteps}
		},
		run:     (*engine).runCapacity,
		summary: func(e *engine, s *runfile.Summary) { s.Capacity = e.capResult },
		check: func(e *engine, s *runfile.Summary) (string, bool) {
			if c := s.Capacity; c != nil && c.Invalid != "" {
				return fmt.Sprintf("no capacity measured: %s (the objective was met up to %.0f/s: a lower bound)", c.Invalid, c.AtLeast), true
			}
			if s.Capacity == nil || s.Capacity.Rate == 0 {
				return "no rate met the objective " + e.cfg.SLO.String(), true
			}
			return "", true
		},
	})
}

// CapacitySettings are capacity mode's: a search over open-loop rates,
// each step a schedule (Arrivals; its Rate the first step's, default 100)
// of Duration (default 60 s), for the highest that meets the SLO.
type CapacitySettings struct {
	Arrivals
	Duration  time.Duration // each step
	MaxRate   float64       // the highest rate tried (default 10⁶)
	Precision float64       // stop when the bracket's hi/lo ≤ 1+Precision (default 0.05)
	MaxSteps  int           // steps at most (default 20)
}

func (s CapacitySettings) withDefaults() Settings {
	s.Arrivals = s.Arrivals.withDefaults()
	s.Rate = cmp.Or(s.Rate, 100)
	s.Duration = cmp.Or(s.Duration, 60*time.Second)
	s.MaxRate = cmp.Or(s.MaxRate, 1e6)
	s.Precision = cmp.Or(s.Precision, 0.05)
	s.MaxSteps = cmp.Or(s.MaxSteps, 20)
	return s
}

func (s CapacitySettings) validate(c *Config) error {
	switch {
	case len(c.SLO) == 0:
		return errors.New("a capacity search needs an objective: --slo p99<200ms")
	case s.Duration <= 0:
		return errors.New("--duration must be positive")
	case s.Rate <= 0 || s.MaxRate < s.Rate || s.Precision <= 0 || s.MaxSteps < 1:
		return errors.New("a capacity search needs 0 < rate ≤ max rate, a positive precision and steps")
	}
	return s.Arrivals.validate()
}

func (s CapacitySettings) header(c *Config, p *runfile.Params) {
	s.Arrivals.header(c, p)
	p.DurationNS, p.MaxRate, p.Precision = int64(s.Duration), s.MaxRate, s.Precision
}

func (s CapacitySettings) flags(add func(param, value string)) {
	s.Arrivals.flags(add)
	add("duration", flagDur(s.Duration))
	add("max-rate", flagFloat(s.MaxRate))
	add("precision", flagFloat(s.Precision))
	add("max-steps", flagInt(s.MaxSteps))
}

// runCapacity searches the highest open-loop rate that meets the SLO: it
// doubles the rate from Rate until a step fails, then bisects between the
// best passing and the lowest failing rate until they are within
// Precision. Each step is one run of Duration; its step line is one point
// of the latency–throughput curve.
func (e *engine) runCapacity(ctx context.Context) error {
	lo, hi := 0.0, math.Inf(1)
	s := e.cfg.Settings.(CapacitySettings)
	rate := s.Rate
	res := &runfile.Capacity{}
	e.capResult = res
	e.connect(s.Connections)
	for n := 1; ; n++ {
		if n > s.MaxSteps {
			res.Limit = "--max-steps reached"
			return nil
		}
		ph := &phase{run: 1, step: n, window: s.Duration, rate: rate, keep: true}
		probe := startStallProbe()
		err := e.runPhase(ctx, ph, e.openWork(ph, s.Arrivals, uint64(n)))
		stall := probe.end()
		if err != nil {
			return err
		}
		st := runfile.MakeStep(n, rate, ph.ivs, ph.sum, runfile.StepRules{SLO: e.cfg.SLO, MaxErrorRate: e.cfg.MaxErrorRate,
			MinOnTime: s.MinOnTime, Cores: e.cfg.Cores})
		if why := machineStalled(stall, e.cfg.SLO); !st.Met && !st.DriverLimit && strings.HasPrefix(st.Why, "SLO ") && why != "" {
			st.DriverLimit, st.Why = true, why
		}
		if err := e.w.Write(st); err != nil {
			return fmt.Errorf("run file: %w", err)
		}
		res.Steps = n
		e.logStep(st)
		if st.Met {
			lo = rate
			res.Rate = rate
		} else {
			hi = rate
		}
		switch {
		case st.DriverLimit:
			// The machine, not the server, failed the step: what passed
			// before is a lower bound, never the server's capacity.
			res.Limit = fmt.Sprintf("the load generator could not offer %.0f/s", rate)
			res.Invalid = "the load generator, not the server, was the limit at " + fmt.Sprintf("%.0f/s: ", rate) + st.Why
			res.AtLeast, res.Rate = res.Rate, 0
			return nil
		case math.IsInf(hi, 1):
			if rate >= s.MaxRate {
				res.Limit = fmt.Sprintf("the maximum rate %.0f/s met the objective", s.MaxRate)
				return nil
			}
			rate = min(2*rate, s.MaxRate)
		case lo == 0:
			rate = hi / 2
			if rate < 1 {
				res.Limit = "not even 1 request/s met the objective"
				return nil
			}
		case hi/lo <= 1+s.Precision:
			res.Limit = fmt.Sprintf("bracketed within %.0f%%: met at %.0f/s, not at %.0f/s", 100*s.Precision, lo, hi)
			return nil
		default:
			rate = (lo + hi) / 2
		}
	}
}

// logStep writes a capacity step's progress line.
func (e *engine) logStep(st *runfile.Step) {
	if e.cfg.Log == nil {
		return
	}
	verdict := "met"
	if !st.Met {
		verdict = "not met: " + st.Why
	}
	fmt.Fprintf(e.cfg.Log, "load: step %d at %.0f/s: %.0f req/s, p99 %v: %s\n", st.Step, st.Rate, st.Throughput,
		time.Duration(st.Latency.P99).Round(time.Microsecond), verdict)
}
