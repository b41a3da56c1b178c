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
	"github.com/gqlbench/gqlbench/verify"
)

// Quickstart is gqlbench's first command: on one small dataset, every
// variant runs every template briefly, closed loop with one client, a
// warm-up run and a measured run each, every answer verified.
type Quickstart struct {
	Common
	SF          int           // scale factor (default 1)
	Variants    []string      // the server variants (required)
	Templates   []int         // default: all 16
	Duration    time.Duration // of the warm-up run and of each measured run (default 250ms)
	PerTemplate int           // instances per template (default 100)
	Pool        int           // database connections of each server (default 10)
	Ceiling     bool          // also measure the null server: the load generator's ceiling
}

// Defaults of Quickstart: sized so that the whole quickstart, generation
// included, takes about two minutes on a 2-core machine. Three measured runs
// (not one run twice as long) because the report names a winner only where a
// test over the runs says the difference is significant: one run gives no
// run-to-run spread to test against.
const (
	QuickstartDuration     = 250 * time.Millisecond
	QuickstartMeasuredRuns = 3
	QuickstartPerTemplate  = 100
)

// QuickstartCommand is the quickstart as the command line offers it,
// `gqlbench quickstart`: its flags, their checks and its run. It is not in
// the registry, which `gqlbench experiment` lists: the quickstart has a
// command of its own.
var QuickstartCommand = Experiment{
	Name:     "quickstart",
	Summary:  "generate sf=1, serve every variant, run all 16 templates against each, write a report (about 2 minutes)",
	Synopsis: quickstartSynopsis,
	Dir:      "gqlbench-results",
	Flags:    quickstartFlags,
}

const quickstartSynopsis = `quickstart [--dir gqlbench-results] [--duration 250ms] [--variants naive,memo,...] [--sf 1] [flags]

Generates the LinGBM dataset (sf=1) into an SQLite file in --dir, instantiates
every template with the oracle's expected answers, starts every server variant
in a process of its own, runs every template against each (closed loop, one
client, a warm-up run and three measured runs of --duration each, every
answer verified), measures the null server as the load generator's ceiling, and
writes the run files to DIR/runs/ and the report to DIR/report.html and
DIR/report.md. The summary table goes to stdout, progress to stderr. With the
defaults it takes about two minutes on a 2-core machine. Ctrl-C stops the
servers and reports what was measured. Exit codes: 0 ok, 1 failure (a server
died: the run files are kept), 2 usage, 3 wrong answers or errors.`

// quickstartFlags registers the flags of Quickstart. The default variants
// are every one but null, in the order of server.Variant.Order.
func quickstartFlags(fs *flag.FlagSet) Setup {
	var q Quickstart
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", strings.Join(allVariants(), ","), "comma-separated server variants")
	templates := fs.String("templates", "", "comma-separated templates (default all 16), e.g. 1,5,9")
	fs.DurationVar(&q.Duration, "duration", QuickstartDuration, fmt.Sprintf("length of the warm-up run and of each of the %d measured runs, per variant and template", QuickstartMeasuredRuns))
	fs.IntVar(&q.PerTemplate, "per-template", QuickstartPerTemplate, "instances per template (all of them when a template has fewer)")
	fs.IntVar(&q.Pool, "pool", 10, "database connections of each server")
	fs.BoolVar(&q.Ceiling, "ceiling", true, "also measure the null server: what the load generator can do")
	return newSetup(&q, func() error {
		q.SF = int(sf)
		return q.parse(*variants, *templates)
	})
}

// parse sets the list settings from their flags.
func (q *Quickstart) parse(variants, templates string) error {
	var err error
	if q.Variants, err = parseVariants(variants); err != nil {
		return err
	}
	q.Templates, err = parseTemplates(templates)
	return err
}

// check returns an *exitcode.UsageError for a setting out of range, which
// Run would quietly replace by its default.
func (q *Quickstart) check() error {
	switch {
	case q.Duration <= 0:
		return usagef("--duration must be positive, got %v", q.Duration)
	case q.PerTemplate < 1 || q.Pool < 1:
		return usagef("--per-template and --pool must be at least 1")
	}
	return nil
}

// Run runs the quickstart.
func (q Quickstart) Run(ctx context.Context) (*Result, error) {
	if q.SF == 0 {
		q.SF = 1
	}
	if q.Duration <= 0 {
		q.Duration = QuickstartDuration
	}
	if q.PerTemplate <= 0 {
		q.PerTemplate = QuickstartPerTemplate
	}
	if q.Pool <= 0 {
		q.Pool = 10
	}
	if len(q.Variants) == 0 && !q.Ceiling {
		return nil, fmt.Errorf("no server variants to run")
	}
	return runSession(ctx, "quickstart", q.Common, q.run)
}

func (q Quickstart) run(ctx context.Context, s *session, dbs *databases) error {
	templates := templateIDs(q.Templates)
	s.config = append(s.config,
		[2]string{"scale factor", strconv.Itoa(q.SF)},
		[2]string{"variants", strings.Join(q.Variants, ", ")},
		[2]string{"templates", templateList(templates)},
		[2]string{"instances", fmt.Sprintf("up to %d per template (seed %d)", q.PerTemplate, s.Seed)},
		[2]string{"load", fmt.Sprintf("closed loop, 1 client; per variant and template a warm-up run of %v, then %d measured runs of %v", q.Duration, QuickstartMeasuredRuns, q.Duration)},
		[2]string{"connection pool", strconv.Itoa(q.Pool)},
	)
	s.notes = append(s.notes, fmt.Sprintf("Quickstart: every variant (%s) in its own process, each of %d templates for %d runs of %v after a warm-up of %v, one client, closed loop, sf=%d on %s. A first look, not a measurement to publish: runs this short are noisy; see `gqlbench experiment optimizations` for the paper's study.",
		strings.Join(q.Variants, ", "), len(templates), QuickstartMeasuredRuns, q.Duration, q.Duration, q.SF, dbs.version))

	url, meta, err := dbs.dataset(ctx, q.SF, s.Seed)
	if err != nil {
		return err
	}
	o, err := s.newOracle(ctx, meta)
	if err != nil {
		return err
	}
	inst, err := s.instances(ctx, o, templates, q.PerTemplate, s.Seed)
	if err != nil {
		return err
	}
	qf, err := s.writeQueries(fmt.Sprintf("sf%d", q.SF), inst)
	if err != nil {
		return err
	}
	s.pinLoad()
	defer s.unpinLoad()
	for _, v := range q.Variants {
		if err := q.variant(ctx, s, v, url, dbs.kind, qf, templates); err != nil {
			return err
		}
	}
	if q.Ceiling {
		return q.ceiling(ctx, s)
	}
	return nil
}

// variant runs every template against one variant.
func (q Quickstart) variant(ctx context.Context, s *session, v, url, db string, qf *queryfile.File, templates []int) error {
	srv, err := s.tryServer(ctx, v, url, q.Pool, fmt.Sprintf("%s-sf%d", v, q.SF))
	if srv == nil {
		return err
	}
	defer s.stopServer(srv)
	if err := s.preflight(ctx, srv, qf); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.serverFailed(srv, fmt.Errorf("%s: %w", v, err))
		return nil
	}
	for _, id := range templates {
		err := s.run(ctx, srv, runSpec{
			name: fmt.Sprintf("%s-QT%02d", v, id), what: v + " " + templateName(id),
			queries: qf, entries: templateEntries(qf, id), mode: drive.Closed, clients: 1, duration: q.Duration, runs: 1 + QuickstartMeasuredRuns,
			labels: labels(v, q.SF, q.Pool, 1, templateName(id), db),
		})
		switch {
		case err == errSkip:
			return nil
		case err != nil:
			return err
		}
	}
	return nil
}

// ceiling measures the null server answering {__typename}: what the load
// generator can do on its CPU, beside what the servers did.
func (q Quickstart) ceiling(ctx context.Context, s *session) error {
	srv, err := s.tryServer(ctx, "null", "", 0, "null")
	if srv == nil {
		return err
	}
	defer s.stopServer(srv)
	expect, _ := verify.Hash([]byte(`{"__typename":"Query"}`))
	entries := []queryfile.Entry{{ID: "typename", Label: "typename", Query: "{__typename}", Expect: expect}}
	qf, err := s.writeEntries("typename", entries)
	if err != nil {
		return err
	}
	err = s.run(ctx, srv, runSpec{
		name: "null-typename", what: "null {__typename}",
		queries: qf,
		entries: entries,
		mode:    drive.Closed, clients: 1, duration: q.Duration, runs: 1 + QuickstartMeasuredRuns,
		// role=ceiling: the report draws it as a reference line beside
		// the servers, never as a series compared with them.
		labels: map[string]string{"server": "null", "clients": "1", "workload": "typename", "role": "ceiling"},
	})
	if err == errSkip {
		return nil
	}
	return err
}

// labels are the labels of a run, by which reports group runs.
func labels(server string, sf, pool, clients int, workload, db string) map[string]string {
	return map[string]string{"server": server, "sf": strconv.Itoa(sf), "pool": strconv.Itoa(pool),
		"clients": strconv.Itoa(clients), "workload": workload, "db": db}
}

// templateList is "QT1, QT2, ..." for ids.
func templateList(ids []int) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = templateName(id)
	}
	return strings.Join(names, ", ")
}
