package drive

import (
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
		defaults: func(c *Config) {
			if c.Rate == 0 {
				c.Rate = 100
			}
		},
		validate: func(c *Config) error {
			if len(c.SLO) == 0 {
				return errors.New("a capacity search needs an objective: --slo p99<200ms")
			}
			if c.Rate <= 0 || c.MaxRate < c.Rate || c.Precision <= 0 || c.MaxSteps < 1 {
				return errors.New("a capacity search needs 0 < rate ≤ max rate, a positive precision and steps")
			}
			return nil
		},
		run: (*engine).runCapacity,
		header: func(c *Config, p *runfile.Params) {
			openParams(c, p)
			p.MaxRate, p.Precision = c.MaxRate, c.Precision
		},
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

// runCapacity searches the highest open-loop rate that meets the SLO: it
// doubles the rate from Rate until a step fails, then bisects between the
// best passing and the lowest failing rate until they are within
// Precision. Each step is one run of Duration; its step line is one point
// of the latency–throughput curve.
func (e *engine) runCapacity(ctx context.Context) error {
	lo, hi := 0.0, math.Inf(1)
	rate := e.cfg.Rate
	res := &runfile.Capacity{}
	e.capResult = res
	e.connect(e.cfg.Connections)
	for n := 1; ; n++ {
		if n > e.cfg.MaxSteps {
			res.Limit = "--max-steps reached"
			return nil
		}
		ph := &phase{run: 1, step: n, window: e.cfg.Duration, rate: rate, keep: true}
		probe := startStallProbe()
		err := e.runPhase(ctx, ph, e.openWork(ph, uint64(n)))
		stall := probe.end()
		if err != nil {
			return err
		}
		st := runfile.MakeStep(n, rate, ph.ivs, ph.sum, runfile.StepRules{SLO: e.cfg.SLO, MaxErrorRate: e.cfg.MaxErrorRate,
			MinOnTime: e.cfg.MinOnTime, Cores: e.cfg.Cores})
		if why := machineStalled(stall, e.cfg.SLO); !st.Met && !st.DriverLimit && strings.HasPrefix(st.Why, "SLO ") && why != "" {
			st.DriverLimit, st.Why = true, why
		}
		if err := e.w.Write(st); err != nil {
			return fmt.Errorf("run file: %w", err)
		}
		res.Steps = n
		if e.cfg.Log != nil {
			verdict := "met"
			if !st.Met {
				verdict = "not met: " + st.Why
			}
			fmt.Fprintf(e.cfg.Log, "load: step %d at %.0f/s: %.0f req/s, p99 %v: %s\n", n, rate, st.Throughput,
				time.Duration(st.Latency.P99).Round(time.Microsecond), verdict)
		}
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
			if rate >= e.cfg.MaxRate {
				res.Limit = fmt.Sprintf("the maximum rate %.0f/s met the objective", e.cfg.MaxRate)
				return nil
			}
			rate = min(2*rate, e.cfg.MaxRate)
		case lo == 0:
			rate = hi / 2
			if rate < 1 {
				res.Limit = "not even 1 request/s met the objective"
				return nil
			}
		case hi/lo <= 1+e.cfg.Precision:
			res.Limit = fmt.Sprintf("bracketed within %.0f%%: met at %.0f/s, not at %.0f/s", 100*e.cfg.Precision, lo, hi)
			return nil
		default:
			rate = (lo + hi) / 2
		}
	}
}
