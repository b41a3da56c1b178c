package experiment

import (
	"context"
	"flag"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
)

// Overhead is seed 003's general usage load test: the same single-object
// fetch and single-object mutation through a variant's GraphQL endpoint and
// through a REST control (serve rest's handlers mounted beside it in the
// same process: `serve VARIANT --rest-control`), closed-loop users each a
// request at most Think apart. GraphQL and REST are compared at the same
// arrival rate (open loop at Rate: CPU and GC time), with the same users
// and think time (closed loop: throughput) and at the seed's settings
// (REST at SeedRESTThink), each Runs times in alternation, on the server's
// CPU, its GC time (the Go runtime's own), throughput and latency, with
// seed 003's thresholds as pass/fail lines.
type Overhead struct {
	Common
	SF       int
	Variants []string
	Pool     int
	// Scale multiplies seed 003's users (300 querying, 300 mutating): a
	// 2-core machine cannot run 600 users each a request every 15 ms.
	Scale         float64
	Think         time.Duration // GraphQL's, and REST's at the matched rate (seed 003: 30 ms)
	SeedRESTThink time.Duration // REST's at the seed's settings (seed 003: 15 ms); 0: not run
	Duration      time.Duration // each run
	Warmup        time.Duration // each API's warm-up run, before the measured ones
	// Rate is the matched comparison's arrival rate (open loop, both
	// APIs); 0: MatchedShare of the slower API's warm-up throughput.
	Rate float64
	Runs int // measured runs of each side and setting
	// Thresholds (seed 003's): GraphQL's CPU at most MaxCPU percentage
	// points above REST's, its GC time at most MaxGC points above, its
	// throughput at most MaxDrop percent below.
	MaxCPU, MaxGC, MaxDrop float64
}

// Seed 003's users: 300 querying and 300 mutating.
const seedUsers = 300

func init() {
	Register(Experiment{
		Name:     "overhead",
		Summary:  "seed 003: GraphQL against a REST control in the same process (CPU, GC time, throughput, latency) with pass/fail thresholds",
		Synopsis: overheadSynopsis,
		Dir:      "gqlbench-overhead",
		Quick:    [][2]string{{"scale", "0.02"}, {"duration", "4s"}, {"warmup", "1s"}, {"runs", "2"}},
		Flags:    overheadFlags,
	})
}

const overheadSynopsis = `experiment overhead [--variants batch] [--scale 0.05] [--think 30ms] [--rate R] [--seed-rest-think 15ms] [--duration 20s] [--runs 3] [--max-cpu-increase 5] [--max-gc-increase 1] [--max-throughput-drop 10] [--quick] [flags]

Seed 003's general usage load test: how much a variant's GraphQL layer costs
over a REST control doing the same work in the same process (serve VARIANT
--rest-control mounts serve rest's API beside the GraphQL endpoint: one
runtime, one CPU budget, the same database). Seed 003's users — 300 querying
one object and 300 mutating one, each a request at most 30 ms apart — times
--scale, every answer of both APIs verified. Three comparisons, --runs times
each in alternation: the same arrival rate (open loop at --rate, by default
80 % of the slower API's warm-up throughput: the same requests a second,
so CPU and GC time differ by GraphQL's cost), the same users and think time
(closed loop at --think: how many answers each API gives them), and the
seed's own settings (REST at --seed-rest-think, 15 ms, so REST's users send
twice as often). Reported: the server's CPU utilisation, its GC time (the Go
runtime's own, /debug/metrics), throughput, latency and RSS, GraphQL against
REST with the spread over the runs, and seed 003's thresholds as pass/fail
lines: GraphQL's CPU at most 5 points and its GC time at most 1 point above
REST's at the same rate, its throughput at most 10 % below REST's with the
same users. The peers have no REST control in their process: serve rest
runs beside them as a process of its own, and their GC time is not
measured. --quick: 6 + 6 users, 2 rounds of 4 s runs, about a minute.`

func overheadFlags(fs *flag.FlagSet) Setup {
	var e Overhead
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", "batch", "comma-separated server variants (peers too, on PostgreSQL)")
	fs.IntVar(&e.Pool, "pool", 10, "database connections of each API")
	fs.Float64Var(&e.Scale, "scale", 0.05, "seed 003's 300 querying + 300 mutating users times this (0.05: 15 + 15)")
	fs.DurationVar(&e.Think, "think", 30*time.Millisecond, "each user's requests at most this apart (GraphQL's, and REST's at the matched rate)")
	fs.DurationVar(&e.SeedRESTThink, "seed-rest-think", 15*time.Millisecond, "REST's think time at the seed's settings (0: leave them out)")
	fs.DurationVar(&e.Duration, "duration", 20*time.Second, "each run")
	fs.DurationVar(&e.Warmup, "warmup", 3*time.Second, "each API's warm-up run before the measured ones")
	fs.Float64Var(&e.Rate, "rate", 0, "the matched comparison's arrival rate, requests/s, open loop on both APIs (0: 80 % of the slower API's warm-up throughput)")
	fs.IntVar(&e.Runs, "runs", 3, "measured runs of each API and setting, in alternation")
	fs.Float64Var(&e.MaxCPU, "max-cpu-increase", 5, "GraphQL's CPU utilisation at most this many percentage points above REST's (seed 003: 5)")
	fs.Float64Var(&e.MaxGC, "max-gc-increase", 1, "GraphQL's GC time at most this many percentage points above REST's (seed 003: 1)")
	fs.Float64Var(&e.MaxDrop, "max-throughput-drop", 10, "GraphQL's throughput at most this many percent below REST's (seed 003: 10)")
	return newSetup(&e, func() error {
		e.SF = int(sf)
		var err error
		e.Variants, err = parseVariants(*variants)
		return err
	})
}

func (e *Overhead) check() error {
	switch {
	case e.Scale <= 0 || e.Scale > 1:
		return usagef("--scale must be in (0, 1]")
	case e.Think < 0 || e.SeedRESTThink < 0 || e.Warmup < 0 || e.Rate < 0:
		return usagef("--think, --seed-rest-think, --warmup and --rate must not be negative")
	case e.Duration <= 0:
		return usagef("--duration must be positive")
	case e.Runs < 1 || e.Pool < 1:
		return usagef("--runs and --pool must be at least 1")
	case e.MaxCPU < 0 || e.MaxGC < 0 || e.MaxDrop < 0 || e.MaxDrop >= 100:
		return usagef("the thresholds must not be negative, and --max-throughput-drop below 100")
	}
	for _, v := range e.Variants {
		if sv, _ := server.Lookup(v); !sv.NeedsDB {
			return usagef("%s uses no database: a REST control over the same data needs one", v)
		}
	}
	return nil
}

func (e *Overhead) defaults() {
	e.SF = max(e.SF, 1)
	if len(e.Variants) == 0 {
		e.Variants = []string{"batch"}
	}
	if e.Scale <= 0 {
		e.Scale = 0.05
	}
	e.Duration = orDefault(e.Duration, 20*time.Second)
	e.Runs, e.Pool = max(e.Runs, 1), max(e.Pool, 1)
}

// users is the scaled number of each kind of user.
func (e Overhead) users() int { return max(1, int(math.Round(seedUsers*e.Scale))) }

// Run runs the experiment.
func (e Overhead) Run(ctx context.Context) (*Result, error) {
	e.defaults()
	return runPerVariant(ctx, "overhead", e.Common, e.run, func(rs []*ovhVariant) report.Section { return overheadSection(e, rs) })
}

func (e Overhead) run(ctx context.Context, s *session, dbs *databases, results *[]*ovhVariant) error {
	if err := peersNeedPostgres(e.Variants, dbs.kind); err != nil {
		return err
	}
	s.config = append(s.config, e.config()...)
	s.notes = append(s.notes, e.notes()...)
	if dbs.kind == "sqlite" {
		s.notes = append(s.notes, "On SQLite every write takes the database's one write lock and an fsync, and a writer holds the readers off (rollback journal): the mutating users' pace is the database's, alike for both APIs, and the querying users wait on it too. --db postgres measures more of the API layer.")
	}
	url, qf, err := healthDataset(ctx, s, dbs, e.SF, e.users(), true, fmt.Sprintf("sf%d-health-u%d", e.SF, e.users()))
	if err != nil {
		return err
	}
	s.pinLoad()
	defer s.unpinLoad()
	for _, v := range e.Variants {
		r := &ovhVariant{variant: v, writes: takesWrites(v), cores: s.serverCores()}
		err := e.variant(ctx, s, r, url, dbs.kind, qf)
		if len(r.runs) > 0 {
			*results = append(*results, r)
			for _, l := range r.verdicts(e) {
				fmt.Fprintf(s.Out, "%s %s\n", v, l.text())
				if l.known && !l.pass && l.gate { // not measured: said, not failed
					s.checks = append(s.checks, fmt.Sprintf("overhead %s: %s", v, l.text()))
				}
				if l.gate {
					s.verdict(l.verdict(v))
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// serverCores is the CPUs the servers may use: the CPU % of a server
// divided by it is its utilisation.
func (s *session) serverCores() int {
	if s.serverCPU >= 0 {
		return 1
	}
	return runtime.NumCPU()
}

// variant runs one variant's warm-ups and measured runs.
func (e Overhead) variant(ctx context.Context, s *session, r *ovhVariant, url, db string, qf *queryfile.File) error {
	v := r.variant
	gql, rest, stop, err := e.variantServers(ctx, s, r, url)
	if gql == nil {
		return err
	}
	defer stop()
	entries := byLabel(qf.Entries, labelRead)
	if r.writes {
		entries = append(entries, byLabel(qf.Entries, labelWrite)...)
	}
	o := &ovhRunner{e: e, s: s, r: r, db: db, qf: qf, entries: entries,
		users: len(entries)} // one entry each: the first half query, the second mutate
	closed := []ovhSide{{api: drive.APIGraphQL, setting: "closed", think: e.Think, srv: gql}, {api: drive.APIREST, setting: "closed", think: e.Think, srv: rest}}
	warm := map[string]float64{}
	for _, sd := range closed {
		if e.Warmup > 0 {
			err := o.one(ctx, sd, fmt.Sprintf("ovh-%s-%s-warmup", v, sd.api), e.Warmup, true, func(run *ovhRun) { warm[sd.api] = run.throughput })
			if err != nil {
				return skipped(err)
			}
		}
	}
	r.rate = e.matchedRate(warm)
	return o.measured(ctx, e.variantSides(s, r, gql, rest, closed))
}

// variantServers starts the variant's GraphQL server and its REST control:
// the variant's own process serving both, or, for a peer, a rest server
// beside it. stop stops what was started; with gql nil, nothing was, and
// err says why (nil when the variant was skipped).
func (e Overhead) variantServers(ctx context.Context, s *session, r *ovhVariant, url string) (gql, rest *Server, stop func(), err error) {
	v := r.variant
	sv, _ := server.Lookup(v)
	if sv.Process == nil {
		srv, err := s.tryServerArgs(ctx, v, url, e.Pool, "overhead-"+v, []string{"--rest-control"})
		if srv == nil {
			return nil, nil, nil, err
		}
		r.sameProcess = true
		return srv, srv, func() { s.stopServer(srv) }, nil
	}
	// a peer: no REST control in its process; serve rest beside it
	g, err := s.tryServer(ctx, v, url, e.Pool, "overhead-"+v)
	if g == nil {
		return nil, nil, nil, err
	}
	rs, err := s.tryServer(ctx, "rest", url, e.Pool, "overhead-"+v+"-rest")
	if rs == nil {
		s.stopServer(g)
		return nil, nil, nil, err
	}
	return g, rs, func() { s.stopServer(rs); s.stopServer(g) }, nil
}

// variantSides are the sides of the variant's measured runs: the matched
// rate's pair (when there is a rate), the closed loop's, and REST at the
// seed's think time (when it differs).
func (e Overhead) variantSides(s *session, r *ovhVariant, gql, rest *Server, closed []ovhSide) []ovhSide {
	var sides []ovhSide
	if r.rate > 0 {
		sides = append(sides, ovhSide{api: drive.APIGraphQL, setting: "matched", rate: r.rate, srv: gql}, ovhSide{api: drive.APIREST, setting: "matched", rate: r.rate, srv: rest})
	} else {
		s.warn("%s: no matched-rate comparison: give --rate, or a --warmup to measure it by", r.variant)
	}
	sides = append(sides, closed...)
	if e.SeedRESTThink > 0 && e.SeedRESTThink != e.Think {
		sides = append(sides, ovhSide{api: drive.APIREST, setting: "seed", think: e.SeedRESTThink, srv: rest})
	}
	return sides
}

// ovhRunner runs one variant's single runs, warm-up or measured.
type ovhRunner struct {
	e       Overhead
	s       *session
	r       *ovhVariant
	db      string
	qf      *queryfile.File
	entries []queryfile.Entry
	users   int
}

// measured makes the variant's --runs measured runs of every side, the
// order alternating from one to the next.
func (o *ovhRunner) measured(ctx context.Context, sides []ovhSide) error {
	v := o.r.variant
	for i := range o.e.Runs {
		order := slices.Clone(sides)
		if i%2 == 1 { // alternate, so that drift weighs on both sides alike
			for k := 0; k+1 < len(order); k += 2 {
				if order[k].setting == order[k+1].setting {
					order[k], order[k+1] = order[k+1], order[k]
				}
			}
		}
		for _, sd := range order {
			name := fmt.Sprintf("ovh-%s-%s-%s-r%d", v, sd.api, sd.setting, i+1)
			err := o.one(ctx, sd, name, o.e.Duration, false, func(run *ovhRun) {
				run.side, run.index = sd, i+1
				o.r.runs = append(o.r.runs, run)
			})
			if err != nil {
				return skipped(err)
			}
		}
	}
	return nil
}

// one makes one run of side sd for d, a warm-up or a measured run, and
// hands what it measured to into.
func (o *ovhRunner) one(ctx context.Context, sd ovhSide, name string, d time.Duration, warm bool, into func(*ovhRun)) error {
	e, v := o.e, o.r.variant
	series := v + " " + sd.series()
	if warm {
		series += " warm-up"
	}
	spec := runSpec{name: name, what: fmt.Sprintf("%s %s", v, series[len(v)+1:]), queries: o.qf, entries: o.entries,
		mode: drive.Closed, clients: o.users, duration: d, runs: 1, think: sd.think, api: sd.api, check: warm,
		labels: withSeries(labels(series, e.SF, e.Pool, o.users, "overhead", o.db), series, sd.api)}
	if sd.rate > 0 { // open loop: the same arrivals on both sides
		spec.mode, spec.rate, spec.connections = drive.Open, sd.rate, 2*o.users
	}
	// The GC's share over the whole run: a reading just before and
	// just after it (the intervals' own may see no GC cycle between
	// their first and last in a short run).
	var run *ovhRun
	spec.done = func(path string, sum *runfile.Summary) { run = ovhRunOf(path, sum, o.r.cores) }
	before, hasRT := readRuntime(ctx, sd.srv)
	err := o.s.run(ctx, sd.srv, spec)
	if run != nil && hasRT {
		if after, ok := readRuntime(ctx, sd.srv); ok {
			if pct, ok := measure.GCPercent(before, after); ok {
				run.gc, run.gcOK = pct, true
			}
		}
	}
	if run != nil && into != nil {
		into(run)
	}
	return err
}

// matchedRate is the open loop's rate of the matched comparison: --rate,
// or MatchedShare of the slower API's warm-up throughput (both APIs then
// keep up, and the same requests arrive at both); 0 when unknown.
func (e Overhead) matchedRate(warm map[string]float64) float64 {
	if e.Rate > 0 {
		return e.Rate
	}
	g, r := warm[drive.APIGraphQL], warm[drive.APIREST]
	if g <= 0 || r <= 0 {
		return 0
	}
	return math.Round(MatchedShare * min(g, r))
}

// MatchedShare is the share of the slower API's closed-loop warm-up
// throughput at which the matched comparison offers both APIs the same
// arrivals: below both APIs' capacity, so that neither falls behind.
const MatchedShare = 0.8

// readRuntime reads srv's runtime metrics now, without a GC; ok is false
// for a server without them.
func readRuntime(ctx context.Context, srv *Server) (measure.RuntimeSample, bool) {
	if !srv.GoRuntime() {
		return measure.RuntimeSample{}, false
	}
	rs := measure.NewRuntime(srv.Base() + server.MetricsPath).Sample(ctx)
	return rs, rs.Error == ""
}

// skipped is nil for errSkip (the server's failure is recorded), else err.
func skipped(err error) error {
	if err == errSkip {
		return nil
	}
	return err
}

// withSeries sets the labels the report groups by.
func withSeries(lb map[string]string, series, api string) map[string]string {
	lb["series"], lb["api"] = series, api
	return lb
}

// config discloses the parameters.
func (e Overhead) config() [][2]string {
	u := e.users()
	c := [][2]string{
		{"scale factor", strconv.Itoa(e.SF)},
		{"variants", strings.Join(e.Variants, ", ")},
		{"users", fmt.Sprintf("%d querying (%s) + %d mutating (%s): seed 003's 300 + 300 times %g; one connection each, closed loop", u, labelRead, u, labelWrite, e.Scale)},
		{"matched rate", fmt.Sprintf("GraphQL and REST each at most %v apart (uniform think time)", e.Think)},
		{"runs", fmt.Sprintf("%d measured runs of %v per API and setting, in alternation, after a %v warm-up per API", e.Runs, e.Duration, e.Warmup)},
		{"thresholds", fmt.Sprintf("GraphQL's CPU ≤ REST's + %g points, GC time ≤ REST's + %g points, throughput ≥ REST's − %g %% (seed 003's), on the matched comparison", e.MaxCPU, e.MaxGC, e.MaxDrop)},
		{"REST control", "serve VARIANT --rest-control: serve rest's handlers under /rest beside the GraphQL endpoint, in the same process (each API its own pool of --pool connections over the same database)"},
	}
	if e.SeedRESTThink > 0 {
		c = append(c, [2]string{"seed's settings", fmt.Sprintf("REST at most %v apart, GraphQL at %v (seed 003's table)", e.SeedRESTThink, e.Think)})
	}
	return c
}

func (e Overhead) notes() []string {
	return []string{
		"Seed 003's general usage load test (GraphQL ASP.NET): GraphQL's overhead over a baseline web API doing the same work. The seed ran its REST control with requests at most 15 ms apart and GraphQL at 30 ms, so the two faced different loads; gqlbench compares them at a matched rate, and at the seed's settings to reproduce its table. The thresholds gate the matched comparison only.",
		"CPU utilisation is the server process's CPU time over wall time, of the CPUs it may use; GC time is the Go runtime's own share of the process's CPU budget taken by the collector (/cpu/classes/gc over /cpu/classes/total between readings of /debug/metrics just before and just after the run). Both APIs run in one process, so the difference is the API layer's.",
	}
}
