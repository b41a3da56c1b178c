package experiment

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/workload"
)

// Optimizations is the LinGBM paper's §6.2: the naive server against
// server-side caching (memo), batching (batch) and both (batch-memo).
//
//   - aTPt: per template, a one-template workload, closed loop, Runs runs
//     of Duration of which the first is a warm-up, at the first scale
//     factor; the same runs give QETt, the distribution of query execution
//     times per template (box plots);
//   - aTPm: Mixes mixed workloads, each a differently shuffled sequence of
//     the same MixPer instances of every template, each run once for
//     MixDuration (the servers are warm from the aTPt runs), at the first
//     scale factor;
//   - aQETq: SeqQueries instances per template, the same ones at every
//     scale factor (drawn at the smallest, so that they exist at all),
//     executed Passes times each in sequential mode, at every scale factor.
type Optimizations struct {
	Common
	SFs         []int         // scale factors: everything at the first, aQETq at each (default 1, 10)
	Variants    []string      // default naive, memo, batch, batch-memo
	Templates   []int         // default all 16
	Duration    time.Duration // each aTPt run (default 1s; paper 60s)
	Runs        int           // aTPt runs per template, the first a warm-up (default 3; paper 6)
	Clients     int           // closed-loop clients (default 1, as the paper)
	PerTemplate int           // instances per template of the aTPt workloads (default 100; paper 5000)
	Mixes       int           // mixed workloads for aTPm (default 6, as the paper; 0: none)
	MixPer      int           // instances of each template in every mix (default 100, as the paper)
	MixDuration time.Duration // each mix's run (default 3s; paper 600s)
	SeqQueries  int           // aQETq: instances per template (default 5, as the paper; 0: no aQETq)
	Passes      int           // aQETq: executions of each (default 10)
	Pool        int           // database connections of each server (default 10, as the paper)
}

func init() {
	Register(Experiment{
		Name:     "optimizations",
		Summary:  "§6.2: naive, memo, batch, batch-memo: aTPt per template, QETt, aTPm over mixed workloads, aQETq over scale factors",
		Synopsis: optimizationsSynopsis,
		Dir:      "gqlbench-optimizations",
		Quick: [][2]string{{"sf", "1,2"}, {"duration", "250ms"}, {"runs", "4"}, {"per-template", "20"},
			{"mixes", "2"}, {"mix-per", "10"}, {"mix-duration", "1s"}, {"seq-queries", "2"}, {"passes", "3"}},
		Flags: optimizationsFlags,
	})
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

// optimizationsFlags registers the flags of Optimizations.
func optimizationsFlags(fs *flag.FlagSet) Setup {
	var o Optimizations
	sfs := fs.String("sf", "1,10", "scale factors: aTPt, QETt and aTPm at the first, aQETq at each")
	variants := fs.String("variants", strings.Join(OptimizationsVariants, ","), "comma-separated server variants")
	templates := fs.String("templates", "", "comma-separated templates (default all 16)")
	fs.DurationVar(&o.Duration, "duration", OptimizationsDuration, "aTPt: each run")
	fs.IntVar(&o.Runs, "runs", OptimizationsRuns, "aTPt: runs per template and variant, the first a warm-up")
	fs.IntVar(&o.Clients, "clients", 1, "closed-loop clients of the aTPt and aTPm runs")
	fs.IntVar(&o.PerTemplate, "per-template", 100, "aTPt: instances per template (all of them when a template has fewer)")
	fs.IntVar(&o.Mixes, "mixes", 6, "aTPm: mixed workloads (0: none)")
	fs.IntVar(&o.MixPer, "mix-per", 100, "aTPm: instances of each template in every mixed workload")
	fs.DurationVar(&o.MixDuration, "mix-duration", OptimizationsMixDuration, "aTPm: each mixed workload's run")
	fs.IntVar(&o.SeqQueries, "seq-queries", 5, "aQETq: instances per template (0: no aQETq)")
	fs.IntVar(&o.Passes, "passes", 10, "aQETq: executions of each instance")
	fs.IntVar(&o.Pool, "pool", 10, "database connections of each server")
	return newSetup(&o, func() error {
		return o.parse(*sfs, *variants, *templates)
	})
}

// parse sets the list settings from their flags.
func (o *Optimizations) parse(sfs, variants, templates string) error {
	var err error
	if o.SFs, err = parseInts("sf", sfs); err != nil {
		return err
	}
	if o.Variants, err = parseVariants(variants); err != nil {
		return err
	}
	o.Templates, err = parseTemplates(templates)
	return err
}

// check returns an *exitcode.UsageError for a setting out of range, which
// Run would quietly replace by its default.
func (o *Optimizations) check() error {
	switch {
	case o.Duration <= 0 || o.MixDuration <= 0:
		return usagef("--duration and --mix-duration must be positive")
	case o.Runs < 1 || o.Clients < 1 || o.PerTemplate < 1 || o.MixPer < 1 || o.Passes < 1 || o.Pool < 1:
		return usagef("--runs, --clients, --per-template, --mix-per, --passes and --pool must be at least 1")
	case o.Mixes < 0 || o.SeqQueries < 0:
		return usagef("--mixes and --seq-queries must not be negative")
	case o.Mixes == 1:
		return usagef("aTPm is a mean over several mixed workloads: --mixes 2 or more (or 0 for none)")
	}
	return nil
}

// OptimizationsVariants are the paper's four servers.
var OptimizationsVariants = []string{"naive", "memo", "batch", "batch-memo"}

// Defaults of Optimizations, sized for minutes on a 2-core machine.
const (
	OptimizationsDuration    = time.Second
	OptimizationsRuns        = 3
	OptimizationsMixDuration = 3 * time.Second
)

func (o *Optimizations) defaults() {
	if len(o.SFs) == 0 {
		o.SFs = []int{1, 10}
	}
	if len(o.Variants) == 0 {
		o.Variants = OptimizationsVariants
	}
	o.Templates = templateIDs(o.Templates)
	def := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&o.Runs, OptimizationsRuns)
	def(&o.Clients, 1)
	def(&o.PerTemplate, 100)
	def(&o.MixPer, 100)
	def(&o.Passes, 10)
	def(&o.Pool, 10)
	if o.Mixes < 0 {
		o.Mixes = 0
	}
	if o.SeqQueries < 0 {
		o.SeqQueries = 0
	}
	if o.Duration <= 0 {
		o.Duration = OptimizationsDuration
	}
	if o.MixDuration <= 0 {
		o.MixDuration = OptimizationsMixDuration
	}
}

// Run runs the experiment.
func (o Optimizations) Run(ctx context.Context) (*Result, error) {
	o.defaults()
	return runSession(ctx, "optimizations", o.Common, o.run)
}

// optWorkloads are the queries files of one scale factor.
type optWorkloads struct {
	atpt  *queryfile.File   // per-template instances (main scale factor)
	mixes []*queryfile.File // mixed workloads (main scale factor)
	seq   *queryfile.File   // the aQETq instances, with this scale factor's answers
}

func (o Optimizations) run(ctx context.Context, s *session, dbs *databases) error {
	s.config = append(s.config, o.config()...)
	s.notes = append(s.notes, o.notes(dbs)...)

	main := o.SFs[0]
	sfs := sortedUnique(o.SFs)
	if o.SeqQueries == 0 {
		sfs = []int{main} // the other scale factors are for aQETq alone
	}
	var seqInst []workload.Instance // drawn at the smallest scale factor
	for _, sf := range sfs {
		url, meta, err := dbs.dataset(ctx, sf, s.Seed)
		if err != nil {
			return err
		}
		w, err := o.workloads(ctx, s, meta, sf == main, &seqInst)
		if err != nil {
			return err
		}
		s.pinLoad()
		for _, v := range o.Variants {
			if err := o.variant(ctx, s, v, url, dbs.kind, sf, w); err != nil {
				return err
			}
		}
		s.unpinLoad()
	}
	return nil
}

// workloads makes the queries files of scale factor sf.
func (o Optimizations) workloads(ctx context.Context, s *session, meta *dataset.Meta, main bool, seqInst *[]workload.Instance) (*optWorkloads, error) {
	sf := meta.Scale
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return nil, err
	}
	w := &optWorkloads{}
	if main {
		inst, err := s.instances(ctx, or, o.Templates, o.PerTemplate, s.Seed)
		if err != nil {
			return nil, err
		}
		if w.atpt, err = s.writeQueries(fmt.Sprintf("sf%d", sf), inst); err != nil {
			return nil, err
		}
		if o.Mixes > 0 {
			// Every mix is the same MixPer instances of each template,
			// shuffled differently (paper §6.2.1).
			same, err := s.instances(ctx, or, o.Templates, o.MixPer, s.Seed+1)
			if err != nil {
				return nil, err
			}
			weights := map[int]int{}
			for _, id := range o.Templates {
				weights[id] = 1
			}
			for k := 1; k <= o.Mixes; k++ {
				mix, err := workload.Mix(same, weights, o.MixPer, s.Seed+uint64(k))
				if err != nil {
					return nil, err
				}
				qf, err := s.writeQueries(fmt.Sprintf("sf%d-mix%d", sf, k), mix)
				if err != nil {
					return nil, err
				}
				w.mixes = append(w.mixes, qf)
			}
		}
	}
	if o.SeqQueries > 0 {
		if *seqInst == nil {
			inst, err := workload.Generate(meta, workload.Options{PerTemplate: o.SeqQueries, Templates: o.Templates, Seed: s.Seed + 100})
			if err != nil {
				return nil, err
			}
			*seqInst = inst
		}
		inst := slices.Clone(*seqInst)
		if err := or.expect(ctx, inst); err != nil {
			return nil, err
		}
		if w.seq, err = s.writeQueries(fmt.Sprintf("sf%d-aqetq", sf), inst); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// variant runs one variant's share at one scale factor.
func (o Optimizations) variant(ctx context.Context, s *session, v, url, db string, sf int, w *optWorkloads) error {
	srv, err := s.tryServer(ctx, v, url, o.Pool, fmt.Sprintf("%s-sf%d", v, sf))
	if srv == nil {
		return err
	}
	defer s.stopServer(srv)
	check := w.atpt
	if check == nil {
		check = w.seq
	}
	if err := s.preflight(ctx, srv, check); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.serverFailed(srv, fmt.Errorf("%s: %w", v, err))
		return nil
	}
	var runs []runSpec
	if w.atpt != nil {
		for _, id := range o.Templates {
			runs = append(runs, runSpec{
				name: fmt.Sprintf("atpt-sf%d-%s-QT%02d", sf, v, id), what: fmt.Sprintf("sf=%d %s %s", sf, v, templateName(id)),
				queries: w.atpt, entries: templateEntries(w.atpt, id), mode: drive.Closed, clients: o.Clients, duration: o.Duration, runs: o.Runs,
				labels: labels(v, sf, o.Pool, o.Clients, templateName(id), db),
			})
		}
	}
	for k, mix := range w.mixes {
		name := fmt.Sprintf("mix%d", k+1)
		runs = append(runs, runSpec{
			name: fmt.Sprintf("atpm-sf%d-%s-%s", sf, v, name), what: fmt.Sprintf("sf=%d %s %s", sf, v, name),
			queries: mix, entries: mix.Entries, mode: drive.Closed, clients: o.Clients, duration: o.MixDuration, runs: 1,
			labels: labels(v, sf, o.Pool, o.Clients, name, db),
		})
	}
	if w.seq != nil {
		runs = append(runs, runSpec{
			name: fmt.Sprintf("aqetq-sf%d-%s", sf, v), what: fmt.Sprintf("sf=%d %s aQETq", sf, v),
			queries: w.seq, entries: w.seq.Entries, mode: drive.Sequential, passes: o.Passes,
			labels: labels(v, sf, o.Pool, 1, "aqetq", db),
		})
	}
	for _, r := range runs {
		switch err := s.run(ctx, srv, r); {
		case err == errSkip:
			return nil
		case err != nil:
			return err
		}
	}
	return nil
}

// config discloses the parameters.
func (o Optimizations) config() [][2]string {
	sfs := make([]string, len(o.SFs))
	for i, sf := range o.SFs {
		sfs[i] = strconv.Itoa(sf)
	}
	c := [][2]string{
		{"scale factors", fmt.Sprintf("%s (aTPt, QETt and aTPm at sf=%d; aQETq at each)", strings.Join(sfs, ", "), o.SFs[0])},
		{"variants", strings.Join(o.Variants, ", ")},
		{"templates", templateList(o.Templates)},
		{"connection pool", strconv.Itoa(o.Pool)},
		{"aTPt", fmt.Sprintf("closed loop, %d client(s), %d runs of %v per template (the first a warm-up), up to %d instances per template", o.Clients, o.Runs, o.Duration, o.PerTemplate)},
	}
	if o.Mixes > 0 {
		c = append(c, [2]string{"aTPm", fmt.Sprintf("%d mixed workloads, each the same %d instances per template shuffled with its own seed, each run once for %v with %d client(s)", o.Mixes, o.MixPer, o.MixDuration, o.Clients)})
	}
	if o.SeqQueries > 0 {
		c = append(c, [2]string{"aQETq", fmt.Sprintf("sequential mode, %d instances per template (the same at every scale factor), %d passes after a warm-up pass", o.SeqQueries, o.Passes)})
	}
	return c
}

// notes say what ran, and how it differs from the paper.
func (o Optimizations) notes(dbs *databases) []string {
	n := []string{fmt.Sprintf("LinGBM §6.2, the optimisation techniques: %s on %s. aTPt per template with QETt box plots from the same runs, aTPm over %d mixed workloads, aQETq at scale factors %v.",
		strings.Join(o.Variants, ", "), dbs.version, o.Mixes, o.SFs)}
	n = append(n, "Differences from the paper: the servers are gqlgen (Go) servers, not Node.js; the aTPm mixes all count, none is a warm-up, because each server is warm from its aTPt runs; the parameters are sized for minutes (the paper: sf=100, six runs of 60 s, 5000 instances per template, mixes of 600 s, aQETq at sf=100, 125, 150: see docs/experiments.md).")
	if dbs.kind == "sqlite" {
		n = append(n, "The database is SQLite, embedded in each server process (the paper used PostgreSQL: --db postgres).")
	}
	return n
}

// sortedUnique returns xs sorted without duplicates.
func sortedUnique(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}
