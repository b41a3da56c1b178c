package experiment

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// MaxThroughput is seed 003's max throughput test: closed-loop users added
// at RampRate per second, each sending a single-object query every 0–Think,
// against each variant until failure — errors, wrong answers, timeouts (an
// error), the SLO broken — or the load generator's own limit, or
// MaxUsers, or Duration. It reports the summed throughput just before the
// failure, the users then, why it stopped, the server's CPU and memory at
// that point, and whether the load generator was the limit.
type MaxThroughput struct {
	Common
	SF           int
	Variants     []string
	Pool         int
	RampRate     float64       // users added per second (seed 003: 20)
	Think        time.Duration // each user's requests every 0–Think (seed 003: 15 ms)
	MaxUsers     int
	Duration     time.Duration // the ramp at most
	Warmup       time.Duration // a closed-loop load before the ramp: a cold server's first seconds are not its capacity
	SLO          measure.SLO   // a failure too (none: errors and wrong answers only)
	MaxErrorRate float64
}

func init() {
	Register(Experiment{
		Name:     "max-throughput",
		Summary:  "seed 003: +20 users/s, a query every 0–15 ms, until failure; the throughput before it, why it stopped, the server's CPU and memory, and whether the load generator was the limit",
		Synopsis: maxThroughputSynopsis,
		Dir:      "gqlbench-max-throughput",
		Quick:    [][2]string{{"duration", "30s"}, {"max-users", "600"}, {"warmup", "2s"}},
		Flags:    maxThroughputFlags,
	})
}

const maxThroughputSynopsis = `experiment max-throughput [--variants batch] [--ramp-rate 20] [--think 15ms] [--max-users 2000] [--duration 2m] [--slo 'p99<1s'] [--max-error-rate 0] [--quick] [flags]

Seed 003's max throughput test: closed-loop users, each with a connection
and a single-object query (faculty(nr), verified) every 0–--think, added at
--ramp-rate per second (load --mode ramp), after a --warmup of 10 users,
until failure: wrong answers,
errors above --max-error-rate (timeouts included), the --slo broken on an
interval — or the load generator itself saturating (its CPU, or its sends
late), or --max-users, or --duration. Per variant: the summed throughput of
the best interval before the failure, the users then and at the stop, why
it stopped, the server's CPU, RSS and heap at that point, and the load
generator's CPU and lateness: when the generator was the limit, the figure
is a lower bound of the server's (seed 003 "ran out of client machines").
--quick: a 2 s warm-up, at most 30 s and 600 users.`

func maxThroughputFlags(fs *flag.FlagSet) Setup {
	var e MaxThroughput
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", "batch", "comma-separated server variants (peers too, on PostgreSQL)")
	fs.IntVar(&e.Pool, "pool", 10, "database connections of each server")
	fs.Float64Var(&e.RampRate, "ramp-rate", 20, "users added per second (seed 003: 20)")
	fs.DurationVar(&e.Think, "think", 15*time.Millisecond, "each user's next query 0 to this after an answer (seed 003: 0–15 ms)")
	fs.IntVar(&e.MaxUsers, "max-users", 2000, "users at most")
	fs.DurationVar(&e.Duration, "duration", 2*time.Minute, "the ramp at most")
	fs.DurationVar(&e.Warmup, "warmup", 5*time.Second, "a closed-loop load of 10 users before the ramp (its own run file), so that the ramp meets a warm server (0: none)")
	slo := fs.String("slo", "p99<1s", "a latency objective whose breach on an interval is a failure, e.g. 'p99<500ms' (\"\": none)")
	fs.Float64Var(&e.MaxErrorRate, "max-error-rate", 0, "the share of an interval's requests that may fail before it counts as a failure (0: any error)")
	return newSetup(&e, func() error {
		e.SF = int(sf)
		var err error
		if e.Variants, err = parseVariants(*variants); err != nil {
			return err
		}
		if strings.TrimSpace(*slo) != "" {
			if e.SLO, err = measure.ParseSLO(*slo); err != nil {
				return usagef("--slo: %v", err)
			}
		}
		return nil
	})
}

func (e *MaxThroughput) check() error {
	switch {
	case e.RampRate <= 0 || e.MaxUsers < 1 || e.Pool < 1:
		return usagef("--ramp-rate must be positive, --max-users and --pool at least 1")
	case e.Think < 0 || e.Warmup < 0 || e.Duration <= 0:
		return usagef("--think and --warmup must not be negative, --duration must be positive")
	case e.MaxErrorRate < 0 || e.MaxErrorRate >= 1:
		return usagef("--max-error-rate must be in [0, 1)")
	}
	return nil
}

func (e *MaxThroughput) defaults() {
	e.SF = max(e.SF, 1)
	if len(e.Variants) == 0 {
		e.Variants = []string{"batch"}
	}
	if e.RampRate <= 0 {
		e.RampRate = 20
	}
	e.MaxUsers, e.Pool = max(e.MaxUsers, 1), max(e.Pool, 1)
	e.Duration = orDefault(e.Duration, 2*time.Minute)
}

// Run runs the experiment.
func (e MaxThroughput) Run(ctx context.Context) (*Result, error) {
	e.defaults()
	return runPerVariant(ctx, "max-throughput", e.Common, e.run, func(rs []*mtResult) report.Section { return maxThroughputSection(e, rs) })
}

func (e MaxThroughput) run(ctx context.Context, s *session, dbs *databases, results *[]*mtResult) error {
	url, qf, unpin, err := healthStart(ctx, s, dbs, e.Variants, e.config(), e.notes(), e.SF, 50, false)
	if err != nil {
		return err
	}
	defer unpin()
	for _, v := range e.Variants {
		r, err := e.variant(ctx, s, v, url, dbs.kind, qf)
		if r != nil {
			*results = append(*results, r)
			fmt.Fprintf(s.Out, "%s %s\n", v, r.line())
			if r.wrong > 0 {
				s.checks = append(s.checks, fmt.Sprintf("max-throughput %s: %d wrong answers (%s)", v, r.wrong, r.path))
			}
			for _, vd := range r.verdicts() {
				s.verdict(vd)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// variant ramps one server until it fails.
func (e MaxThroughput) variant(ctx context.Context, s *session, v, url, db string, qf *queryfile.File) (*mtResult, error) {
	srv, err := s.tryServer(ctx, v, url, e.Pool, "max-throughput-"+v)
	if srv == nil {
		return nil, err
	}
	defer s.stopServer(srv)
	entries := byLabel(qf.Entries, labelRead)
	if e.Warmup > 0 {
		const users = 10
		err := s.run(ctx, srv, runSpec{name: "mt-" + v + "-warmup", what: v + " warm-up", queries: qf, entries: entries, mode: drive.Closed,
			clients: users, duration: e.Warmup, runs: 1, think: e.Think, check: true, labels: labels(v+" warm-up", e.SF, e.Pool, users, "max-throughput", db)})
		if err == errSkip {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
	var r *mtResult
	err = s.run(ctx, srv, runSpec{name: "mt-" + v, what: v + " ramp", queries: qf, entries: entries,
		mode: drive.Ramp, duration: e.Duration, think: e.Think, rampRate: e.RampRate, maxClients: e.MaxUsers, slo: e.SLO,
		labels: labels(v, e.SF, e.Pool, e.MaxUsers, "max-throughput", db),
		done:   func(path string, sum *runfile.Summary) { r = mtResultOf(v, path, sum, s.loadCores(), s.serverCores()) }})
	if err == errSkip {
		return r, nil
	}
	return r, err
}

// config discloses the parameters.
func (e MaxThroughput) config() [][2]string {
	slo := "none (errors and wrong answers only)"
	if len(e.SLO) > 0 {
		slo = e.SLO.String()
	}
	return [][2]string{
		{"scale factor", strconv.Itoa(e.SF)},
		{"variants", strings.Join(e.Variants, ", ")},
		{"ramp", fmt.Sprintf("closed-loop users, one connection each, a single-object query (%s) every 0–%v after each answer, %g users added per second (seed 003: 20), at most %d users and %v", labelRead, e.Think, e.RampRate, e.MaxUsers, e.Duration)},
		{"failure", fmt.Sprintf("an interval with a wrong answer, errors above %g of its requests (timeouts at %v included), or the objective %s broken; the load generator's own limit stops the ramp too, as its own", e.MaxErrorRate, e.Timeout, slo)},
		{"connection pool", strconv.Itoa(e.Pool)},
	}
}

func (e MaxThroughput) notes() []string {
	return []string{
		"Seed 003's max throughput test (GraphQL ASP.NET): 20 new users a second, each a query every 0–15 ms, until the server denies requests or fails; the throughput of each load generator summed just before the failure. Its only result, 57,919 req/s, was cut short when it ran out of client machines (the server at 5 % CPU): gqlbench says when its load generator is the limit, from its own CPU and its late sends.",
	}
}
