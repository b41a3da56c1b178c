package experiment

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// Soak is seed 003's memory profile test: Users closed-loop users, each
// sending a single-object query at most Think apart, Requests each (or
// for Duration), against each variant; the server's memory sampled through
// a warm-up, a baseline, the load and a settle period after it, and a leak
// verdict from a Theil–Sen slope with its confidence interval over the live
// heap after each GC (RSS for the peers), with the check that the server
// returns to its pre-test state once the load stops.
type Soak struct {
	Common
	SF       int
	Variants []string
	Pool     int
	Users    int
	Requests int           // per user (seed 003: 10,000)
	Think    time.Duration // at most this apart (seed 003: 30 ms)
	Duration time.Duration // the load's length; 0: from Requests
	Warmup   time.Duration // a load before the baseline, not fitted
	Settle   time.Duration // sampled after the load
	Sample   time.Duration // the memory timeline's step
	// FitFrom is the share of the load left out of the fit at its start:
	// the heap grows to its working size first.
	FitFrom float64
	// MinLeakRate is the slope, in bytes per hour, below which a
	// significant rise is not called a leak (0: any significant rise).
	MinLeakRate float64
	// Tolerance is how far above its baseline the settled memory may be
	// and still count as back to its pre-test state (a fraction; at least
	// 1 MiB for the live heap).
	Tolerance float64
	Level     float64 // of the slope's interval (0.95)
	// LeakBytes makes the Go servers leak this many bytes per request on
	// purpose (serve --leak-bytes-per-request): the verdict's self-test.
	LeakBytes int
}

func init() {
	Register(Experiment{
		Name:     "soak",
		Summary:  "seed 003's memory soak: 15 users × 10,000 single-object queries, heap and GC sampled through and after, a leak verdict (Theil–Sen slope, 95 % CI)",
		Synopsis: soakSynopsis,
		Dir:      "gqlbench-soak",
		Quick:    [][2]string{{"requests", "1200"}, {"warmup", "3s"}, {"settle", "5s"}, {"sample", "250ms"}},
		Flags:    soakFlags,
	})
}

const soakSynopsis = `experiment soak [--variants batch] [--users 15] [--requests 10000 | --duration 1h] [--think 30ms] [--settle 30s] [--quick] [flags]

Seed 003's memory profile test: --users closed-loop users, each sending a
single-object query (faculty(nr), verified) at most --think apart (uniform
in [0, think]), --requests each (the load lasts as long as the warm-up's
pace takes for them, or requests × think/2 without a warm-up; the report
gives the requests made) or for --duration. Each variant's server is sampled every --sample through a
--warmup load, a baseline (after a forced GC), the load and --settle after
it: RSS and CPU, and for gqlbench's Go servers the runtime's own heap in
use, live heap, live objects and GC cycles (docs/suite.md). The verdict,
one line per variant: "leak: no" or "leak: yes" with the Theil–Sen slope of
the live heap after each GC over the load (RSS for the peers; the first
--fit-from of it left out) and its --level confidence interval, and
whether the server returned to its pre-test state. --quick: 1,200 requests
per user (about 20 s of load), 3 s warm-up, 5 s settle.`

func soakFlags(fs *flag.FlagSet) Setup {
	var e Soak
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", "batch", "comma-separated server variants (peers too, on PostgreSQL)")
	fs.IntVar(&e.Pool, "pool", 10, "database connections of each server")
	fs.IntVar(&e.Users, "users", 15, "closed-loop users (seed 003: 15)")
	fs.IntVar(&e.Requests, "requests", 10000, "requests per user (seed 003: 10,000); ignored with --duration")
	fs.DurationVar(&e.Think, "think", 30*time.Millisecond, "each user's requests at most this apart (uniform think time; seed 003: 30ms)")
	fs.DurationVar(&e.Duration, "duration", 0, "the load's length, for long soaks (e.g. 1h); 0: from --requests")
	fs.DurationVar(&e.Warmup, "warmup", 10*time.Second, "a load before the baseline, left out of the verdict")
	fs.DurationVar(&e.Settle, "settle", 30*time.Second, "how long the server is watched after the load")
	fs.DurationVar(&e.Sample, "sample", time.Second, "the memory timeline's step")
	fs.Float64Var(&e.FitFrom, "fit-from", 0.1, "the share of the load at its start left out of the slope's fit")
	fs.Float64Var(&e.MinLeakRate, "min-leak-rate", 0, "bytes per hour below which a significant rise is no leak (0: any)")
	fs.Float64Var(&e.Tolerance, "tolerance", 0.1, "how far above its baseline the settled memory may stay (a fraction)")
	fs.Float64Var(&e.Level, "level", 0.95, "the confidence level of the slope's interval")
	fs.IntVar(&e.LeakBytes, "leak-bytes-per-request", 0, "testing the verdict: the Go servers keep this many bytes per request (a known leak)")
	return newSetup(&e, func() error {
		e.SF = int(sf)
		var err error
		e.Variants, err = parseVariants(*variants)
		return err
	})
}

func (e *Soak) check() error {
	switch {
	case e.Users < 1 || e.Pool < 1:
		return usagef("--users and --pool must be at least 1")
	case e.Duration == 0 && e.Requests < 1:
		return usagef("--requests must be at least 1 (or give --duration)")
	case e.Duration < 0 || e.Think < 0 || e.Warmup < 0 || e.Settle < 0:
		return usagef("--duration, --think, --warmup and --settle must not be negative")
	case e.Duration == 0 && e.Think == 0:
		return usagef("--requests needs a --think time to set the load's length; or give --duration")
	case e.Sample < 10*time.Millisecond:
		return usagef("--sample must be at least 10ms")
	case e.FitFrom < 0 || e.FitFrom >= 1:
		return usagef("--fit-from must be in [0, 1)")
	case e.Level <= 0.5 || e.Level >= 1:
		return usagef("--level must be in (0.5, 1)")
	case e.Tolerance < 0 || e.MinLeakRate < 0 || e.LeakBytes < 0:
		return usagef("--tolerance, --min-leak-rate and --leak-bytes-per-request must not be negative")
	}
	return nil
}

func (e *Soak) defaults() {
	e.SF = max(e.SF, 1)
	if len(e.Variants) == 0 {
		e.Variants = []string{"batch"}
	}
	e.Users, e.Pool = max(e.Users, 1), max(e.Pool, 1)
	e.Sample = orDefault(e.Sample, time.Second)
	if e.Level == 0 {
		e.Level = 0.95
	}
}

// loadDuration is the load's length: Duration, or Requests at the mean
// think time.
func (e Soak) loadDuration() time.Duration {
	if e.Duration > 0 {
		return e.Duration
	}
	return time.Duration(e.Requests) * e.Think / 2
}

// Run runs the experiment.
func (e Soak) Run(ctx context.Context) (*Result, error) {
	e.defaults()
	return runPerVariant(ctx, "soak", e.Common, e.run, func(rs []*soakResult) report.Section { return soakSection(e, rs) })
}

func (e Soak) run(ctx context.Context, s *session, dbs *databases, results *[]*soakResult) error {
	url, qf, unpin, err := healthStart(ctx, s, dbs, e.Variants, e.config(), e.notes(), e.SF, 20, false)
	if err != nil {
		return err
	}
	defer unpin()
	for _, v := range e.Variants {
		r, err := e.variant(ctx, s, v, url, dbs.kind, qf)
		if r != nil {
			*results = append(*results, r)
			line := r.verdictLine()
			fmt.Fprintf(s.Out, "%s %s\n", v, line)
			// a leak fails, and so does a Go server's live heap not back at
			// its baseline (a peer's RSS is said, not judged: a runtime
			// rarely gives its memory back to the system)
			if r.leak || r.goRuntime && r.settled && !r.returned {
				s.checks = append(s.checks, fmt.Sprintf("soak %s: %s", v, line))
			}
			for _, vd := range r.verdicts(e) {
				s.verdict(vd)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// variant soaks one server: warm-up, baseline, load, settle.
func (e Soak) variant(ctx context.Context, s *session, v, url, db string, qf *queryfile.File) (*soakResult, error) {
	var args []string
	if e.LeakBytes > 0 && isGoVariant(v) {
		args = []string{"--leak-bytes-per-request", strconv.Itoa(e.LeakBytes)}
	}
	srv, err := s.tryServerArgs(ctx, v, url, e.Pool, "soak-"+v, args)
	if srv == nil {
		return nil, err
	}
	defer s.stopServer(srv)
	entries := byLabel(qf.Entries, labelRead)
	if err := s.preflightEntries(ctx, srv, entries); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.serverFailed(srv, fmt.Errorf("%s: %w", v, err))
		return nil, nil
	}
	if srv.GoRuntime() {
		if err := metricsReachable(ctx, srv); err != nil {
			s.serverFailed(srv, err)
			return nil, nil
		}
	}
	tl, err := watchMemory(srv, e.Sample, timelinePath(s, "soak-"+v))
	if err != nil {
		return nil, err
	}
	r := &soakResult{variant: v, goRuntime: srv.GoRuntime(), users: e.Users}
	load := func(name, what string, d time.Duration, into func(*runfile.Summary)) error {
		series := v
		if strings.HasSuffix(name, "-warmup") { // a series of its own: not a measured run of the soak's
			series += " warm-up"
		}
		err := s.run(ctx, srv, runSpec{name: name, what: what, queries: qf, entries: entries, mode: drive.Closed,
			clients: e.Users, duration: d, runs: 1, think: e.Think, labels: labels(series, e.SF, e.Pool, e.Users, "soak", db),
			done: func(_ string, sum *runfile.Summary) { into(sum) }})
		return err
	}
	err = e.phases(ctx, s, srv, tl, r, load)
	pts, cerr := tl.end()
	r.points = pts
	if err == nil && cerr != nil {
		err = cerr
	}
	if len(pts) > 0 {
		r.judge(e)
	}
	if err == errSkip {
		return r, nil
	}
	return r, err
}

// phases runs the warm-up, the baseline, the load and the settle period.
func (e Soak) phases(ctx context.Context, s *session, srv *Server, tl *timeline, r *soakResult,
	load func(name, what string, d time.Duration, into func(*runfile.Summary)) error) error {
	v := srv.Spec.Variant
	if e.Warmup > 0 {
		tl.setPhase("warm-up")
		if err := load("soak-"+v+"-warmup", v+" warm-up", e.Warmup, func(sum *runfile.Summary) { r.warmRate = sum.Throughput.Mean }); err != nil {
			return err
		}
	}
	tl.setPhase("baseline")
	if err := sleepCtx(ctx, min(2*time.Second, max(e.Sample*2, time.Second))); err != nil {
		return err
	}
	r.baseline = tl.sample(true)
	tl.setPhase("load")
	r.loadFrom = time.Since(tl.start).Seconds()
	d := e.loadDuration()
	if e.Duration == 0 && r.warmRate > 0 { // a user's cycle as the warm-up measured it: think, answer, the timers' own delay
		d = time.Duration(float64(e.Requests*e.Users) / r.warmRate * float64(time.Second))
	}
	err := load("soak-"+v, fmt.Sprintf("%s soak %d users, %v", v, e.Users, d.Round(time.Second)), d, func(sum *runfile.Summary) { r.sum = sum })
	r.loadTo = time.Since(tl.start).Seconds()
	if err != nil {
		return err
	}
	tl.setPhase("settle")
	if err := sleepCtx(ctx, e.Settle); err != nil {
		return err
	}
	r.after = tl.sample(true)
	r.settled = true
	return nil
}

// isGoVariant says whether v is one of gqlbench's own Go variants.
func isGoVariant(v string) bool {
	return (&Server{Spec: ServerSpec{Variant: v}}).GoRuntime()
}

// config discloses the parameters.
func (e Soak) config() [][2]string {
	length := fmt.Sprintf("%d requests per user at most %v apart: as long as the warm-up's pace takes for them (%v at the mean think time %v alone)", e.Requests, e.Think, e.loadDuration(), e.Think/2)
	if e.Duration > 0 {
		length = fmt.Sprintf("%v, requests at most %v apart", e.Duration, e.Think)
	}
	c := [][2]string{
		{"scale factor", strconv.Itoa(e.SF)},
		{"variants", strings.Join(e.Variants, ", ")},
		{"users", fmt.Sprintf("%d closed-loop users (seed 003: 15), one connection each, a single-object query (%s)", e.Users, labelRead)},
		{"load", length},
		{"phases", fmt.Sprintf("warm-up %v, baseline (forced GC), load, settle %v (forced GC at its end); sampled every %v", e.Warmup, e.Settle, e.Sample)},
		{"leak verdict", fmt.Sprintf("Theil–Sen slope of the live heap after each GC (RSS for the peers) over the load after its first %.0f %%, with Sen's %.0f %% interval (widened for autocorrelation); a leak when the interval lies above 0 and the slope is at least %s/h", 100*e.FitFrom, 100*e.Level, mib(e.MinLeakRate))},
		{"return to the pre-test state", fmt.Sprintf("the live heap after the settle period and a forced GC at most %.0f %% (and 1 MiB) above the baseline's (RSS for the peers)", 100*e.Tolerance)},
		{"connection pool", strconv.Itoa(e.Pool)},
	}
	if e.LeakBytes > 0 {
		c = append(c, [2]string{"injected leak", fmt.Sprintf("%d bytes per request kept by the Go servers (--leak-bytes-per-request): the verdict's self-test", e.LeakBytes)})
	}
	return c
}

func (e Soak) notes() []string {
	return []string{
		"Seed 003's memory profile test (GraphQL ASP.NET, dotMemory): 15 users × 10,000 requests at most 30 ms apart; its expectations: steady allocation, few survivors, and the server back to its pre-test steady state once the load ends. gqlbench adds a leak verdict from a regression over the samples, not from eyeballing a chart.",
		"The Go runtime updates the live heap at each GC's end; the fit takes one point per GC cycle (the first sample after it), as HPjmeter fits the heap after each collection. The baseline and the settled reading are taken after a forced GC (/debug/metrics?gc=1), never during the load.",
	}
}

// mib writes bytes as MiB.
func mib(b float64) string { return fmt.Sprintf("%.2f MiB", b/(1<<20)) }
