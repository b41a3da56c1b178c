package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// Repeat is the runs of a mode whose runs each measure a throughput
// (closed, open, paired): Runs runs of Duration, the first a warm-up when
// there are more than one, or with CI as many as it takes. Its settings
// embed it.
type Repeat struct {
	Duration time.Duration // each run (default 60 s)
	Runs     int           // runs, the first a warm-up when Runs > 1 (default: the mode's)
	// CI, when positive, makes the number of runs automatic (--runs auto):
	// after a warm-up, measured runs are repeated until the 95 %
	// confidence interval of their mean throughput is within ±CI of the
	// mean (0.05: ±5 %), after at least runfile.MinAutoRuns of them, or
	// until MaxRuns runs; Runs is then ignored.
	CI      float64
	MaxRuns int // with CI: runs at most, the warm-up included (default 20)
}

// repeat is the runs of load's flags.
func (p Params) repeat() Repeat {
	return Repeat{Duration: p.Duration, Runs: p.Runs, CI: p.CI, MaxRuns: p.MaxRuns}
}

// repeated is a mode's settings that embed Repeat.
type repeated interface{ repeated() Repeat }

func (r Repeat) repeated() Repeat { return r }

// Repeats returns the runs of c's mode, and false when its settings make
// no repeated runs (sequential, ramp, capacity).
func (c *Config) Repeats() (Repeat, bool) {
	r, ok := c.Settings.(repeated)
	if !ok {
		return Repeat{}, false
	}
	return r.repeated(), true
}

// withDefaults sets the zero fields, runs to the mode's default.
func (r Repeat) withDefaults(runs int) Repeat {
	r.Duration = cmp.Or(r.Duration, 60*time.Second)
	r.Runs = cmp.Or(r.Runs, runs)
	if r.CI > 0 {
		r.MaxRuns = cmp.Or(r.MaxRuns, DefaultMaxRuns)
	}
	return r
}

func (r Repeat) validate() error {
	switch {
	case r.Duration <= 0:
		return errors.New("--duration must be positive")
	case r.Runs < 1:
		return errors.New("--runs must be at least 1")
	case r.CI < 0 || r.CI >= 1:
		return fmt.Errorf("the confidence interval's half-width must be a fraction of the mean in (0, 1), got %g", r.CI)
	case r.CI > 0 && r.MaxRuns < runfile.MinAutoRuns+1:
		return fmt.Errorf("automatic runs need a maximum of at least %d runs (a warm-up and %d measured runs), got %d",
			runfile.MinAutoRuns+1, runfile.MinAutoRuns, r.MaxRuns)
	}
	return nil
}

// header records each run's length and how many runs were asked for:
// Runs, or --runs auto's target and limit.
func (r Repeat) header(p *runfile.Params) {
	p.DurationNS = int64(r.Duration)
	if r.CI > 0 {
		p.CI, p.MaxRuns = r.CI, r.MaxRuns
		return
	}
	p.Runs = r.Runs
}

func (r Repeat) flags(add func(param, value string)) {
	add("duration", flagDur(r.Duration))
	if r.CI > 0 {
		add("runs", "auto")
	} else {
		add("runs", flagInt(r.Runs))
	}
	add("ci", flagFloat(r.CI))
	add("max-runs", flagInt(r.MaxRuns))
}

// runs runs the runs of r, one call of run each, from 1: Runs of them, or
// with CI (--runs auto) as many as it takes to know the mean throughput to
// within ±CI. The first of several runs is a warm-up.
func (e *engine) runs(ctx context.Context, rp Repeat, run func(ctx context.Context, r int, warmup bool) error) error {
	for r := 1; ; r++ {
		warmup := r == 1 && (rp.Runs > 1 || rp.CI > 0)
		if err := run(ctx, r, warmup); err != nil {
			return err
		}
		if e.enough(rp, r) {
			return nil
		}
	}
}

// enough says whether r runs are enough. With CI, they are when the 95 %
// confidence interval of the measured runs' mean throughput (Student's t,
// the warm-up excluded) is within ±CI of the mean after at least
// runfile.MinAutoRuns measured runs, or when MaxRuns runs were made.
func (e *engine) enough(rp Repeat, r int) bool {
	if rp.CI <= 0 {
		return r >= rp.Runs
	}
	tp := e.sum.Throughput()
	hw := runfile.HalfWidth(tp)
	met := tp.N >= runfile.MinAutoRuns && hw <= rp.CI
	if e.cfg.Log != nil && tp.N >= 2 {
		verdict := "another run"
		switch {
		case met:
			verdict = "enough"
		case r >= rp.MaxRuns:
			verdict = fmt.Sprintf("not reached in %d runs (--max-runs)", rp.MaxRuns)
		case tp.N < runfile.MinAutoRuns:
			verdict = fmt.Sprintf("another run (at least %d)", runfile.MinAutoRuns)
		}
		fmt.Fprintf(e.cfg.Log, "load: runs auto: %d measured runs, %.1f ± %.1f req/s, 95%% CI ±%.1f%% of the mean (target ±%.1f%%): %s\n",
			tp.N, tp.Mean, tp.SD, 100*hw, 100*rp.CI, verdict)
	}
	return met || r >= rp.MaxRuns
}
