package drive

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// Run generates the load cfg describes and writes its interval lines (and
// steps, queries) and finally its summary to w; the header is the caller's,
// who knows the command line. It returns the summary and:
//
//   - the context's error (wrapped) when interrupted: the file holds every
//     interval up to then and a summary of status "interrupted";
//   - an *AbortError when the server stopped answering (status "aborted");
//   - a *CheckError when the run completed but failed a check: wrong
//     answers, more errors than MaxErrorRate, an unmet SLO, fewer sends on
//     time than MinOnTime, no capacity (status "failed");
//   - any other error for a failure of the run file itself.
func Run(ctx context.Context, cfg Config, w *runfile.Writer) (*runfile.Summary, error) {
	cfg = cfg.Defaults() // nothing when the caller made cfg Ready
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Cores == 0 {
		cfg.Cores = runtime.GOMAXPROCS(0)
	}
	e := newEngine(cfg, w)
	if cfg.SampleInterval > 0 {
		sides := 1
		if cfg.Partner != nil {
			sides = 2
		}
		var err error
		if e.series, err = newSeries(&cfg, sides); err != nil {
			return nil, err
		}
	}
	e.stmts.delta(ctx) // the baseline
	e.start = time.Now()
	e.lastResp = e.start
	err := e.spec.run(e, ctx) // Validate found the spec
	defer e.closeAll()
	return e.finish(ctx, err)
}

// finish writes the summary.
func (e *engine) finish(ctx context.Context, runErr error) (*runfile.Summary, error) {
	sum := e.sum.Summary()
	sum.End = time.Now()
	sum.ElapsedNS = int64(sum.End.Sub(e.start))
	sum.Status = "ok"
	var nonWarm []*runfile.Interval
	for _, iv := range e.all {
		if !iv.Warmup {
			nonWarm = append(nonWarm, iv)
		}
	}
	sum.DriverLimit, sum.DriverWhy = runfile.DriverLimit(nonWarm, e.cfg.Cores)
	if rp, ok := e.cfg.Repeats(); ok && rp.CI > 0 {
		sum.RunsAuto = runfile.NewRunsAuto(rp.CI, rp.MaxRuns, sum.Throughput)
	}
	if e.spec.summary != nil {
		e.spec.summary(e, sum)
	}
	first, dir, ferr := e.fails.result()
	sum.FirstWrong, sum.Failures = first, dir
	if sum.Total.Errors > 0 {
		sum.LastError = e.errs.lastError()
	}
	sum.Check = e.cfg.Check
	if e.cfg.Layers {
		sum.Layers = e.layersReport() // the text summary says when the server sent none
	}
	if e.cfg.Profiler != nil {
		ps, err := e.cfg.Profiler.Stop(context.WithoutCancel(ctx))
		sum.Profiles = ps
		if err != nil && e.cfg.Log != nil {
			fmt.Fprintf(e.cfg.Log, "load: no profiles: %v\n", err)
		}
	}
	sum.APQMisses = e.apqMisses.Load()
	sum.Connects, sum.ConnectsPerRequest = runfile.ConnectsPerRequest(e.connects.Load(), e.all)
	if ferr != nil && e.cfg.Log != nil {
		fmt.Fprintf(e.cfg.Log, "load: cannot write the failures directory: %v\n", ferr)
	}
	if len(e.cfg.SLO) > 0 {
		sum.SLO = e.cfg.SLO.String()
		if e.spec.SLOAtEnd {
			qet, _, lat := e.sum.Hists()
			if lat == nil {
				lat = qet
			}
			ok, why := e.cfg.SLO.Check(lat)
			sum.SLOMet, sum.SLOWhy = &ok, why
		}
	}
	var abort *AbortError
	switch {
	case runErr != nil && ctx.Err() != nil && errors.Is(runErr, ctx.Err()):
		sum.Status, sum.Reason = "interrupted", context.Cause(ctx).Error()
		runErr = fmt.Errorf("interrupted: %w", runErr)
	case errors.As(runErr, &abort):
		sum.Status, sum.Reason = "aborted", abort.Reason
	case runErr != nil:
		sum.Status, sum.Reason = "failed", runErr.Error()
	default:
		if why := e.checks(sum); why != "" {
			sum.Status, sum.Reason = "failed", why
			runErr = &CheckError{why}
		}
	}
	if err := e.w.Write(sum); err != nil && runErr == nil {
		runErr = fmt.Errorf("run file: %w", err)
	}
	return sum, runErr
}

// checks returns why a completed run failed its checks, or "".
func (e *engine) checks(sum *runfile.Summary) string {
	t := &sum.Total
	switch {
	case t.Wrong > 0:
		why := fmt.Sprintf("%d wrong answers (of %d verified)", t.Wrong, t.Verified)
		if sum.FirstWrong != "" {
			why += "; the first: " + sum.FirstWrong
		}
		return why
	}
	if e.spec.check != nil {
		if why, decided := e.spec.check(e, sum); decided {
			return why
		}
	}
	switch {
	case t.Count == 0:
		return "no request completed"
	case float64(t.Errors) > e.cfg.MaxErrorRate*float64(t.Count):
		why := fmt.Sprintf("%d errors in %d requests (%.2f%%, at most %.2f%% allowed)", t.Errors, t.Count,
			100*float64(t.Errors)/float64(t.Count), 100*e.cfg.MaxErrorRate)
		if len(sum.ErrorReasons) > 0 {
			why += "; " + runfile.ErrorReasonsText(sum.ErrorReasons[:min(3, len(sum.ErrorReasons))])
		}
		return why
	case sum.SLOMet != nil && !*sum.SLOMet:
		return "objective " + sum.SLO + " not met: " + sum.SLOWhy
	}
	return ""
}
