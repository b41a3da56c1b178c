package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/experiment"
	"github.com/gqlbench/gqlbench/internal/outfile"
)

func init() {
	register("experiment", "run a study end to end (gqlbench experiment --help lists them): LinGBM §6.2–6.4 (optimizations, pooling, generic), REST against GraphQL (rest-vs-graphql)", runExperiment)
}

// experimentList is a line per registered experiment: its name and summary.
func experimentList() string {
	var b strings.Builder
	for _, e := range experiment.List() {
		fmt.Fprintf(&b, "\n  %-14s %s", e.Name, e.Summary)
	}
	return b.String()
}

// runExperiment runs `gqlbench experiment NAME`, any experiment of the
// registry (experiment.Register).
func runExperiment(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("name an experiment: gqlbench experiment NAME [flags]%s", experimentList())
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(env.Stdout, "Usage: gqlbench experiment NAME [flags]\n\nExperiments:%s\n\nRun 'gqlbench experiment NAME --help' for its flags; docs/experiments.md explains each.\n", experimentList())
		return flag.ErrHelp
	}
	if e, ok := experiment.Lookup(args[0]); ok {
		return runStudy(ctx, env, "experiment "+e.Name, e, args[1:])
	}
	return usagef("unknown experiment %q; the experiments are:%s", args[0], experimentList())
}

// runStudy runs experiment e as the command cmd: its own flags and the
// common ones, its checks, its run, and where its results are.
func runStudy(ctx context.Context, env Env, cmd string, e experiment.Experiment, args []string) error {
	fs := newFlags(env, cmd, e.Synopsis)
	var c commonFlags
	c.register(fs, e.Dir, e.DB)
	setup := e.Flags(fs)
	quick := registerQuick(fs, e)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := quick(); err != nil {
		return err
	}
	run, err := setup()
	if err != nil {
		return err
	}
	common, err := c.common(env)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := run(ctx, common)
	return experimentDone(env, cmd, res, err, start)
}

// registerQuick registers --quick for e: the settings of e.Quick, each
// unless its flag was given. The returned function applies them once fs is
// parsed.
func registerQuick(fs *flag.FlagSet, e experiment.Experiment) func() error {
	if len(e.Quick) == 0 {
		return func() error { return nil }
	}
	var sets []string
	for _, q := range e.Quick {
		sets = append(sets, "--"+q[0]+" "+q[1])
	}
	on := fs.Bool("quick", false, "a complete, smaller run in a few minutes (for newcomers and CI): "+strings.Join(sets, " ")+"; flags given too keep their values")
	return func() error {
		if !*on {
			return nil
		}
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		for _, q := range e.Quick {
			if given[q[0]] {
				continue
			}
			if err := fs.Set(q[0], q[1]); err != nil {
				return fmt.Errorf("--quick sets --%s %s: %w", q[0], q[1], err)
			}
		}
		return nil
	}
}

// commonFlags are the flags every experiment takes.
type commonFlags struct {
	dir, db   string
	keep, pin bool
	seed      uint64
	timeout   time.Duration
	quiet     bool
}

// register registers the common flags on fs, with dir the default of --dir.
func (c *commonFlags) register(fs *flag.FlagSet, dir, db string) {
	if db == "" {
		db = "sqlite"
	}
	fs.StringVar(&c.dir, "dir", dir, "results `DIR`: runs/, report.html, report.md, queries/, logs/ (server logs), SQLite files")
	fs.StringVar(&c.db, "db", db, "database: sqlite (a file in --dir), postgres (a throwaway local cluster, removed at the end), or a postgres:// `URL` or keyword/value DSN of a user who may create databases")
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
	if err := outfile.CheckDir(c.dir); err != nil { // a device named by --dir is refused, never replaced
		return experiment.Common{}, usagef("--dir: %v", err)
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

// experimentDone reports where the results are and maps the error to an
// exit code: 3 when every run completed and a check failed.
func experimentDone(env Env, name string, res *experiment.Result, err error, start time.Time) error {
	if res != nil {
		if res.HTML != "" {
			fmt.Fprintf(env.Stdout, "\nreport: %s (and %s)\n", res.HTML, strings.Join(append([]string{res.MD}, res.Extra...), ", "))
		}
		if len(res.Runs) > 0 {
			fmt.Fprintf(env.Stdout, "run files: %d in %s\n", len(res.Runs), dirOf(res.Runs[0]))
		}
		fmt.Fprintf(env.Stderr, "%s: %d runs in %s, %d wrong answers, %d errors\n", name, len(res.Runs), time.Since(start).Round(time.Second), res.Wrong, res.Errors)
	}
	var check *experiment.CheckError
	if errors.As(err, &check) {
		return exitcode.With(exitcode.Check, err)
	}
	return err
}

// redactArgs returns args with every argument that may hold a secret
// redacted (dbloc.Redact, the one redaction): the value of a flag that
// names a database or an endpoint (--db, --db-statements, --target,
// --reference, --paired-target, --schema), given as --flag=VALUE or as the
// next argument, and any argument holding "://", '@', "password" or a
// secret parameter (redactArg).
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	afterFlag := false
	for i, a := range args {
		flag, _, withValue := strings.Cut(a, "=")
		isLoc := slices.Contains(locationFlags, strings.TrimLeft(flag, "-")) && strings.HasPrefix(flag, "-")
		switch {
		case afterFlag, isLoc && withValue, strings.Contains(strings.ToLower(a), "password"):
			out[i] = dbloc.Redact(a)
		default:
			out[i] = redactArg(a)
		}
		afterFlag = isLoc && !withValue
	}
	return out
}

// locationFlags are the flags whose value is a database location or an
// endpoint's URL.
var locationFlags = []string{"db", "db-statements", "target", "reference", "paired-target", "schema"}
