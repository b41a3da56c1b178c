package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/experiment"
)

func init() {
	register("experiment", "run a study of the LinGBM paper end to end: optimizations (§6.2), pooling (§6.3)", runExperiment)
}

// experiments are the studies `gqlbench experiment NAME` runs.
var experiments = []struct {
	name, summary string
	run           func(context.Context, Env, []string) error
}{
	{"optimizations", "§6.2: naive, memo, batch, batch-memo: aTPt per template, QETt, aTPm over mixed workloads, aQETq over scale factors", runOptimizations},
	{"pooling", "§6.3: throughput over 1..50 clients for several connection pool sizes (QT3, QT5, QT11)", runPooling},
}

func experimentList() string {
	var b strings.Builder
	for _, e := range experiments {
		fmt.Fprintf(&b, "\n  %-14s %s", e.name, e.summary)
	}
	return b.String()
}

func runExperiment(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return usagef("name an experiment: gqlbench experiment NAME [flags]%s", experimentList())
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(env.Stdout, "Usage: gqlbench experiment NAME [flags]\n\nExperiments:%s\n\nRun 'gqlbench experiment NAME --help' for its flags; docs/experiments.md explains each.\n", experimentList())
		return flag.ErrHelp
	}
	for _, e := range experiments {
		if e.name == args[0] {
			return e.run(ctx, env, args[1:])
		}
	}
	return usagef("unknown experiment %q; the experiments are:%s", args[0], experimentList())
}

const optimizationsSynopsis = `experiment optimizations [--db sqlite|postgres|URL] [--sf 1,10] [--variants naive,memo,batch,batch-memo] [--duration 1s] [--runs 3] [--mixes 6] [flags]

LinGBM §6.2. At the first scale factor of --sf: aTPt per template and variant
(closed loop, --runs runs of --duration, the first a warm-up; QETt box plots
from the same runs) and aTPm over --mixes mixed workloads (each the same
--mix-per instances per template, shuffled with its own seed, run once for
--mix-duration). At every scale factor: aQETq of --seq-queries instances per
template (the same ones at every scale factor), sequential mode, --passes
passes. Each variant runs in its own process; every answer is verified.
With the defaults it takes about 5 minutes on a 2-core machine. The paper's
parameters: --db postgres --sf 100,125,150 --duration 60s --runs 6
--per-template 5000 --mix-duration 600s (many hours).`

func runOptimizations(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "experiment optimizations", optimizationsSynopsis)
	var c commonFlags
	c.register(fs, "gqlbench-optimizations")
	sfs := fs.String("sf", "1,10", "scale factors: aTPt, QETt and aTPm at the first, aQETq at each")
	variants := fs.String("variants", strings.Join(experiment.OptimizationsVariants, ","), "comma-separated server variants")
	templates := fs.String("templates", "", "comma-separated templates (default all 16)")
	duration := fs.Duration("duration", experiment.OptimizationsDuration, "aTPt: each run")
	runs := fs.Int("runs", experiment.OptimizationsRuns, "aTPt: runs per template and variant, the first a warm-up")
	clients := fs.Int("clients", 1, "closed-loop clients of the aTPt and aTPm runs")
	per := fs.Int("per-template", 100, "aTPt: instances per template (all of them when a template has fewer)")
	mixes := fs.Int("mixes", 6, "aTPm: mixed workloads (0: none)")
	mixPer := fs.Int("mix-per", 100, "aTPm: instances of each template in every mixed workload")
	mixDuration := fs.Duration("mix-duration", experiment.OptimizationsMixDuration, "aTPm: each mixed workload's run")
	seq := fs.Int("seq-queries", 5, "aQETq: instances per template (0: no aQETq)")
	passes := fs.Int("passes", 10, "aQETq: executions of each instance")
	pool := fs.Int("pool", 10, "database connections of each server")
	if err := parse(fs, args); err != nil {
		return err
	}
	o := experiment.Optimizations{Duration: *duration, Runs: *runs, Clients: *clients, PerTemplate: *per, Mixes: *mixes,
		MixPer: *mixPer, MixDuration: *mixDuration, SeqQueries: *seq, Passes: *passes, Pool: *pool}
	var err error
	if o.SFs, err = intsFlag("sf", *sfs); err != nil {
		return err
	}
	if o.Variants, err = variantList(*variants); err != nil {
		return err
	}
	if o.Templates, err = templateList(*templates); err != nil {
		return err
	}
	switch {
	case *duration <= 0 || *mixDuration <= 0:
		return usagef("--duration and --mix-duration must be positive")
	case *runs < 1 || *clients < 1 || *per < 1 || *mixPer < 1 || *passes < 1 || *pool < 1:
		return usagef("--runs, --clients, --per-template, --mix-per, --passes and --pool must be at least 1")
	case *mixes < 0 || *seq < 0:
		return usagef("--mixes and --seq-queries must not be negative")
	case *mixes == 1:
		return usagef("aTPm is a mean over several mixed workloads: --mixes 2 or more (or 0 for none)")
	}
	if o.Common, err = c.common(env); err != nil {
		return err
	}
	start := time.Now()
	res, err := o.Run(ctx)
	return experimentDone(env, "experiment optimizations", res, err, start)
}

const poolingSynopsis = `experiment pooling [--db sqlite|postgres|URL] [--sf 10] [--variants batch] [--templates 3,5,11] [--clients 1,2,4,8,16,32,50] [--pools 1,2,5,10,20] [flags]

LinGBM §6.3. For each variant and pool size, a server with --pool N; each
template at each client count, closed loop, --runs runs of --duration (the
first a warm-up). The report draws throughput over clients, one line per pool
size. With the defaults it takes about 4 minutes on a 2-core machine. The
paper: --db postgres --sf 10 --variants naive,batch --clients
1,2,3,4,5,10,15,20,30,40,50 --duration 60s --runs 6.`

func runPooling(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "experiment pooling", poolingSynopsis)
	var c commonFlags
	c.register(fs, "gqlbench-pooling")
	sf := scaleFlag(10)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", "batch", "comma-separated server variants (the paper: batch; naive too for Fig. 10a-c)")
	templates := fs.String("templates", "3,5,11", "comma-separated templates")
	clients := fs.String("clients", intsString(experiment.PoolingClients), "comma-separated client counts")
	pools := fs.String("pools", intsString(experiment.PoolingPools), "comma-separated connection pool sizes")
	duration := fs.Duration("duration", time.Second, "each run")
	runs := fs.Int("runs", 2, "runs per point, the first a warm-up")
	per := fs.Int("per-template", 100, "instances per template")
	if err := parse(fs, args); err != nil {
		return err
	}
	p := experiment.Pooling{SF: int(sf), Duration: *duration, Runs: *runs, PerTemplate: *per}
	var err error
	if p.Variants, err = variantList(*variants); err != nil {
		return err
	}
	if p.Templates, err = templateList(*templates); err != nil {
		return err
	}
	if p.Clients, err = intsFlag("clients", *clients); err != nil {
		return err
	}
	if p.Pools, err = intsFlag("pools", *pools); err != nil {
		return err
	}
	switch {
	case p.Templates == nil:
		return usagef("--templates must name at least one template")
	case *duration <= 0:
		return usagef("--duration must be positive")
	case *runs < 1 || *per < 1:
		return usagef("--runs and --per-template must be at least 1")
	}
	if p.Common, err = c.common(env); err != nil {
		return err
	}
	start := time.Now()
	res, err := p.Run(ctx)
	return experimentDone(env, "experiment pooling", res, err, start)
}

// intsFlag parses a comma-separated list of positive integers.
func intsFlag(name, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usagef("--%s: want comma-separated positive integers, got %q", name, s)
		}
		out = append(out, n)
	}
	return out, nil
}

func intsString(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
