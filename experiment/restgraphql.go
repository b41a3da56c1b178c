package experiment

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/link"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/task"
)

// RestGraphQL compares a REST API and a GraphQL API over one database, as
// seeds 001 (Lawi et al.) and 004 (Mikuła & Dzieńkowski) do, on the tasks
// of package task: `serve rest` and a GraphQL variant run as two
// processes; per task label and user count a closed-loop run against each
// (series rest and graphql), and with Paired a paired run that sends every
// task to both at the same moment, for a paired t-test. Every answer of
// both APIs is checked against the oracle.
type RestGraphQL struct {
	Common
	SF          int           // scale factor (default 1)
	Variant     string        // the GraphQL server (default batch)
	Sets        []string      // task sets (default all)
	Records     []int         // the display cases' records (default 5, 50, 100)
	Users       []int         // closed-loop users (default 1, 5, 50)
	Duration    time.Duration // each run (default 1s)
	Runs        int           // per label and user count, the first a warm-up (default 3)
	PerTemplate int           // instances of each lingbm and crud task (default 10)
	Pool        int           // database connections of each server (default 10)
	Paired      bool          // also the paired runs
	// SampleInterval is the closed-loop runs' fine-series step: tasks
	// completed per step, the servers' CPU and memory sampled every step
	// (default 10ms, seed 001's).
	SampleInterval time.Duration
	Group          int // pairs per response-time group in the paired runs (default 100, seed 001's)
	// HTTP2 is the APIs the load generator speaks HTTP/2 (h2c) to: ""
	// none, "both", "rest" (seed 001's REST over HTTP/2) or "graphql".
	HTTP2 string
	// Link, when set, is the emulated network between the load generator
	// and each server (package link): "delay=5ms,rate=100mbit".
	Link string
}

// writeVariants are the GraphQL variants that take the crud-create
// mutation (docs/tasks.md).
var writeVariants = []string{"batch", "compiled"}

func init() {
	Register(Experiment{
		Name:     "rest-vs-graphql",
		Summary:  "seeds 001 and 004: serve rest against a GraphQL server on the same tasks and data, with paired t-tests and verdicts",
		Synopsis: restGraphQLSynopsis,
		Dir:      "gqlbench-rest-vs-graphql",
		Quick:    [][2]string{{"sf", "1"}, {"users", "1,5"}, {"duration", "300ms"}, {"runs", "2"}, {"records", "5,50"}, {"group", "10"}},
		Flags:    restGraphQLFlags,
	})
}

const restGraphQLSynopsis = `experiment rest-vs-graphql [--db sqlite|postgres|URL] [--sf 1] [--graphql-variant batch] [--users 1,5,50] [--records 5,50,100] [--sets display,lingbm,crud] [--paired=true] [--group 100] [--sample-interval 10ms] [--http2 rest|graphql|both] [--link delay=5ms,rate=100mbit] [--quick] [flags]

REST against GraphQL on the same data (seed 001, Lawi et al.; seed 004,
Mikuła & Dzieńkowski): gqlbench serve rest and a GraphQL server
(--graphql-variant) run as two processes over one database, asked the same
tasks (docs/tasks.md: seed 004's display cases at --records, LinGBM QT1,
QT2, QT3, QT7, QT11, seed 001's crud-read, crud-create and crud-cycle), every
answer of both checked against the oracle. --http2 speaks HTTP/2 (h2c) to
REST (seed 001's setting), GraphQL or both; --link puts an emulated network
(one-way delay, bandwidth) between the load generator and each server. Per task and user count: a closed-loop run
against each API, its tasks completed and its server's CPU and memory
sampled every --sample-interval, and (--paired) a paired run sending every
task to both at the same moment, its response times averaged in groups of
--group pairs. Per case, seed 001's statistics of its four measures —
response time (the groups), throughput, CPU, memory (the closed-loop runs'
samples, paired step by step): two-tailed paired t-tests, Eq. 1's
efficiency, five-number summaries and box plots; bytes and calls per task
as exact counts; a verdict per case. --quick: users 1,5, records 5,50, 2
runs of 300ms, groups of 10 pairs, about a minute.`

// restGraphQLFlags registers the flags of RestGraphQL.
func restGraphQLFlags(fs *flag.FlagSet) Setup {
	var e RestGraphQL
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	fs.StringVar(&e.Variant, "graphql-variant", "batch", "the GraphQL server compared with serve rest")
	sets := fs.String("sets", strings.Join(task.Sets, ","), "comma-separated task sets: "+strings.Join(task.Sets, ", "))
	records := fs.String("records", "5,50,100", "comma-separated records of the display cases")
	users := fs.String("users", "1,5,50", "comma-separated closed-loop users (seed 004: 1,5,50,100,500,1000)")
	fs.DurationVar(&e.Duration, "duration", time.Second, "each run")
	fs.IntVar(&e.Runs, "runs", 3, "runs per task and user count, the first a warm-up")
	fs.IntVar(&e.PerTemplate, "per-template", 10, "instances of each lingbm and crud task")
	fs.IntVar(&e.Pool, "pool", 10, "database connections of each server")
	fs.BoolVar(&e.Paired, "paired", true, "also paired runs: every task to both APIs at the same moment (paired t-tests)")
	fs.DurationVar(&e.SampleInterval, "sample-interval", DefaultSampleInterval, "the closed-loop runs' fine series: tasks completed and the servers' CPU and memory per step of this")
	fs.IntVar(&e.Group, "group", drive.DefaultGroup, "pairs per response-time group in the paired runs (seed 001: 100)")
	fs.StringVar(&e.Link, "link", "", "an emulated network between the load generator and each server: delay=D[,rate=R] (one way; bits per second), e.g. delay=5ms,rate=100mbit; none by default (loopback)")
	fs.StringVar(&e.HTTP2, "http2", "", "speak HTTP/2 (h2c) to: rest (seed 001's setting), graphql or both; none by default")
	return newSetup(&e, func() error {
		e.SF = int(sf)
		return e.parse(*sets, *records, *users)
	})
}

// parse sets the list settings from their flags and checks the others.
func (e *RestGraphQL) parse(sets, records, users string) error {
	for _, s := range strings.Split(sets, ",") {
		s = strings.TrimSpace(s)
		if !slices.Contains(task.Sets, s) {
			return usagef("--sets: unknown set %q: want %s", s, strings.Join(task.Sets, ", "))
		}
		e.Sets = append(e.Sets, s)
	}
	var err error
	if e.Records, err = parseInts("records", records); err != nil {
		return err
	}
	if e.Users, err = parseInts("users", users); err != nil {
		return err
	}
	v, ok := server.Lookup(e.Variant)
	switch {
	case !ok:
		return usagef("--graphql-variant: unknown variant %q: the variants are %s", e.Variant, variantNames())
	case !v.GraphQL() || e.Variant == "null" || v.Dialect != "":
		return usagef("--graphql-variant %s cannot answer the tasks' queries", e.Variant)
	case e.Duration <= 0:
		return usagef("--duration must be positive")
	case !slices.Contains([]string{"", "none", "false", "true", "both", drive.APIREST, drive.APIGraphQL}, e.HTTP2):
		return usagef("--http2 %q: want rest, graphql, both or none", e.HTTP2)
	case e.Link != "" && linkErr(e.Link) != nil:
		return usagef("--link: %v", linkErr(e.Link))
	case e.Runs < 1 || e.PerTemplate < 1 || e.Pool < 1 || e.Group < 1:
		return usagef("--runs, --per-template, --pool and --group must be at least 1")
	case e.SampleInterval < time.Millisecond:
		return usagef("--sample-interval must be at least 1ms")
	}
	return nil
}

func (e *RestGraphQL) defaults() {
	e.SF = max(e.SF, 1)
	if e.Variant == "" {
		e.Variant = "batch"
	}
	switch e.HTTP2 {
	case "none", "false":
		e.HTTP2 = ""
	case "true":
		e.HTTP2 = "both"
	}
	if len(e.Sets) == 0 {
		e.Sets = task.Sets
	}
	if len(e.Records) == 0 {
		e.Records = []int{5, 50, 100}
	}
	if len(e.Users) == 0 {
		e.Users = []int{1, 5, 50}
	}
	e.Duration = orDefault(e.Duration, time.Second)
	e.Runs, e.PerTemplate, e.Pool = max(e.Runs, 1), max(e.PerTemplate, 1), max(e.Pool, 1)
	e.SampleInterval = orDefault(e.SampleInterval, DefaultSampleInterval)
	if e.Group < 1 {
		e.Group = drive.DefaultGroup
	}
}

// durText is a duration in words: "10 ms", "1.5s".
func durText(d time.Duration) string {
	if d < time.Second && d%time.Millisecond == 0 {
		return fmt.Sprintf("%d ms", d/time.Millisecond)
	}
	return d.String()
}

// DefaultSampleInterval is seed 001's step of throughput, CPU and memory.
const DefaultSampleInterval = 10 * time.Millisecond

// writes says whether the write tasks run: the GraphQL variant takes them.
func (e RestGraphQL) writes() bool {
	return slices.Contains(e.Sets, task.SetCRUD) && slices.Contains(writeVariants, e.Variant)
}

// Run runs the experiment.
func (e RestGraphQL) Run(ctx context.Context) (*Result, error) {
	e.defaults()
	c := &rgCases{sample: durText(e.SampleInterval), group: e.Group}
	return runSession(ctx, "rest-vs-graphql", e.Common, func(ctx context.Context, s *session, dbs *databases) error {
		err := e.run(ctx, s, dbs, c)
		s.notes = append(s.notes, c.verdicts()...)
		if len(c.cases) > 0 {
			s.sections = append(s.sections, c.section())
			if werr := writeFile(filepath.Join(s.Dir, "rest-vs-graphql.md"), c.table); werr != nil {
				s.fail(werr)
			}
		}
		return err
	})
}

func (e RestGraphQL) run(ctx context.Context, s *session, dbs *databases, c *rgCases) error {
	s.config = append(s.config, e.config()...)
	c.header = fmt.Sprintf("serve rest (REST) against serve %s (GraphQL), sf=%d on %s. Network: %s. REST client: %s.",
		e.Variant, e.SF, dbs.version, e.network(), e.restClient())
	if e.HTTP2 == drive.APIREST || e.HTTP2 == drive.APIGraphQL {
		c.unlikeBytes = fmt.Sprintf("%s speaks HTTP/2, whose bytes are bodies only (net/http does not show frames and compressed headers), the other HTTP/1.1 with its headers", map[string]string{drive.APIREST: "REST", drive.APIGraphQL: "GraphQL"}[e.HTTP2])
	}
	s.notes = append(s.notes, e.notes(dbs)...)
	url, meta, err := dbs.dataset(ctx, e.SF, s.Seed)
	if err != nil {
		return err
	}
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return err
	}
	o := task.Options{Sets: e.Sets, PerTemplate: e.PerTemplate, Records: e.Records, Seed: s.Seed, Writes: e.writes()}
	entries, err := task.Generate(ctx, meta, o, inmem.Answerer(or.data))
	if err != nil {
		return err
	}
	qf, err := s.writeEntries(fmt.Sprintf("sf%d-tasks", e.SF), entries)
	if err != nil {
		return err
	}
	rest, err := s.startServer(ctx, "rest", url, e.Pool, fmt.Sprintf("rest-sf%d", e.SF))
	if err != nil {
		return err
	}
	gql, err := s.startServer(ctx, e.Variant, url, e.Pool, fmt.Sprintf("%s-sf%d", e.Variant, e.SF))
	if err != nil {
		return err
	}
	if e.Link != "" {
		c, err := link.ParseConfig(e.Link)
		if err != nil {
			return err
		}
		for _, srv := range []*Server{rest, gql} {
			closeLink, err := s.linkTo(srv, c)
			if err != nil {
				return err
			}
			defer closeLink()
		}
	}
	s.pinLoad()
	defer s.unpinLoad()
	byLabel := map[string][]queryfile.Entry{}
	for _, en := range entries {
		byLabel[en.Label] = append(byLabel[en.Label], en)
	}
	for _, label := range queryfile.Labels(entries) {
		for _, u := range e.Users {
			if err := e.label(ctx, s, c, rest, gql, qf, label, byLabel[label], u, dbs.kind); err != nil {
				return err
			}
		}
	}
	return nil
}

// label runs one task label at one user count: REST, GraphQL, and paired.
// A run that cannot be made (a failed pre-load check) is recorded and the
// experiment goes on; a server that died ends it.
func (e RestGraphQL) label(ctx context.Context, s *session, c *rgCases, rest, gql *Server, qf *queryfile.File,
	label string, entries []queryfile.Entry, users int, db string) error {
	cs := c.at(label, users)
	sides := []struct {
		series, api string
		srv, paired *Server
		mode        drive.Mode
		into        *rgSide
	}{
		{"rest", drive.APIREST, rest, nil, drive.Closed, &cs.rest},
		{"graphql", drive.APIGraphQL, gql, nil, drive.Closed, &cs.gql},
		{"paired", drive.APIGraphQL, gql, rest, drive.Paired, nil},
	}
	for _, sd := range sides {
		if sd.paired != nil && !e.Paired {
			continue
		}
		lb := labels(sd.series, e.SF, e.Pool, users, label, db)
		lb["series"], lb["api"] = sd.series, sd.api
		into := sd.into
		sample := e.SampleInterval
		if sd.paired != nil { // paired, lock-step: its completions are equal by construction, its samples unused
			sample = 0
		}
		err := s.run(ctx, sd.srv, runSpec{
			name: fmt.Sprintf("rvg-sf%d-%s-%s-u%d", e.SF, sd.series, label, users), what: fmt.Sprintf("%s %s %d user(s)", sd.series, label, users),
			queries: qf, entries: entries, mode: sd.mode, clients: users, duration: e.Duration, runs: max(e.Runs, 2*b2i(sd.paired != nil)),
			labels: lb, api: sd.api, paired: sd.paired, check: true, group: e.Group, sample: sample, http2: e.HTTP2,
			done: func(path string, sum *runfile.Summary) {
				if into != nil {
					*into = sideOf(path, sd.api, sum)
				} else {
					cs.pair = pairOf(label, sum)
				}
			},
		})
		switch {
		case err == errSkip:
			return err
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			s.fail(err)
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// config discloses the parameters.
func (e RestGraphQL) config() [][2]string {
	c := [][2]string{
		{"scale factor", strconv.Itoa(e.SF)},
		{"APIs", "serve rest (series rest) and serve " + e.Variant + " (series graphql), two processes over one database"},
		{"task sets", strings.Join(e.Sets, ", ")},
		{"display records", intList(e.Records)},
		{"users", intList(e.Users)},
		{"connection pool", strconv.Itoa(e.Pool) + " per server"},
		{"runs", fmt.Sprintf("closed loop, %d runs of %v per task, API and user count (the first a warm-up), up to %d instances per lingbm and crud task", e.Runs, e.Duration, e.PerTemplate)},
		{"REST client", e.restClient()},
		{"network", e.network()},
		{"fine series", fmt.Sprintf("closed-loop runs: tasks completed and each server's CPU %% and RSS every %v (seed 001's throughput, CPU and memory samples)", e.SampleInterval)},
	}
	if e.Paired {
		c = append(c, [2]string{"paired runs", fmt.Sprintf("each user sends every task to both APIs at the same moment (seed 001's synchronisation node); response times averaged in groups of %d pairs for the two-tailed paired t-test", e.Group)})
	}
	return c
}

// network says what lies between the load generator and the servers.
func (e RestGraphQL) network() string {
	if e.Link == "" {
		return "loopback (no emulated link): a round trip costs microseconds, bytes nearly nothing"
	}
	c, _ := link.ParseConfig(e.Link)
	rate := "unlimited bandwidth"
	if c.Rate > 0 {
		rate = fmt.Sprintf("%.3g Mbit/s each way, shared by the connections to a server", float64(c.Rate)*8/1e6)
	}
	return fmt.Sprintf("an emulated link in front of each server (--link %s): %v one way (%v a round trip), %s", e.Link, c.Delay, 2*c.Delay, rate)
}

// linkErr is what is wrong with a --link value.
func linkErr(s string) error {
	_, err := link.ParseConfig(s)
	return err
}

// restClient says how the REST client (and the GraphQL one) connects.
func (e RestGraphQL) restClient() string {
	switch e.HTTP2 {
	case "both":
		return "HTTP/2 (h2c), one connection per user for each API, a plan's independent calls multiplexed (docs/tasks.md)"
	case drive.APIREST:
		return "HTTP/2 (h2c), one connection per user, a plan's independent calls multiplexed (seed 001's setting); GraphQL over HTTP/1.1"
	case drive.APIGraphQL:
		return "6 HTTP/1.1 connections per user, a plan's independent calls in parallel; GraphQL over HTTP/2 (h2c)"
	}
	return "6 HTTP/1.1 connections per user, a plan's independent calls in parallel (docs/tasks.md)"
}

// notes say what ran, and how it differs from the seeds.
func (e RestGraphQL) notes(dbs *databases) []string {
	n := []string{
		fmt.Sprintf("REST against GraphQL (seed 001, Lawi et al.; seed 004, Mikuła & Dzieńkowski), sf=%d on %s: the same tasks to serve rest and serve %s, every answer of both checked against the oracle.", e.SF, dbs.version, e.Variant),
		"Differences from the seeds: answers are verified (the seeds timed unverified responses); both servers share one database and one machine with the load generator; a task's REST plan makes its calls as a browser would (parallel where independent, one per element for client-side N+1).",
		fmt.Sprintf("Seed 001's statistics per case (section \"REST against GraphQL\"): response time = the paired run's means of groups of %d pairs; throughput, CPU and memory = each API's own closed-loop run, sampled every %s over its measured intervals, step i of REST paired with step i of GraphQL (the longer cut to the shorter). Samples of one run are not independent, here as in the seed: a significant difference of a few percent (memory above all) says these runs differed more than it predicts the next.", e.Group, durText(e.SampleInterval)),
	}
	if slices.Contains(e.Sets, task.SetCRUD) && !e.writes() {
		n = append(n, fmt.Sprintf("crud-create left out: %s takes no mutations (only %s do).", e.Variant, strings.Join(writeVariants, ", ")))
	}
	return n
}
