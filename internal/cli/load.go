package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/workload"
)

func init() {
	register("load", "drive load at a GraphQL server and measure it: closed, sequential, open, ramp, capacity (run file)", runLoad)
}

// exitError carries an exit code other than ExitFailure.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// ExitCode is the code the process exits with.
func (e exitError) ExitCode() int { return e.code }

const loadSynopsis = `load --target URL --queries FILE [--mode closed|sequential|open|ramp|capacity] [flags] [-o run.jsonl]
       gqlbench load merge RUN.jsonl... [-o merged.jsonl]
       gqlbench load show RUN.jsonl

Modes (see docs/load.md):
  closed      --clients N each cycling its share, next query when the answer is complete;
              --duration per run, --runs R (the first a warm-up), --think D (uniform in [0,D])
  sequential  one connection, round-robin over templates, each query once per pass; --passes P
              measured after --warmup-passes W (1)
  open        --rate R per second, --arrival constant|poisson, --connections N; latency
              from the intended send time (coordinated omission corrected)
  ramp        closed-loop users added at --ramp-rate per second (with --think) until errors,
              wrong answers or --slo break, up to --max-clients, within --duration
  capacity    the highest open-loop rate meeting --slo (e.g. p99<200ms): doubling from
              --rate, then bisection to --precision; each step lasts --duration

Before the load, the target must answer {__typename} as GraphQL and every template's first
query without errors (--no-check skips this). Every response is verified: status 200, no
GraphQL errors, data equal to the queries file's "expect" hash (--verify-sample F checks
the data of a fraction F). The run file (JSON lines: header, interval, step, query, summary)
is flushed line by line. Exit codes: 0 ok; 1 failure (unreachable target, server died or
stalled mid-run, interrupted, I/O); 2 wrong usage; 3 a check failed (wrong answers, errors,
SLO).`

// loadFlags are load's flags.
type loadFlags struct {
	target, queries, mode, out, arrival, slo, records, client, templates   string
	clients, connections, runs, passes, warmupPasses, maxClients, maxSteps int
	duration, think, interval, late, maxLate, timeout, abortAfter          time.Duration
	rate, rampRate, maxRate, precision, maxErrorRate, verifySample         float64
	seed                                                                   uint64
	maxResponse                                                            int
	watch                                                                  pidList
	labels                                                                 labelFlag
	headers                                                                stringList
	noCheck, quiet                                                         bool
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

func runLoad(ctx context.Context, env Env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return runLoadMerge(env, args[1:])
		case "show":
			return runLoadShow(env, args[1:])
		}
	}
	fs := newFlags(env, "load", loadSynopsis)
	var f loadFlags
	fs.StringVar(&f.target, "target", "", "the GraphQL endpoint `URL`, e.g. http://127.0.0.1:4000/graphql")
	fs.StringVar(&f.queries, "queries", "", "the queries `FILE` (JSON lines from gqlbench queries)")
	fs.StringVar(&f.mode, "mode", "closed", "closed, sequential, open, ramp or capacity")
	fs.StringVar(&f.out, "o", "", "the run `FILE` (default: stdout)")
	fs.StringVar(&f.templates, "templates", "", "only the queries of these templates, e.g. 5 or QT3,QT5")
	fs.IntVar(&f.clients, "clients", 1, "closed: simulated clients, one connection each")
	fs.IntVar(&f.connections, "connections", 64, "open, capacity: connections, the most requests in flight")
	fs.DurationVar(&f.duration, "duration", 60*time.Second, "closed, open: each run; capacity: each step; ramp: at most")
	fs.IntVar(&f.runs, "runs", 0, "closed, open: runs, the first a warm-up when more than one (default: closed 6, open 1)")
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
	fs.DurationVar(&f.late, "late", time.Millisecond, "open: a send this much after its intended time counts as late")
	fs.DurationVar(&f.maxLate, "max-lateness", 0, "open: drop a send that cannot start within this of its time (0: never drop)")
	fs.DurationVar(&f.timeout, "timeout", 60*time.Second, "per request, connect included")
	fs.DurationVar(&f.abortAfter, "abort-after", 5*time.Second, "abort when only failures came back for this long")
	fs.Float64Var(&f.verifySample, "verify-sample", 1, "fraction of responses whose data are compared with the expected answer")
	fs.StringVar(&f.records, "records", "", "also write per-request records (CSV, LinGBM's columns first) to `FILE`")
	fs.Var(&f.watch, "watch-pid", "sample CPU % and memory of process `PID` and its descendants each interval (repeatable: the server, the database's postmaster)")
	fs.Var(&f.labels, "label", "label the run `KEY=VALUE` in its header (repeatable), e.g. server=batch, sf=10, pool=10: reports group and compare runs by labels")
	fs.Var(&f.headers, "header", "extra request header \"Name: value\" (repeatable)")
	fs.StringVar(&f.client, "client", "gqlbench", "HTTP client: gqlbench (its own HTTP/1.1) or net/http")
	fs.IntVar(&f.maxResponse, "max-response", 256<<20, "largest response in bytes")
	fs.BoolVar(&f.noCheck, "no-check", false, "skip the checks of the target before the load")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	cfg, err := f.config(set)
	if err != nil {
		return err
	}

	// Everything that can be wrong is found before any load starts.
	data, err := os.ReadFile(f.queries)
	if err != nil {
		return fmt.Errorf("cannot read the queries file: %w", err)
	}
	inst, err := workload.ReadJSONL(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("queries file %s: %w", f.queries, err)
	}
	if ids, err := templateList(f.templates); err != nil {
		return err
	} else if ids != nil {
		inst = onlyTemplates(inst, ids)
	}
	if len(inst) == 0 {
		return fmt.Errorf("queries file %s: no queries to send", f.queries)
	}
	reqs, err := drive.FromInstances(inst)
	if err != nil {
		return err
	}
	hopts := drive.HTTPOptions{Timeout: f.timeout, MaxResponseBytes: f.maxResponse, Header: f.headers, UserAgent: "gqlbench/" + Version}
	newTransport := func(r []drive.Request) (drive.Transport, error) {
		if f.client == "net/http" {
			return drive.NewStdHTTP(f.target, r, hopts)
		}
		return drive.NewHTTP(f.target, r, hopts)
	}
	if cfg.Transport, err = newTransport(reqs); err != nil {
		return usageError{err.Error()}
	}
	cfg.Requests = reqs
	var watched []runfile.Watched
	for _, pid := range f.watch {
		p, err := measure.NewProcTree(pid)
		if err != nil {
			return err
		}
		cfg.Watch = append(cfg.Watch, p)
		watched = append(watched, runfile.Watched{PID: pid, Name: p.Name})
	}
	if self, err := measure.NewProc(os.Getpid()); err == nil {
		cfg.Self = self
	}
	if !f.quiet {
		cfg.Log = env.Stderr
	}
	if !f.noCheck {
		warnings, err := drive.Preflight(ctx, f.target, newTransport, reqs)
		if err != nil {
			return err
		}
		for _, w := range warnings {
			fmt.Fprintf(env.Stderr, "load: warning: %s\n", w)
		}
	}

	out := env.Stdout
	if f.out != "" {
		fh, err := os.Create(f.out)
		if err != nil {
			return fmt.Errorf("cannot write the run file: %w", err)
		}
		defer fh.Close()
		out = fh
	}
	if f.records != "" {
		fh, err := os.Create(f.records)
		if err != nil {
			return fmt.Errorf("cannot write the records: %w", err)
		}
		defer fh.Close()
		cfg.Records = measure.NewRecordWriter(fh)
	}
	w := runfile.NewWriter(out)
	h := f.header(fs, env, cfg, inst, data)
	h.Watch = watched
	if err := w.Write(h); err != nil {
		return fmt.Errorf("run file: %w", err)
	}
	sum, err := drive.Run(ctx, cfg, w)
	if sum != nil && !f.quiet {
		runfile.WriteText(env.Stderr, sum)
	}
	var check *drive.CheckError
	if errors.As(err, &check) {
		return exitError{ExitCheck, err}
	}
	return err
}

// config turns the flags into a drive.Config, or a usage error.
func (f *loadFlags) config(set map[string]bool) (drive.Config, error) {
	var c drive.Config
	switch {
	case f.target == "":
		return c, usagef("say where to send the load: --target http://HOST:PORT/graphql")
	case f.queries == "":
		return c, usagef("say what to send: --queries FILE (from gqlbench queries)")
	case f.clients < 1 || f.connections < 1 || f.passes < 1 || f.maxClients < 1 || f.maxSteps < 1:
		return c, usagef("--clients, --connections, --passes, --max-clients and --max-steps must be at least 1")
	case f.warmupPasses < 0:
		return c, usagef("--warmup-passes must not be negative")
	case f.runs < 0:
		return c, usagef("--runs must be at least 1")
	case f.duration <= 0 || f.interval <= 0 || f.timeout <= 0:
		return c, usagef("--duration, --interval and --timeout must be positive")
	case f.think < 0 || f.late < 0 || f.maxLate < 0 || f.abortAfter < 0:
		return c, usagef("--think, --late, --max-lateness and --abort-after must not be negative")
	case f.verifySample <= 0 || f.verifySample > 1:
		return c, usagef("--verify-sample must be in (0, 1], got %g", f.verifySample)
	case f.maxErrorRate < 0 || f.maxErrorRate > 1:
		return c, usagef("--max-error-rate must be in [0, 1], got %g", f.maxErrorRate)
	case f.arrival != "constant" && f.arrival != "poisson":
		return c, usagef("--arrival must be constant or poisson, got %q", f.arrival)
	case f.client != "gqlbench" && f.client != "net/http":
		return c, usagef("--client must be gqlbench or net/http, got %q", f.client)
	case f.rate < 0 || f.rampRate <= 0 || f.maxRate <= 0 || f.precision <= 0:
		return c, usagef("--rate, --ramp-rate, --max-rate and --precision must be positive")
	}
	c = drive.Config{Mode: drive.Mode(f.mode), Clients: f.clients, Connections: f.connections, Duration: f.duration,
		Runs: f.runs, Think: f.think, Passes: f.passes, WarmupPasses: f.warmupPasses, Rate: f.rate, Poisson: f.arrival == "poisson", Seed: f.seed,
		RampRate: f.rampRate, MaxClients: f.maxClients, MaxRate: f.maxRate, Precision: f.precision, MaxSteps: f.maxSteps,
		MaxErrorRate: f.maxErrorRate, Interval: f.interval, Late: f.late, MaxLate: f.maxLate, AbortAfter: f.abortAfter,
		VerifySample: f.verifySample, Cores: runtime.GOMAXPROCS(0)}
	if f.slo != "" {
		slo, err := measure.ParseSLO(f.slo)
		if err != nil {
			return c, usagef("--slo: %v", err)
		}
		c.SLO = slo
	}
	valid := false
	for _, m := range drive.Modes {
		valid = valid || m == c.Mode
	}
	if !valid {
		return c, usagef("unknown --mode %q: want closed, sequential, open, ramp or capacity", f.mode)
	}
	// Flags that do nothing in the chosen mode are a mistake worth saying.
	only := map[string][]drive.Mode{
		"clients": {drive.Closed}, "connections": {drive.Open, drive.Capacity}, "runs": {drive.Closed, drive.Open},
		"think": {drive.Closed, drive.Ramp}, "passes": {drive.Sequential}, "warmup-passes": {drive.Sequential}, "rate": {drive.Open, drive.Capacity},
		"arrival": {drive.Open, drive.Capacity}, "ramp-rate": {drive.Ramp}, "max-clients": {drive.Ramp},
		"max-rate": {drive.Capacity}, "precision": {drive.Capacity}, "max-steps": {drive.Capacity},
		"max-lateness": {drive.Open, drive.Capacity}, "late": {drive.Open, drive.Capacity},
		"duration": {drive.Closed, drive.Open, drive.Ramp, drive.Capacity},
	}
	for name, modes := range only {
		if !set[name] {
			continue
		}
		ok := false
		for _, m := range modes {
			ok = ok || m == c.Mode
		}
		if !ok {
			return c, usagef("--%s does not apply to --mode %s", name, c.Mode)
		}
	}
	c = c.Defaults()
	if err := c.ValidateParams(); err != nil {
		return c, usageError{err.Error()}
	}
	return c, nil
}

// onlyTemplates keeps the instances of the given templates.
func onlyTemplates(in []workload.Instance, ids []int) []workload.Instance {
	keep := map[int]bool{}
	for _, id := range ids {
		keep[id] = true
	}
	var out []workload.Instance
	for _, i := range in {
		if keep[i.Template] {
			out = append(out, i)
		}
	}
	return out
}

// header makes the run file's header.
func (f *loadFlags) header(fs *flag.FlagSet, env Env, c drive.Config, inst []workload.Instance, data []byte) *runfile.Header {
	flags := map[string]string{}
	fs.VisitAll(func(fl *flag.Flag) { flags[fl.Name] = fl.Value.String() })
	flags["runs"] = strconv.Itoa(c.Runs) // the effective default
	return drive.NewHeader(c, drive.HeaderInfo{
		Version: Version, Command: append([]string{"gqlbench"}, env.Args...), Flags: flags,
		Target: f.target, Timeout: f.timeout, Client: f.client, Records: f.records, Checked: !f.noCheck,
		Labels: f.labels.m,
	}, f.queries, data, inst)
}

// runLoadMerge merges run files.
func runLoadMerge(env Env, args []string) error {
	fs := newFlags(env, "load merge", "load merge RUN.jsonl... [-o merged.jsonl]\n\nMerges the run files of load generators that ran in parallel against one server:\nintervals of the same run and index are added, histograms merged exactly.")
	out := fs.String("o", "", "the merged run `FILE` (default: stdout)")
	flags, files := loadSplitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("name the run files to merge")
	}
	var in []*runfile.File
	for _, p := range files {
		f, err := runfile.ReadFile(p)
		if err != nil {
			return err
		}
		in = append(in, f)
	}
	m, err := runfile.Merge(in)
	if err != nil {
		return err
	}
	return writeOut(env, *out, func(w io.Writer) error { return writeRunFile(w, m) })
}

// writeRunFile writes a whole run file.
func writeRunFile(out io.Writer, f *runfile.File) error {
	w := runfile.NewWriter(out)
	w.Write(f.Header)
	for _, iv := range f.Intervals {
		w.Write(iv)
	}
	for _, s := range f.Steps {
		w.Write(s)
	}
	for _, q := range f.Queries {
		w.Write(q)
	}
	if f.Summary != nil {
		w.Write(f.Summary)
	}
	return w.Err()
}

// writeOut writes to path through a temporary file, or to stdout.
func writeOut(env Env, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(env.Stdout)
	}
	return writeFileAtomic(path, write)
}

// runLoadShow prints a run file's summary, recomputed from its intervals.
func runLoadShow(env Env, args []string) error {
	fs := newFlags(env, "load show", "load show RUN.jsonl\n\nPrints the summary of a run file, recomputed from its intervals.")
	flags, files := loadSplitArgs(fs, args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("name one run file")
	}
	f, err := runfile.ReadFile(files[0])
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

// loadSplitArgs separates flags (with their values) from file names, which
// may come in any order.
func loadSplitArgs(fs *flag.FlagSet, args []string) (flags, files []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(files, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if fl := fs.Lookup(name); fl != nil {
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	return flags, files
}
