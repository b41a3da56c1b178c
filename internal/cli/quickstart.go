package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/experiment"
	"github.com/gqlbench/gqlbench/server"
)

func init() {
	register("quickstart", "generate sf=1, serve every variant, run all 16 templates against each, write a report (about 2 minutes)", runQuickstart)
}

const quickstartSynopsis = `quickstart [--dir gqlbench-results] [--duration 500ms] [--variants naive,memo,...] [--sf 1] [flags]

Generates the LinGBM dataset (sf=1) into an SQLite file in --dir, instantiates
every template with the oracle's expected answers, starts every server variant
in a process of its own, runs every template against each (closed loop, one
client, a warm-up run and a measured run of --duration each, every answer
verified), measures the null server as the load generator's ceiling, and
writes the run files to DIR/runs/ and the report to DIR/report.html and
DIR/report.md. The summary table goes to stdout, progress to stderr. With the
defaults it takes about two minutes on a 2-core machine. Ctrl-C stops the
servers and reports what was measured. Exit codes: 0 ok, 1 failure (a server
died: the run files are kept), 2 usage, 3 wrong answers or errors.`

func runQuickstart(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "quickstart", quickstartSynopsis)
	var c commonFlags
	c.register(fs, "gqlbench-results")
	sf := scaleFlag(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", strings.Join(defaultVariants(), ","), "comma-separated server variants")
	templates := fs.String("templates", "", "comma-separated templates (default all 16), e.g. 1,5,9")
	duration := fs.Duration("duration", experiment.QuickstartDuration, "length of the warm-up run and of the measured run, per variant and template")
	per := fs.Int("per-template", experiment.QuickstartPerTemplate, "instances per template (all of them when a template has fewer)")
	pool := fs.Int("pool", 10, "database connections of each server")
	ceiling := fs.Bool("ceiling", true, "also measure the null server: what the load generator can do")
	if err := parse(fs, args); err != nil {
		return err
	}
	vs, err := variantList(*variants)
	if err != nil {
		return err
	}
	ids, err := templateList(*templates)
	if err != nil {
		return err
	}
	switch {
	case *duration <= 0:
		return usagef("--duration must be positive, got %v", *duration)
	case *per < 1 || *pool < 1:
		return usagef("--per-template and --pool must be at least 1")
	}
	common, err := c.common(env)
	if err != nil {
		return err
	}
	q := experiment.Quickstart{Common: common, SF: int(sf), Variants: vs, Templates: ids, Duration: *duration,
		PerTemplate: *per, Pool: *pool, Ceiling: *ceiling}
	start := time.Now()
	res, err := q.Run(ctx)
	return experimentDone(env, "quickstart", res, err, start)
}

// commonFlags are the flags every experiment takes.
type commonFlags struct {
	dir, db   string
	keep, pin bool
	seed      uint64
	timeout   time.Duration
	quiet     bool
}

func (c *commonFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
	Uint64Var(*uint64, string, uint64, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}, dir string) {
	fs.StringVar(&c.dir, "dir", dir, "results `DIR`: runs/, report.html, report.md, queries/, logs/ (server logs), SQLite files")
	fs.StringVar(&c.db, "db", "sqlite", "database: sqlite (a file in --dir), postgres (a throwaway local cluster, removed at the end), or a postgres:// `URL` or keyword/value DSN of a user who may create databases")
	fs.BoolVar(&c.keep, "keep", false, "keep the PostgreSQL databases (and the local cluster, stopped) at the end")
	fs.BoolVar(&c.pin, "pin", true, "pin the servers and the local PostgreSQL to one CPU and the load generator to another (with 2 CPUs or more)")
	fs.Uint64Var(&c.seed, "seed", 0, "random `SEED` of the dataset and the workloads")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "per request")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress on stderr")
}

// common makes the experiment's common settings.
func (c *commonFlags) common(env Env) (experiment.Common, error) {
	if c.timeout <= 0 {
		return experiment.Common{}, usagef("--timeout must be positive")
	}
	if c.dir == "" {
		return experiment.Common{}, usagef("--dir must not be empty")
	}
	log := env.Stderr
	if c.quiet {
		log = nil
	}
	exe, err := os.Executable()
	if err != nil {
		return experiment.Common{}, fmt.Errorf("cannot find this program to start the servers: %w", err)
	}
	command := append([]string{"gqlbench"}, redactArgs(env.Args)...) // run files and reports are shared; passwords are not
	return experiment.Common{Dir: c.dir, DB: c.db, Keep: c.keep, Exe: exe, Pin: c.pin, Seed: c.seed, Timeout: c.timeout,
		Version: Version, Command: command, Log: log, Out: env.Stdout}, nil
}

// redactArgs returns args with every argument that may hold a password
// redacted (dbloc.Redact): the value of --db, given as --db=VALUE or as the
// next argument, and any argument holding "://", '@' or "password".
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	afterDB := false
	for i, a := range args {
		flag, _, withValue := strings.Cut(a, "=")
		isDB := flag == "--db" || flag == "-db"
		out[i] = a
		if afterDB || isDB && withValue || strings.Contains(a, "://") || strings.Contains(a, "@") || strings.Contains(strings.ToLower(a), "password") {
			out[i] = dbloc.Redact(a)
		}
		afterDB = isDB && !withValue
	}
	return out
}

// experimentDone reports where the results are and maps the error to an
// exit code: 3 when every run completed and a check failed.
func experimentDone(env Env, name string, res *experiment.Result, err error, start time.Time) error {
	if res != nil {
		if res.HTML != "" {
			fmt.Fprintf(env.Stdout, "\nreport: %s (and %s)\n", res.HTML, res.MD)
		}
		if len(res.Runs) > 0 {
			fmt.Fprintf(env.Stdout, "run files: %d in %s\n", len(res.Runs), dirOf(res.Runs[0]))
		}
		fmt.Fprintf(env.Stderr, "%s: %d runs in %s, %d wrong answers, %d errors\n", name, len(res.Runs), time.Since(start).Round(time.Second), res.Wrong, res.Errors)
	}
	var check *experiment.CheckError
	if errors.As(err, &check) {
		return exitError{ExitCheck, err}
	}
	return err
}

// defaultVariants are every registered variant but null (whose canned
// answer is wrong for every template; see --ceiling): the paper's servers
// first, from the simplest technique to the most elaborate, then the rest.
func defaultVariants() []string {
	order := map[string]int{"naive": 1, "memo": 2, "batch": 3, "batch-memo": 4, "compiled": 5, "inmem": 6}
	var out []string
	for _, v := range server.Variants() {
		if v.Name != "null" && !strings.HasPrefix(v.Name, "cli-test") {
			out = append(out, v.Name)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		ra, rb := order[a], order[b]
		if ra == 0 {
			ra = len(order) + 1
		}
		if rb == 0 {
			rb = len(order) + 1
		}
		return ra - rb
	})
	return out
}

// variantList parses a comma-separated list of server variants.
func variantList(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := server.Lookup(name); !ok {
			return nil, usagef("unknown variant %q: the variants are %s", name, variantNames())
		}
		if name == "null" {
			return nil, usagef("null answers every query with the same canned data, so every answer would be wrong: it is measured as the load generator's ceiling instead (quickstart --ceiling)")
		}
		if seen[name] {
			return nil, usagef("variant %s appears twice", name)
		}
		seen[name] = true
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, usagef("no variants: give --variants naive,batch,...")
	}
	return out, nil
}
