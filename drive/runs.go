package drive

import (
	"context"
	"fmt"

	"github.com/gqlbench/gqlbench/runfile"
)

// runs runs the runs of closed and open mode, one call of run each, r from
// 1: Runs of them, or with CI (--runs auto) as many as it takes to know the
// mean throughput to within ±CI. The first of several runs is a warm-up.
func (e *engine) runs(ctx context.Context, run func(ctx context.Context, r int, warmup bool) error) error {
	for r := 1; ; r++ {
		warmup := r == 1 && (e.cfg.Runs > 1 || e.cfg.CI > 0)
		if err := run(ctx, r, warmup); err != nil {
			return err
		}
		if e.enough(r) {
			return nil
		}
	}
}

// enough says whether r runs are enough. With CI, they are when the 95 %
// confidence interval of the measured runs' mean throughput (Student's t,
// the warm-up excluded) is within ±CI of the mean after at least
// runfile.MinAutoRuns measured runs, or when MaxRuns runs were made.
func (e *engine) enough(r int) bool {
	if e.cfg.CI <= 0 {
		return r >= e.cfg.Runs
	}
	tp := e.sum.Throughput()
	hw := runfile.HalfWidth(tp)
	met := tp.N >= runfile.MinAutoRuns && hw <= e.cfg.CI
	if e.cfg.Log != nil && tp.N >= 2 {
		verdict := "another run"
		switch {
		case met:
			verdict = "enough"
		case r >= e.cfg.MaxRuns:
			verdict = fmt.Sprintf("not reached in %d runs (--max-runs)", e.cfg.MaxRuns)
		case tp.N < runfile.MinAutoRuns:
			verdict = fmt.Sprintf("another run (at least %d)", runfile.MinAutoRuns)
		}
		fmt.Fprintf(e.cfg.Log, "load: runs auto: %d measured runs, %.1f ± %.1f req/s, 95%% CI ±%.1f%% of the mean (target ±%.1f%%): %s\n",
			tp.N, tp.Mean, tp.SD, 100*hw, 100*e.cfg.CI, verdict)
	}
	return met || r >= e.cfg.MaxRuns
}
