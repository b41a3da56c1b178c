package experiment

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/workload"
)

// Generic is the LinGBM paper's §6.4 (Scenario 2, Fig. 11): servers that
// build a GraphQL API from the database schema — gqlbench's compiled
// variant and PostGraphile — beside the best resolver-based servers of Go
// and Node.js, each asked the templates in its own schema (its dialect) and
// every answer mapped back and checked by the oracle. Per variant and
// template: a one-template workload, closed loop, Runs runs of Duration
// (the first a warm-up) at each client count. A generic server the user
// runs elsewhere joins with Target and its Dialect.
type Generic struct {
	Common
	SF          int           // scale factor (default 10)
	Variants    []string      // default compiled, postgraphile, batch, node-batch
	Templates   []int         // default all 16
	Clients     []int         // default 1
	Duration    time.Duration // each run (default 1s)
	Runs        int           // per template, the first a warm-up (default 3)
	PerTemplate int           // instances per template (default 100)
	Pool        int           // database connections of each server (default 10)
	Target      string        // a generic server's GraphQL URL, run by the user on the same dataset
	Dialect     string        // Target's dialect ("": the benchmark's schema)
	TargetName  string        // Target's series name (default "target")
}

// GenericVariants are the default servers: the two generic ones and the
// batching resolver servers of each stack.
var GenericVariants = []string{"compiled", "postgraphile", "batch", "node-batch"}

func init() {
	Register(Experiment{
		Name:     "generic",
		Summary:  "§6.4: generic servers (compiled, PostGraphile, any by URL) beside the best Go and Node resolver servers, each in its dialect",
		Synopsis: genericSynopsis,
		Dir:      "gqlbench-generic",
		DB:       "postgres",
		Quick:    [][2]string{{"sf", "1"}, {"duration", "250ms"}, {"runs", "4"}, {"per-template", "20"}},
		Flags:    genericFlags,
	})
}

const genericSynopsis = `experiment generic [--db postgres|URL] [--sf 10] [--variants compiled,postgraphile,batch,node-batch] [--clients 1] [--target URL --dialect NAME] [--quick] [flags]

LinGBM §6.4, Fig. 11: aTPt per template of servers that build their API
from the database schema — gqlbench's compiled variant and PostGraphile 5 —
beside the batching resolver servers of Go (batch) and of the paper's
Node.js stack (node-batch), each asked the templates in its own schema (its
dialect: gqlbench queries --dialect) with every answer mapped back and
verified. --target URL adds a generic server you run yourself on a dataset
generated with the same --sf and --seed (gqlbench gen), queried in
--dialect. The peers need PostgreSQL (the default here: a throwaway local
cluster) and install from npm on first use. --quick: sf=1, 4 runs of 250ms (a warm-up and 3 measured),
20 instances per template, a few minutes.`

// genericFlags registers the flags of Generic.
func genericFlags(fs *flag.FlagSet) Setup {
	var g Generic
	sf := Scale(10)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", strings.Join(GenericVariants, ","), "comma-separated server variants, dialect servers included (\"\": only --target)")
	templates := fs.String("templates", "", "comma-separated templates (default all 16)")
	clients := fs.String("clients", "1", "comma-separated client counts")
	fs.DurationVar(&g.Duration, "duration", time.Second, "each run")
	fs.IntVar(&g.Runs, "runs", 3, "runs per template and client count, the first a warm-up")
	fs.IntVar(&g.PerTemplate, "per-template", 100, "instances per template")
	fs.IntVar(&g.Pool, "pool", 10, "database connections of each server")
	fs.StringVar(&g.Target, "target", "", "the GraphQL `URL` of a generic server you run, on a dataset of the same --sf and --seed")
	fs.StringVar(&g.Dialect, "dialect", "", "the schema --target speaks: "+strings.Join(dialect.Names(), ", ")+" (\"\": the benchmark's)")
	fs.StringVar(&g.TargetName, "target-name", "target", "the series name of --target in the report")
	return newSetup(&g, func() error {
		g.SF = int(sf)
		return g.parse(*variants, *templates, *clients)
	})
}

// parse sets the list settings from their flags. Unlike the other
// experiments it takes the variants that serve a dialect.
func (g *Generic) parse(variants, templates, clients string) error {
	for _, name := range strings.Split(variants, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		v, ok := server.Lookup(name)
		switch {
		case !ok:
			return usagef("unknown variant %q: the variants are %s", name, variantNames())
		case !v.GraphQL() || name == "null":
			return usagef("%s cannot answer the templates", name)
		}
		g.Variants = append(g.Variants, name)
	}
	var err error
	if g.Templates, err = parseTemplates(templates); err != nil {
		return err
	}
	g.Clients, err = parseInts("clients", clients)
	return err
}

func (g *Generic) check() error {
	switch {
	case len(g.Variants) == 0 && g.Target == "":
		return usagef("nothing to measure: --variants or --target")
	case g.Duration <= 0:
		return usagef("--duration must be positive")
	case g.Runs < 1 || g.PerTemplate < 1 || g.Pool < 1:
		return usagef("--runs, --per-template and --pool must be at least 1")
	case g.Dialect != "" && g.Target == "":
		return usagef("--dialect is the dialect of --target")
	case g.Target != "" && !strings.HasPrefix(g.Target, "http://") && !strings.HasPrefix(g.Target, "https://"):
		return usagef("--target %q: want an http:// or https:// URL", g.Target)
	}
	if g.Dialect != "" {
		if _, err := dialect.Lookup(g.Dialect); err != nil {
			return usagef("--dialect: %v", err)
		}
	}
	return nil
}

func (g *Generic) defaults() {
	if g.SF <= 0 {
		g.SF = 10
	}
	if g.Variants == nil && g.Target == "" {
		g.Variants = GenericVariants
	}
	if len(g.Templates) == 0 {
		g.Templates = templateIDs(nil)
	}
	if len(g.Clients) == 0 {
		g.Clients = []int{1}
	}
	g.Duration = orDefault(g.Duration, time.Second)
	g.Runs, g.PerTemplate, g.Pool = max(g.Runs, 1), max(g.PerTemplate, 1), max(g.Pool, 1)
	if g.TargetName == "" {
		g.TargetName = "target"
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Run runs the experiment.
func (g Generic) Run(ctx context.Context) (*Result, error) {
	g.defaults()
	return runSession(ctx, "generic", g.Common, g.run)
}

func (g Generic) run(ctx context.Context, s *session, dbs *databases) error {
	if dbs.kind == "sqlite" {
		for _, v := range g.Variants {
			if sv, _ := server.Lookup(v); sv.Process != nil {
				return usagef("%s runs on PostgreSQL only: --db postgres (a throwaway local cluster) or --db postgres://...", v)
			}
		}
	}
	s.config = append(s.config, g.config()...)
	s.notes = append(s.notes, g.notes(dbs)...)
	url, meta, err := dbs.dataset(ctx, g.SF, s.Seed)
	if err != nil {
		return err
	}
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return err
	}
	inst, err := s.instances(ctx, or, g.Templates, g.PerTemplate, s.Seed)
	if err != nil {
		return err
	}
	s.pinLoad()
	defer s.unpinLoad()
	for _, v := range g.Variants {
		sv, _ := server.Lookup(v)
		qf, err := g.queries(s, sv.Dialect, inst)
		if err != nil {
			return err
		}
		if err := g.variant(ctx, s, v, url, dbs.kind, qf); err != nil {
			return err
		}
	}
	if g.Target != "" {
		qf, err := g.queries(s, g.Dialect, inst)
		if err != nil {
			return err
		}
		srv := &Server{Spec: ServerSpec{Variant: g.TargetName}, URL: g.Target}
		return g.loads(ctx, s, srv, "target", qf)
	}
	return nil
}

// dialectFile is a queries file in one dialect: its entries per template.
type dialectFile struct {
	*queryfile.File
	entries map[string][]queryfile.Entry
}

// queries writes inst as a queries file in dialect d ("" the benchmark's
// schema): the same instances and expected answers for every server.
func (g Generic) queries(s *session, d string, inst []workload.Instance) (*dialectFile, error) {
	entries, err := workload.Entries(inst)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("sf%d-generic", g.SF)
	if d != "" {
		dl, err := dialect.Lookup(d)
		if err != nil {
			return nil, err
		}
		for i, e := range entries {
			if entries[i], err = dl.Rewrite(e); err != nil {
				return nil, fmt.Errorf("dialect %s: %w", d, err)
			}
		}
		name += "-" + d
	}
	qf, err := s.writeEntries(name, entries)
	if err != nil {
		return nil, err
	}
	f := &dialectFile{File: qf, entries: map[string][]queryfile.Entry{}}
	for _, e := range entries {
		f.entries[e.Label] = append(f.entries[e.Label], e)
	}
	return f, nil
}

// variant starts one server and runs every template against it.
func (g Generic) variant(ctx context.Context, s *session, v, url, db string, qf *dialectFile) error {
	srv, err := s.tryServer(ctx, v, url, g.Pool, fmt.Sprintf("%s-sf%d", v, g.SF))
	if srv == nil {
		return err
	}
	defer s.stopServer(srv)
	return g.loads(ctx, s, srv, db, qf)
}

// loads checks srv with every entry, then runs each template at each
// client count.
func (g Generic) loads(ctx context.Context, s *session, srv *Server, db string, qf *dialectFile) error {
	v := srv.Spec.Variant
	if err := s.preflightEntries(ctx, srv, qf.Entries); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.serverFailed(srv, fmt.Errorf("%s: %w", v, err))
		return nil
	}
	for _, id := range g.Templates {
		for _, c := range g.Clients {
			err := s.run(ctx, srv, runSpec{
				name: fmt.Sprintf("generic-sf%d-%s-QT%02d-c%d", g.SF, v, id, c), what: fmt.Sprintf("%s %s %d client(s)", v, templateName(id), c),
				queries: qf.File, entries: qf.entries[templateName(id)], mode: drive.Closed, clients: c, duration: g.Duration, runs: g.Runs,
				labels: labels(v, g.SF, g.Pool, c, templateName(id), db),
			})
			switch {
			case err == errSkip:
				return nil
			case err != nil:
				return err
			}
		}
	}
	return nil
}

// config discloses the parameters.
func (g Generic) config() [][2]string {
	c := [][2]string{
		{"scale factor", strconv.Itoa(g.SF)},
		{"variants", strings.Join(g.Variants, ", ")},
		{"templates", templateList(g.Templates)},
		{"clients", intList(g.Clients)},
		{"connection pool", strconv.Itoa(g.Pool)},
		{"aTPt", fmt.Sprintf("closed loop, %d runs of %v per template and client count (the first a warm-up), up to %d instances per template", g.Runs, g.Duration, g.PerTemplate)},
	}
	for _, v := range g.Variants {
		if sv, _ := server.Lookup(v); sv.Dialect != "" {
			c = append(c, [2]string{v, "queried in its dialect " + sv.Dialect + " (docs/dialects.md), answers mapped back to the benchmark's"})
		}
	}
	if g.Target != "" {
		d := g.Dialect
		if d == "" {
			d = "the benchmark's schema"
		}
		c = append(c, [2]string{g.TargetName, g.Target + ", queried in " + d})
	}
	return c
}

// notes say what ran, and how it differs from the paper.
func (g Generic) notes(dbs *databases) []string {
	return []string{
		fmt.Sprintf("LinGBM §6.4 (Scenario 2, Fig. 11): generic servers beside resolver-based ones, sf=%d on %s: %s. Each server is asked the same instances in its own schema; every answer is mapped back to the benchmark's shape and checked against the oracle.",
			g.SF, dbs.version, strings.Join(append(append([]string(nil), g.Variants...), targetList(g)...), ", ")),
		"Differences from the paper: PostGraphile 5 with connection-filter and pg-aggregates (the paper: PostGraphile 4, 13 of 16 templates) and gqlbench's compiled variant instead of Hasura; the resolver servers are the batching ones of each stack (Go: gqlgen, Node.js: Apollo Server with DataLoader).",
	}
}

func targetList(g Generic) []string {
	if g.Target == "" {
		return nil
	}
	return []string{g.TargetName + " (" + g.Target + ")"}
}
