package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/experiment"
)

func init() {
	register("suite", "a server's health suite for one variant (seed 003): overhead, max-throughput, soak and subscriptions with one pass/fail table, a CI gate", runSuite)
}

const suiteSynopsis = `suite VARIANT [--quick] [--fail-if SPEC] [--parts overhead,max-throughput,soak,subscriptions] [--set PART.FLAG=VALUE]... [flags]

Seed 003's release suite for one variant, and the subscription load it
planned: experiment overhead, max-throughput, soak and subscriptions, each
writing its own report in DIR/PART/, then one table of every part's
verdicts — part, measure, value, threshold, pass or fail — on stdout and in
DIR/report.html, report.md and report.json (docs/suite.md). A part that
does not apply to the variant (a server without subscriptions, a variant
without a database for the REST control) is an n/a row saying why; a part
that cannot run (its server dies) is a failed row with the error, and the
other parts still run.

A CI gate: exit 0 when every verdict passes (or is n/a or shown), 3 when a
verdict failed, 1 when a part could not run (what it measured is kept),
2 for a wrong command line. --fail-if sets thresholds, each replacing its
metric's default, e.g. --fail-if 'cpu-increase>5,delivery-p99>100ms,peak<500':` + "%s" + `

--quick runs every part with its own --quick settings: the whole suite in
about 3 minutes on a 2-core machine on SQLite. --set passes a part any flag
of its own (gqlbench experiment PART --help), e.g. --set soak.requests=5000.`

// runSuite is gqlbench suite.
func runSuite(ctx context.Context, env Env, args []string) error {
	st, err := parseSuite(env, args)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := st.Run(ctx)
	if res != nil && res.HTML != "" {
		fmt.Fprintf(env.Stdout, "\nreport: %s (and %s, %s); each part's in %s/PART/\n", res.HTML, res.MD, res.JSON, st.Dir)
	}
	fmt.Fprintf(env.Stderr, "suite %s: %s\n", st.Variant, time.Since(start).Round(time.Second))
	return err
}

// parseSuite parses suite's command line into a Suite whose settings, and
// every part's, are checked: a wrong one is a usage error before anything
// runs.
func parseSuite(env Env, args []string) (*experiment.Suite, error) {
	fs := newFlags(env, "suite", fmt.Sprintf(suiteSynopsis, experiment.SuiteMetricsHelp()))
	var c commonFlags
	c.register(fs, "gqlbench-suite", "sqlite")
	st := &experiment.Suite{}
	fs.BoolVar(&st.Quick, "quick", false, "every part with its --quick settings: a complete, smaller suite in a few minutes")
	failIf := fs.String("fail-if", "", "thresholds, each replacing its metric's default, e.g. `cpu-increase>5,delivery-p99>50ms,peak<500` (see above)")
	parts := fs.String("parts", strings.Join(experiment.SuiteParts, ","), "the parts to run, comma-separated")
	var sets stringList
	fs.Var(&sets, "set", "a part's own flag, `PART.FLAG=VALUE` (repeatable), e.g. soak.requests=5000")
	fs.IntVar(&st.SF, "sf", 0, "scale factor of the dataset, for every part (0: the parts' default, 1)")
	fs.IntVar(&st.Pool, "pool", 0, "database connections of each server, for every part (0: the parts' default, 10)")
	var err error
	if st.Variant, err = parseVariantArg(fs, args); err != nil {
		return nil, err
	}
	if st.SF < 0 || st.Pool < 0 {
		return nil, usagef("--sf and --pool must not be negative")
	}
	for _, p := range strings.Split(*parts, ",") {
		if p = strings.TrimSpace(p); p != "" {
			st.Parts = append(st.Parts, p)
		}
	}
	if len(st.Parts) == 0 {
		return nil, usagef("--parts: no parts")
	}
	if *failIf != "" {
		if st.Thresholds, err = experiment.ParseSuiteThresholds(*failIf); err != nil {
			return nil, err
		}
	}
	if st.Set, err = experiment.ParseSuiteSet(sets); err != nil {
		return nil, err
	}
	if st.Common, err = c.common(env); err != nil {
		return nil, err
	}
	return st, st.Check()
}

// parseVariantArg parses fs from args with the one variant before the
// flags or after them, and returns the variant.
func parseVariantArg(fs *flag.FlagSet, args []string) (string, error) {
	variant := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		variant, args = args[0], args[1:]
	}
	if err := parse(fs, args); err != nil {
		return "", err
	}
	if variant == "" && fs.NArg() > 0 { // the variant after the flags
		variant = fs.Arg(0)
		if err := parse(fs, fs.Args()[1:]); err != nil {
			return "", err
		}
	}
	switch {
	case variant == "":
		return "", usagef("name a variant: gqlbench suite VARIANT [flags] (gqlbench serve --help lists them)")
	case fs.NArg() > 0:
		return "", usagef("unexpected argument %q: one variant only", fs.Arg(0))
	}
	return variant, nil
}
