package experiment

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
)

// Pooling is the LinGBM paper's §6.3: throughput (aTPt) as the number of
// concurrent clients grows, for several sizes of the servers' database
// connection pool. For each variant and pool size a server is started with
// --pool; each template runs at each client count, closed loop, Runs runs
// of Duration (the first a warm-up). The report draws throughput over
// clients, one line per pool size.
type Pooling struct {
	Common
	SF          int           // scale factor (default 10, as the paper)
	Variants    []string      // default batch (the paper's Fig. 10d; 10a-c add naive)
	Templates   []int         // default 3, 5, 11
	Clients     []int         // default 1, 2, 4, 8, 16, 32, 50
	Pools       []int         // default 1, 2, 5, 10, 20
	Duration    time.Duration // each run (default 1s; paper 60s)
	Runs        int           // per point, the first a warm-up (default 2; paper 6)
	PerTemplate int           // instances per template (default 100; paper 5000)
}

func init() {
	Register(Experiment{
		Name:     "pooling",
		Summary:  "§6.3: throughput over 1..50 clients for several connection pool sizes (QT3, QT5, QT11)",
		Synopsis: poolingSynopsis,
		Dir:      "gqlbench-pooling",
		Quick:    [][2]string{{"sf", "1"}, {"clients", "1,4,16"}, {"pools", "1,5"}, {"duration", "300ms"}, {"runs", "2"}, {"per-template", "20"}},
		Flags:    poolingFlags,
	})
}

const poolingSynopsis = `experiment pooling [--db sqlite|postgres|URL] [--sf 10] [--variants batch] [--templates 3,5,11] [--clients 1,2,4,8,16,32,50] [--pools 1,2,5,10,20] [flags]

LinGBM §6.3. For each variant and pool size, a server with --pool N; each
template at each client count, closed loop, --runs runs of --duration (the
first a warm-up). The report draws throughput over clients, one line per pool
size. With the defaults it takes about 4 minutes on a 2-core machine. The
paper: --db postgres --sf 10 --variants naive,batch --clients
1,2,3,4,5,10,15,20,30,40,50 --duration 60s --runs 6.`

// poolingFlags registers the flags of Pooling.
func poolingFlags(fs *flag.FlagSet) Setup {
	var p Pooling
	sf := Scale(10)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", "batch", "comma-separated server variants (the paper: batch; naive too for Fig. 10a-c)")
	templates := fs.String("templates", "3,5,11", "comma-separated templates")
	clients := fs.String("clients", joinInts(PoolingClients), "comma-separated client counts")
	pools := fs.String("pools", joinInts(PoolingPools), "comma-separated connection pool sizes")
	fs.DurationVar(&p.Duration, "duration", time.Second, "each run")
	fs.IntVar(&p.Runs, "runs", 2, "runs per point, the first a warm-up")
	fs.IntVar(&p.PerTemplate, "per-template", 100, "instances per template")
	return newSetup(&p, func() error {
		p.SF = int(sf)
		return p.parse(*variants, *templates, *clients, *pools)
	})
}

// parse sets the list settings from their flags.
func (p *Pooling) parse(variants, templates, clients, pools string) error {
	var err error
	if p.Variants, err = parseVariants(variants); err != nil {
		return err
	}
	if p.Templates, err = parseTemplates(templates); err != nil {
		return err
	}
	if p.Clients, err = parseInts("clients", clients); err != nil {
		return err
	}
	p.Pools, err = parseInts("pools", pools)
	return err
}

// check returns an *exitcode.UsageError for a setting out of range, which
// Run would quietly replace by its default.
func (p *Pooling) check() error {
	switch {
	case p.Templates == nil:
		return usagef("--templates must name at least one template")
	case p.Duration <= 0:
		return usagef("--duration must be positive")
	case p.Runs < 1 || p.PerTemplate < 1:
		return usagef("--runs and --per-template must be at least 1")
	}
	return nil
}

// Defaults of Pooling.
var (
	PoolingTemplates = []int{3, 5, 11}
	PoolingClients   = []int{1, 2, 4, 8, 16, 32, 50}
	PoolingPools     = []int{1, 2, 5, 10, 20}
)

func (p *Pooling) defaults() {
	if p.SF <= 0 {
		p.SF = 10
	}
	if len(p.Variants) == 0 {
		p.Variants = []string{"batch"}
	}
	if len(p.Templates) == 0 {
		p.Templates = PoolingTemplates
	}
	if len(p.Clients) == 0 {
		p.Clients = PoolingClients
	}
	if len(p.Pools) == 0 {
		p.Pools = PoolingPools
	}
	if p.Duration <= 0 {
		p.Duration = time.Second
	}
	if p.Runs <= 0 {
		p.Runs = 2
	}
	if p.PerTemplate <= 0 {
		p.PerTemplate = 100
	}
}

// Run runs the experiment.
func (p Pooling) Run(ctx context.Context) (*Result, error) {
	p.defaults()
	return runSession(ctx, "pooling", p.Common, p.run)
}

func (p Pooling) run(ctx context.Context, s *session, dbs *databases) error {
	s.config = append(s.config,
		[2]string{"scale factor", strconv.Itoa(p.SF)},
		[2]string{"variants", strings.Join(p.Variants, ", ")},
		[2]string{"templates", templateList(p.Templates)},
		[2]string{"clients", intList(p.Clients)},
		[2]string{"connection pools", intList(p.Pools)},
		[2]string{"load", fmt.Sprintf("closed loop; per variant, pool, template and client count %d runs of %v, the first a warm-up; up to %d instances per template", p.Runs, p.Duration, p.PerTemplate)},
	)
	s.notes = append(s.notes, fmt.Sprintf("LinGBM §6.3, connection pooling: %s with pools of %s connections, %s at %s clients, sf=%d on %s. Throughput over clients, one line per pool size.",
		strings.Join(p.Variants, ", "), intList(p.Pools), templateList(p.Templates), intList(p.Clients), p.SF, dbs.version))
	if dbs.kind == "sqlite" {
		s.notes = append(s.notes, "The database is SQLite, embedded in the server process: the pool limits its open connections, but there is no database server to saturate as in the paper (--db postgres).")
	}

	url, meta, err := dbs.dataset(ctx, p.SF, s.Seed)
	if err != nil {
		return err
	}
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return err
	}
	inst, err := s.instances(ctx, or, p.Templates, p.PerTemplate, s.Seed)
	if err != nil {
		return err
	}
	qf, err := s.writeQueries(fmt.Sprintf("sf%d-pooling", p.SF), inst)
	if err != nil {
		return err
	}
	s.pinLoad()
	defer s.unpinLoad()
	for _, v := range p.Variants {
		for _, pool := range p.Pools {
			if err := p.server(ctx, s, v, pool, url, dbs.kind, qf); err != nil {
				return err
			}
		}
	}
	return nil
}

// server runs every template at every client count against one server.
func (p Pooling) server(ctx context.Context, s *session, v string, pool int, url, db string, qf *queryfile.File) error {
	srv, err := s.tryServer(ctx, v, url, pool, fmt.Sprintf("%s-sf%d-pool%d", v, p.SF, pool))
	if srv == nil {
		return err
	}
	defer s.stopServer(srv)
	if err := s.preflight(ctx, srv, qf); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.serverFailed(srv, fmt.Errorf("%s pool %d: %w", v, pool, err))
		return nil
	}
	for _, id := range p.Templates {
		for _, c := range p.Clients {
			err := s.run(ctx, srv, runSpec{
				name: fmt.Sprintf("pool%02d-%s-QT%02d-c%02d", pool, v, id, c), what: fmt.Sprintf("%s pool %d %s %d clients", v, pool, templateName(id), c),
				queries: qf, entries: templateEntries(qf, id), mode: drive.Closed, clients: c, duration: p.Duration, runs: p.Runs,
				labels: labels(v, p.SF, pool, c, templateName(id), db),
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

// intList is "1, 2, 5" for xs.
func intList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
