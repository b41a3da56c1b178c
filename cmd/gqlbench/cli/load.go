package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

func init() {
	register("load", "drive load at a GraphQL server or a REST API (tasks) and measure it: "+strings.Join(modeNames(), ", ")+" (run file)", runLoad)
}

// loadSynopsis is load's help; its modes come from drive's registry.
func loadSynopsis() string {
	var modes strings.Builder
	for _, m := range drive.Modes() {
		lines := strings.Split(m.Help, "\n")
		fmt.Fprintf(&modes, "  %-11s %s\n", m.Name, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&modes, "  %-11s %s\n", "", l)
		}
	}
	return `load --target URL --queries FILE [--mode ` + strings.Join(modeNames(), "|") + `] [flags] [-o run.jsonl]
       gqlbench load merge RUN.jsonl... [-o merged.jsonl]
       gqlbench load show RUN.jsonl
       gqlbench load --mode subscribe --target URL [--subscribers N] [--per-subscriber K] [--publish-rate R]
         (the subscription load, with flags of its own: gqlbench load --mode subscribe --help;
         docs/subscriptions.md)

Modes (see docs/load.md):
` + modes.String() + `
--shard I/N --start-at TIME makes this generator one of N that split a closed run's
clients or an open run's schedule exactly; gqlbench load merge joins their files and
names a shard missing or dead (docs/distributed.md).

--api rest makes --target a REST API's base URL and sends each task's REST plan
(gqlbench tasks; docs/tasks.md) instead of its query; --mode paired sends every task to
--target and --paired-target (the other API) at the same moment.

Before the load, the target must answer {__typename} as GraphQL and every label's first
query without errors (--no-check skips this). Every response is checked: status 200,
no GraphQL errors (parsed as JSON), data present, and the data equal to the right
answer, from one of three sources, named in the run file and the report:
  the queries file   "expect" hashes (gqlbench queries --expect) or recorded answers
                     (gqlbench record --target URL --queries FILE -o golden.jsonl)
  --reference URL    another server's answers, fetched once before the load
  --check status     none: the answers themselves are not checked (say so explicitly)
Without one of them load refuses to start. --ignore-path leaves out members that change
by nature; an operation marked unordered compares its lists as multisets. The first
wrong answers of each label are written, with their field-level differences, to
RUN.failures/. --verify-sample F compares the data of a fraction F. The run file
(JSON lines: header, interval, step, query, summary) is flushed line by line; without
-o it goes to stdout (gqlbench load ... | gqlbench report -).
Exit codes: 0 ok; 1 failure (unreachable target, server died or stalled mid-run,
interrupted, I/O); 2 wrong usage; 3 a check failed (wrong answers, errors, SLO,
--min-on-time).`
}

// modeNames lists the registered modes' names.
func modeNames() []string {
	var out []string
	for _, m := range drive.Modes() {
		out = append(out, string(m.Name))
	}
	return out
}

// loadFlags are load's flags.
type loadFlags struct {
	target, queries, mode, out, arrival, slo, records, templates              string
	verify, reference, dbStatements                                           string
	layers                                                                    bool   // --layers
	serverProfile                                                             string // --profile
	clients, connections, passes, warmupPasses, maxClients, maxSteps, maxRuns int
	failures                                                                  int
	runs                                                                      runsFlag
	ci, minOnTime                                                             fraction
	duration, think, interval, late, maxLate, abortAfter, sampleInterval      time.Duration
	rate, rampRate, maxRate, precision, maxErrorRate, verifySample            float64
	seed                                                                      uint64
	watch                                                                     pidList
	labels                                                                    labelFlag
	ignore                                                                    stringList
	noCheck, quiet                                                            bool
	http2                                                                     http2Flag
	api, pairedTarget                                                         string
	watchRuntime                                                              string // the first --watch-pid's /debug/metrics
	group                                                                     int
	parallel                                                                  int
	cpuProfile, execTrace                                                     string
	req                                                                       requestFlags
	shard                                                                     shardFlag // --shard I/N
	startAt                                                                   string    // --start-at
}

// pidList is a repeatable flag of process ids.
type pidList []int

func (p *pidList) String() string {
	s := make([]string, len(*p))
	for i, v := range *p {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (p *pidList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("want a process id, got %q", f)
		}
		*p = append(*p, n)
	}
	return nil
}

// runsFlag is --runs: a number of runs, or auto.
type runsFlag struct {
	n    int
	auto bool
}

func (r *runsFlag) String() string {
	if r.auto {
		return "auto"
	}
	return strconv.Itoa(r.n)
}

func (r *runsFlag) Set(v string) error {
	if v == "auto" {
		r.n, r.auto = 0, true
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("want a number of runs (at least 1) or auto, got %q", v)
	}
	r.n, r.auto = n, false
	return nil
}

// fraction is a flag of a fraction, written as one (0.05) or as a
// percentage (5%).
type fraction float64

func (f *fraction) String() string {
	return strconv.FormatFloat(float64(*f)*100, 'g', -1, 64) + "%"
}

func (f *fraction) Set(v string) error {
	s, pct := strings.CutSuffix(strings.TrimSpace(v), "%")
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("want a fraction (0.05) or a percentage (5%%), got %q", v)
	}
	if pct {
		x /= 100
	}
	*f = fraction(x)
	return nil
}

// labelFlag is a repeatable KEY=VALUE flag.
type labelFlag struct{ m map[string]string }

func (l *labelFlag) String() string {
	var s []string
	for _, k := range slices.Sorted(maps.Keys(l.m)) {
		s = append(s, k+"="+l.m[k])
	}
	return strings.Join(s, ",")
}

func (l *labelFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if k = strings.TrimSpace(k); !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	if l.m == nil {
		l.m = map[string]string{}
	}
	l.m[k] = strings.TrimSpace(val)
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, "; ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// register defines load's flags on fs.
func (f *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.target, "target", "", "the GraphQL endpoint `URL`, e.g. http://127.0.0.1:4000/graphql, or with --api rest the REST API's base URL, e.g. http://127.0.0.1:4001")
	fs.StringVar(&f.api, "api", "graphql", "what --target speaks: graphql (each entry's query is sent) or rest (each task's plan is carried out: gqlbench tasks)")
	fs.IntVar(&f.parallel, "parallel", 0, "rest, and GraphQL steps: calls of one task made at a time, on as many connections per client (default 6, a browser's per host; with --http2, streams of one connection, default 100)")
	fs.StringVar(&f.pairedTarget, "paired-target", "", "paired: the second API's `URL`, speaking the other API than --target (with --api graphql, the REST base URL)")
	fs.IntVar(&f.group, "group", drive.DefaultGroup, "paired: pairs per group whose means the run file keeps (seed 001: 20 groups of 100)")
	fs.Var(&f.http2, "http2", "speak HTTP/2 (h2c for http://) to every target, both APIs in paired mode (--http2=rest or --http2=graphql: that API's only): one connection per client, a REST task's calls multiplexed on it")
	fs.StringVar(&f.queries, "queries", "", "the queries `FILE` (JSON lines from gqlbench queries)")
	fs.StringVar(&f.mode, "mode", "closed", strings.Join(modeNames(), ", "))
	fs.StringVar(&f.out, "o", "", "the run `FILE` (default: stdout)")
	fs.StringVar(&f.templates, "templates", "", "only the queries of these templates or labels, e.g. 5, QT3,QT5 or Book,Shelf")
	fs.IntVar(&f.clients, "clients", 1, "closed: simulated clients, one connection each")
	fs.IntVar(&f.connections, "connections", 64, "open, capacity: connections, the most requests in flight")
	fs.DurationVar(&f.duration, "duration", 60*time.Second, "closed, open: each run; capacity: each step; ramp: at most")
	fs.Var(&f.runs, "runs", "closed, open: `N` runs, the first a warm-up when more than one (default: closed 6, open 1); auto: a warm-up, then measured runs until the mean throughput is known to within --ci")
	f.ci = 0.05
	fs.Var(&f.ci, "ci", "closed, open with --runs auto: the half-width `F` of the 95 % confidence interval of the mean throughput to reach, a fraction (0.05) or percentage (5%) of the mean")
	fs.IntVar(&f.maxRuns, "max-runs", drive.DefaultMaxRuns, "closed, open with --runs auto: runs at most, the warm-up included")
	fs.DurationVar(&f.think, "think", 0, "closed, ramp: think time after each answer, uniform in [0, `D`]")
	fs.IntVar(&f.passes, "passes", 1, "sequential: measured passes over every query")
	fs.IntVar(&f.warmupPasses, "warmup-passes", 1, "sequential: passes before the measured ones, excluded from every figure (cold caches)")
	fs.Float64Var(&f.rate, "rate", 0, "open: requests per second; capacity: the first step's rate (default 100)")
	fs.StringVar(&f.arrival, "arrival", "constant", "open, capacity: constant (evenly spaced) or poisson")
	fs.Uint64Var(&f.seed, "seed", 0, "random `SEED` of arrivals and think times")
	fs.Float64Var(&f.rampRate, "ramp-rate", 20, "ramp: users added per second")
	fs.IntVar(&f.maxClients, "max-clients", 1000, "ramp: users at most")
	fs.StringVar(&f.slo, "slo", "", "latency objective on the corrected latency, e.g. p99<200ms or p99<200ms,p50<20ms")
	fs.Float64Var(&f.maxRate, "max-rate", 1e6, "capacity: the highest rate tried")
	fs.Float64Var(&f.precision, "precision", 0.05, "capacity: stop when the passing and failing rates are within this fraction")
	fs.IntVar(&f.maxSteps, "max-steps", 20, "capacity: steps at most")
	fs.Float64Var(&f.maxErrorRate, "max-error-rate", 0, "the fraction of requests that may fail (0: none)")
	fs.DurationVar(&f.interval, "interval", time.Second, "length of the run file's interval lines")
	fs.DurationVar(&f.sampleInterval, "sample-interval", 0, "add fine series to every interval line: answers completed per step of `D`, and the --watch-pid processes' CPU % and memory sampled every step (seed 001: 10ms); --interval must be a multiple of it")
	fs.DurationVar(&f.late, "late", time.Millisecond, "a send this much after it was due is late: open, capacity: after its intended time; closed, ramp: after its client had its answer and thought (then it waited on the load generator). Not given, open and capacity runs calibrate it first: 4 × this machine's timer jitter at p99, at least 1ms")
	fs.Var(&f.minOnTime, "min-on-time", "open, capacity: fail the run (a step) when fewer than a fraction `F` (0.95 or 95%) of the sends start within --late of their time (default 0: no check)")
	fs.DurationVar(&f.maxLate, "max-lateness", 0, "open: drop a send that cannot start within this of its time (0: never drop)")
	fs.DurationVar(&f.abortAfter, "abort-after", 5*time.Second, "abort when only failures came back for this long")
	fs.Float64Var(&f.verifySample, "verify-sample", 1, "fraction of responses whose data are compared with the expected answer")
	fs.StringVar(&f.records, "records", "", "also write per-request records (CSV, LinGBM's columns first) to `FILE`")
	fs.Var(&f.watch, "watch-pid", "sample CPU % and memory of process `PID` and its descendants each interval (repeatable: the server, the database's postmaster)")
	fs.StringVar(&f.watchRuntime, "watch-runtime", "", "scrape the Go runtime metrics of the first --watch-pid from `URL` (a gqlbench server's http://HOST:PORT/debug/metrics) with each of its samples: live heap, heap in use, GC cycles and CPU (docs/suite.md)")
	fs.StringVar(&f.dbStatements, "db-statements", "", "count the SQL statements the server's PostgreSQL database executes, from pg_stat_statements, and report them per request: `DB` is its postgres:// URL, or env for $"+server.DBEnv+" (keeps a password out of the process list)")
	f.registerLayers(fs)
	fs.Var(&f.labels, "label", "label the run `KEY=VALUE` in its header (repeatable), e.g. server=batch, sf=10, pool=10: reports group and compare runs by labels")
	fs.StringVar(&f.verify, "check", "", "status: check HTTP status, GraphQL errors and the presence of data only (the answers themselves not checked)")
	fs.StringVar(&f.reference, "reference", "", "a reference server's `URL`: its answers, fetched once before the load, are the right ones")
	fs.Var(&f.ignore, "ignore-path", "leave the member at `PATH` out of every comparison of answers, e.g. data.me.lastSeen or data.books[].updatedAt (repeatable)")
	fs.IntVar(&f.failures, "failures", drive.DefaultMaxFailures, "show this many wrong answers of each label, with their differences, in RUN.failures/ beside the run file")
	f.req.register(fs)
	fs.BoolVar(&f.noCheck, "no-check", false, "skip the checks of the target before the load")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	fs.Var(&f.shard, "shard", "closed, open: be generator `I/N` (I from 0, e.g. a Kubernetes Indexed Job's $JOB_COMPLETION_INDEX) of N that split the run exactly: closed, client k is shard k mod N's; open, send k of the --rate schedule is; gqlbench load merge joins their run files (docs/distributed.md)")
	fs.StringVar(&f.startAt, "start-at", "", "wait until `TIME` (RFC 3339, or Unix seconds) before the first run: the common start of --shard's generators, required with it")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write the load generator's own CPU profile (pprof) to `FILE`: where its time goes")
	fs.StringVar(&f.execTrace, "exectrace", "", "write the load generator's execution trace (go tool trace) to `FILE`: its goroutine wake-ups, network waits and system calls")
}

func runLoad(ctx context.Context, env Env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return runLoadMerge(env, args[1:])
		case "show":
			return runLoadShow(env, args[1:])
		}
	}
	if isSubscribe(args) { // its own flags: load_subscribe.go
		return runLoadSubscribe(ctx, env, args)
	}
	// The generator allocates nothing per request: its heap is what its
	// start builds (the entries, their requests, the connections' buffers),
	// some 13 MB for 10,000 entries. With the default target, the start
	// collects three times on its way there (the first at 4 MB), some 5 ms
	// of CPU that bench/tools.sh counts in the CPU per request; with 400
	// once, the peak RSS no higher (46 against 47 MB measured). A GOGC of
	// the user's own is kept.
	if env.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	fs := newFlags(env, "load", loadSynopsis())
	var f loadFlags
	f.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := f.config(setFlags(fs))
	if err != nil {
		return err
	}
	// Everything that can be wrong is found before any load starts.
	q, err := f.queriesFile()
	if err != nil {
		return err
	}
	job, err := f.job(env, cfg, q)
	if err != nil {
		return err
	}
	job.Info = f.headerInfo(fs, env, cfg)
	counter, err := f.statementCounter(ctx, env)
	if err != nil {
		return err
	}
	if counter != nil {
		defer counter.Close()
		job.Config.Statements = counter
	}
	if err := f.setLayers(ctx, job); err != nil {
		return err
	}
	job.Warn = func(w string) { fmt.Fprintf(env.Stderr, "load: warning: %s\n", w) }
	if !f.quiet {
		job.Config.Log = env.Stderr
		printLength(env.Stderr, job.Config)
	}
	var files closers
	defer func() { files.close() }() // a plain defer files.close() would see the files of now: none
	job.Out = func() (io.Writer, error) { return files.create(f.out, env.Stdout) }
	if f.records != "" {
		job.Records = func() (io.Writer, error) { return files.create(f.records, nil) }
	}
	stop, err := profile(f.cpuProfile, f.execTrace)
	if err != nil {
		return err
	}
	sum, err := job.Run(ctx)
	stop()
	if sum != nil && !f.quiet {
		runfile.WriteText(env.Stderr, sum)
	}
	return err
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	return set
}

// closers are files a command created, closed at its end.
type closers []io.Closer

// create opens path (outfile.Open), or returns def when path is "" or "-"
// and def is not nil.
func (c *closers) create(path string, def io.Writer) (io.Writer, error) {
	if (path == "" || outfile.IsStdout(path)) && def != nil {
		return def, nil
	}
	fh, err := outfile.Open(path, 0o644)
	if err != nil {
		return nil, err
	}
	*c = append(*c, fh)
	return fh, nil
}

func (c closers) close() {
	for _, f := range c {
		f.Close()
	}
}

// queriesFile reads the queries file and keeps the entries of --templates.
func (f *loadFlags) queriesFile() (*queryfile.File, error) {
	q, err := queryfile.ReadFile(f.queries)
	if err != nil {
		return nil, err
	}
	if f.templates != "" {
		var err error
		if q.Entries, err = onlyLabels(q.Entries, f.templates); err != nil {
			return nil, fmt.Errorf("queries file %s: %w", f.queries, err)
		}
	}
	if len(q.Entries) == 0 {
		return nil, fmt.Errorf("queries file %s: no queries to send", f.queries)
	}
	return q, nil
}

// job is the load run the flags describe.
func (f *loadFlags) job(env Env, cfg drive.Config, q *queryfile.File) (*drive.Job, error) {
	o, err := f.req.options(env)
	if err != nil {
		return nil, err
	}
	switch {
	case f.api != drive.APIGraphQL && f.api != drive.APIREST:
		return nil, usagef("--api must be graphql or rest, got %q", f.api)
	case f.parallel < 0:
		return nil, usagef("--parallel must be positive")
	}
	o.Parallel, o.HTTP2 = f.parallel, f.http2.on
	var runtimes map[int]string
	if f.watchRuntime != "" {
		if len(f.watch) == 0 {
			return nil, usagef("--watch-runtime scrapes the runtime of the first --watch-pid: give --watch-pid too")
		}
		if !strings.HasPrefix(f.watchRuntime, "http://") && !strings.HasPrefix(f.watchRuntime, "https://") {
			return nil, usagef("--watch-runtime %q: want an http:// URL, e.g. http://127.0.0.1:4000/debug/metrics", f.watchRuntime)
		}
		runtimes = map[int]string{f.watch[0]: f.watchRuntime}
	}
	j := &drive.Job{Config: cfg, Target: f.target, API: f.api, PairedTarget: f.pairedTarget, Client: f.req.client, Queries: q, Watch: f.watch, WatchRuntime: runtimes, Check: !f.noCheck,
		HTTP: o, HTTP2Only: f.http2.only, Verify: f.verify, Reference: f.reference}
	for _, s := range f.ignore {
		p, err := verify.ParsePath(s)
		if err != nil {
			return nil, usagef("--ignore-path: %v", err)
		}
		j.Ignore = append(j.Ignore, p)
	}
	if f.out != "" && !outfile.IsStdout(f.out) { // beside a run file, never beside a device or a pipe
		j.Config.FailuresDir, _ = outfile.Beside(f.out, ".failures")
	}
	j.Config.MaxFailures = f.failures
	return j, nil
}

// config turns the flags into a drive.Config, or a usage error.
func (f *loadFlags) config(set map[string]bool) (drive.Config, error) {
	var c drive.Config
	if err := f.check(); err != nil {
		return c, err
	}
	spec, err := drive.ModeByName(drive.Mode(f.mode))
	if err != nil {
		return c, usagef("unknown --mode %q: want %s", f.mode, drive.ModeNames())
	}
	// Flags that do nothing in the chosen mode are a mistake worth saying.
	for _, m := range drive.Modes() {
		for _, p := range m.Params {
			if set[p] && !spec.Uses(p) {
				return c, usagef("--%s does not apply to --mode %s", p, spec.Name)
			}
		}
	}
	for _, p := range []string{"ci", "max-runs"} {
		if set[p] && !f.runs.auto {
			return c, usagef("--%s applies to --runs auto only", p)
		}
	}
	p := drive.Params{Clients: f.clients, Connections: f.connections, Duration: f.duration, Runs: f.runs.n, Think: f.think,
		Passes: f.passes, WarmupPasses: f.warmupPasses, Rate: f.rate, Poisson: f.arrival == "poisson", MaxLate: f.maxLate,
		MinOnTime: float64(f.minOnTime), RampRate: f.rampRate, MaxClients: f.maxClients, MaxRate: f.maxRate, Precision: f.precision,
		MaxSteps: f.maxSteps, Group: f.group}
	if f.runs.auto {
		p.CI, p.MaxRuns = float64(f.ci), f.maxRuns
	}
	c = drive.Config{Mode: spec.Name, Settings: spec.Settings(p), Seed: f.seed, MaxErrorRate: f.maxErrorRate, Interval: f.interval,
		Late: f.late, LateAuto: !set["late"], AbortAfter: f.abortAfter, VerifySample: f.verifySample, Cores: runtime.GOMAXPROCS(0),
		SampleInterval: f.sampleInterval}
	if c.Shard, err = f.shardConfig(); err != nil {
		return c, err
	}
	if f.slo != "" {
		if c.SLO, err = measure.ParseSLO(f.slo); err != nil {
			return c, usagef("--slo: %v", err)
		}
	}
	if c, err = c.Ready(); err != nil {
		return c, usagef("%v", err)
	}
	return c, nil
}

// check reports the first flag out of its range, as a usage error.
func (f *loadFlags) check() error {
	switch {
	case f.target == "":
		return usagef("say where to send the load: --target http://HOST:PORT/graphql")
	case f.queries == "":
		return usagef("say what to send: --queries FILE (from gqlbench queries)")
	case f.maxClients < 1 || f.maxSteps < 1:
		return usagef("--max-clients and --max-steps must be at least 1")
	case f.failures < 1:
		return usagef("--failures must be at least 1")
	case f.arrival != "constant" && f.arrival != "poisson":
		return usagef("--arrival must be constant or poisson, got %q", f.arrival)
	case f.rate < 0 || f.rampRate <= 0 || f.maxRate <= 0 || f.precision <= 0:
		return usagef("--rate, --ramp-rate, --max-rate and --precision must be positive")
	}
	return nil
}

// onlyLabels keeps the entries of the comma-separated labels: a
// template's number or name (5, QT5) or any label of the file (an
// operation's name); a label the file does not have is an error.
func onlyLabels(in []queryfile.Entry, list string) ([]queryfile.Entry, error) {
	keep := map[string]bool{}
	for _, l := range strings.Split(list, ",") {
		l = strings.TrimSpace(l)
		if ids, err := workload.ParseTemplateList(l); err == nil && len(ids) == 1 {
			l = "QT" + strconv.Itoa(ids[0])
		}
		keep[l] = true
	}
	have := map[string]bool{}
	var out []queryfile.Entry
	for _, e := range in {
		have[e.Label] = true
		if keep[e.Label] {
			out = append(out, e)
		}
	}
	for l := range keep {
		if !have[l] {
			return nil, fmt.Errorf("--templates: no entry is labelled %q (the labels are %s)", l, strings.Join(queryfile.Labels(in), ", "))
		}
	}
	return out, nil
}

// headerInfo is the run file header's account of the command.
func (f *loadFlags) headerInfo(fs *flag.FlagSet, env Env, c drive.Config) drive.HeaderInfo {
	flags := map[string]string{}
	fs.VisitAll(func(fl *flag.Flag) { flags[fl.Name] = fl.Value.String() })
	if r, ok := c.Repeats(); !ok {
		flags["runs"] = "1" // one run, whatever the mode
	} else if r.CI == 0 {
		flags["runs"] = strconv.Itoa(r.Runs) // the effective default
	}
	f.req.redactFlags(flags)
	redactFlagValues(flags) // URLs and DSNs (--target, --reference, --db-statements): dbloc.Redact
	return drive.HeaderInfo{
		Version: Version, Command: append([]string{"gqlbench"}, f.req.redactArgs(redactArgs(env.Args))...), Flags: flags,
		Target: redactArg(f.target), Timeout: f.req.timeout, Client: f.req.client, Records: f.records, Checked: !f.noCheck,
		Labels: f.labels.m,
	}
}

// runLoadMerge merges run files.
func runLoadMerge(env Env, args []string) error {
	fs := newFlags(env, "load merge", "load merge RUN.jsonl... [-o merged.jsonl]\n\nMerges the run files of load generators that ran in parallel against one server:\nintervals of the same run and index are added, histograms merged exactly;\nthe server profiles of load --profile are merged beside the -o file.\nThe shards of a split run (load --shard) must be of one run; a shard missing,\nunreadable, dead or failed is named in the merged summary (shards) and on\nstderr, and the exit code is 1 (3 when all ran and one failed a check).")
	out := fs.String("o", "", "the merged run `FILE` (default: stdout)")
	flags, files := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("name the run files to merge")
	}
	var in []*runfile.File
	var read []string       // the paths of in
	var unreadable []string // a shard's file that cannot be read is left out, and said
	var firstErr error
	for _, p := range files {
		f, err := runfile.ReadFile(p)
		if err != nil {
			unreadable = append(unreadable, fmt.Sprintf("%s (%v)", p, err))
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		in, read = append(in, f), append(read, p)
	}
	if firstErr != nil && (len(in) == 0 || in[0].Header.Shard == nil) {
		return firstErr
	}
	m, err := runfile.Merge(in)
	if err != nil {
		return err
	}
	if err := mergeProfiles(env, read, in, *out, m); err != nil {
		return err
	}
	if err := writeOut(env, *out, func(w io.Writer) error { return runfile.WriteFile(w, m) }); err != nil {
		return err
	}
	return mergeVerdict(env.Stderr, m, unreadable)
}

// writeOut writes to path (outfile.WriteFile), or to stdout when path is
// "" or "-".
func writeOut(env Env, path string, write func(io.Writer) error) error {
	if path == "" || outfile.IsStdout(path) {
		return write(env.Stdout)
	}
	return writeFileAtomic(path, write)
}

// runLoadShow prints a run file's summary, recomputed from its intervals.
func runLoadShow(env Env, args []string) error {
	fs := newFlags(env, "load show", "load show RUN.jsonl\n\nPrints the summary of a run file, recomputed from its intervals.")
	flags, files := splitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("name one run file")
	}
	f, err := readRunFile(env, files[0])
	if err != nil {
		return err
	}
	h := f.Header
	fmt.Fprintf(env.Stdout, "%s %s against %s (%s, %d queries of %s), %s\n", h.Tool.Name, h.Mode, h.Target,
		h.Queries.Path, h.Queries.Instances, strings.Join(h.Queries.Templates, ","), h.Start.Format(time.RFC3339))
	if f.Truncated {
		fmt.Fprintln(env.Stdout, "(the last line was cut short)")
	}
	for _, s := range f.Steps {
		fmt.Fprintf(env.Stdout, "  step %d at %.1f/s: %.1f req/s, latency p50 %.3f ms p99 %.3f ms, met %v %s\n",
			s.Step, s.Rate, s.Throughput, float64(s.Latency.P50)/1e6, float64(s.Latency.P99)/1e6, s.Met, s.Why)
	}
	sum, err := runfile.Summarize(f)
	if err != nil {
		return err
	}
	runfile.WriteText(env.Stdout, sum)
	return nil
}

// profile starts the load generator's CPU profile and execution trace, as
// asked; stop ends them and closes their files.
func profile(cpuPath, tracePath string) (stop func(), err error) {
	var files []*os.File
	stop = func() {
		pprof.StopCPUProfile()
		trace.Stop()
		for _, f := range files {
			f.Close()
		}
	}
	if cpuPath != "" {
		f, err := outfile.Open(cpuPath, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		files = append(files, f)
		if err := pprof.StartCPUProfile(f); err != nil {
			stop()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if tracePath != "" {
		f, err := outfile.Open(tracePath, 0o644)
		if err != nil {
			stop()
			return nil, fmt.Errorf("--exectrace: %w", err)
		}
		files = append(files, f)
		if err := trace.Start(f); err != nil {
			stop()
			return nil, fmt.Errorf("--exectrace: %w", err)
		}
	}
	return stop, nil
}

// http2Flag is --http2: HTTP/2 to every target (--http2, --http2=true), to
// one API's only (--http2=rest, --http2=graphql), or not (--http2=false).
type http2Flag struct {
	on   bool
	only string
}

func (f *http2Flag) String() string {
	switch {
	case f == nil || !f.on:
		return "false"
	case f.only != "":
		return f.only
	}
	return "true"
}

func (f *http2Flag) Set(s string) error {
	switch s {
	case "true", "both", "all":
		*f = http2Flag{on: true}
	case "false", "none":
		*f = http2Flag{}
	case drive.APIREST, drive.APIGraphQL:
		*f = http2Flag{on: true, only: s}
	default:
		return fmt.Errorf("want true (or both), false, rest or graphql — with =: --http2=rest; got %q", s)
	}
	return nil
}

// IsBoolFlag lets --http2 stand alone.
func (f *http2Flag) IsBoolFlag() bool { return true }
