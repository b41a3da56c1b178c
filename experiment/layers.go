package experiment

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/measure/layers"
	"github.com/gqlbench/gqlbench/measure/pgstat"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
)

// Layers is seed 002's study: where a request's time goes inside the
// server. Each variant runs with --trace (gqlbench's servers send a
// Server-Timing header; the Node servers Apollo tracing); per template,
// one query is sent Iterations times in a row on one connection
// (sequential mode, no warm-up pass: the first iteration is the server's
// first sight of the document) and every response's own account is read
// beside the round trip (load --layers). The report has seed 002's table
// per variant and template — one row per iteration with the round trip,
// the server's total, the database, the GraphQL layer and its share, and
// the network, HTTP and serialisation (round trip − server total), then
// the mean and the mean without the cold first iteration — and the
// stacked bars of the split. On PostgreSQL, pg_stat_statements' own
// account of the statements' time is set beside the servers' (and is the
// database share of a server that reports none). PostGraphile reports
// nothing of its time: its rows have the round trip and, from the
// database side, pg_stat_statements' share, the rest (round trip −
// database) being the GraphQL layer with the network.
type Layers struct {
	Common
	SF         int      // scale factor (default 1)
	Variants   []string // default the Go variants: naive, memo, batch, batch-memo, compiled, inmem
	Templates  []int    // default all 16
	Iterations int      // per template (default 10, as seed 002)
	Pool       int      // database connections of each server (default 10)
	Profile    bool     // record CPU and heap profiles of the Go servers, per template
}

// LayersVariants are the default variants: every gqlbench GraphQL server
// that answers the templates.
var LayersVariants = []string{"naive", "memo", "batch", "batch-memo", "compiled", "inmem"}

func init() {
	Register(Experiment{
		Name:     "layers",
		Summary:  "seed 002: per template and iteration, round trip, server total, database, GraphQL layer and the rest, from each server's own account",
		Synopsis: layersSynopsis,
		Dir:      "gqlbench-layers",
		Quick:    [][2]string{{"sf", "1"}, {"iterations", "10"}},
		Flags:    layersFlags,
	})
}

const layersSynopsis = `experiment layers [--db sqlite|postgres|URL] [--sf 1] [--variants naive,memo,batch,batch-memo,compiled,inmem] [--templates 1,...,16] [--iterations 10] [--profile] [flags]

Seed 002's layer table. Each variant is started with --trace (gqlbench's
servers answer with a Server-Timing header: read, parse, validate, execute,
db, write, total; the Node servers node-* with Apollo tracing), and per
template one query is sent --iterations times on one connection, sequential
mode without a warm-up pass, every answer verified. Per variant and
template: one row per iteration (round trip, server total, database,
GraphQL layer and its %, network+HTTP+serialisation), the mean and the mean
without the first, cold, iteration; stacked bars of the split. On
PostgreSQL the servers' statement times are compared with
pg_stat_statements' (docs/layers.md). --profile adds the Go servers' CPU
and heap profiles per template. The Node servers need --db postgres, and so
does postgraphile, which reports nothing of its time: its rows have the
round trip and the database's share measured from the database side
(pg_stat_statements over each run ÷ its requests), queried in its dialect.`

// layersFlags registers the flags of Layers.
func layersFlags(fs *flag.FlagSet) Setup {
	var l Layers
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset")
	variants := fs.String("variants", strings.Join(LayersVariants, ","), "comma-separated server variants (gqlbench's, and node-* and postgraphile on PostgreSQL)")
	templates := fs.String("templates", "", "comma-separated templates (default all 16)")
	fs.IntVar(&l.Iterations, "iterations", 10, "executions of each template's query, the first cold")
	fs.IntVar(&l.Pool, "pool", 10, "database connections of each server")
	fs.BoolVar(&l.Profile, "profile", false, "record the Go servers' CPU and heap profiles per template (serve --pprof), beside the run files")
	return newSetup(&l, func() error {
		l.SF = int(sf)
		var err error
		if l.Variants, err = parseLayersVariants(*variants); err != nil {
			return err
		}
		l.Templates, err = parseTemplates(*templates)
		return err
	})
}

// parseLayersVariants is parseVariants that also takes the servers of a
// schema of their own (PostGraphile), queried in their dialect.
func parseLayersVariants(list string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if v, ok := server.Lookup(name); !ok || v.Dialect == "" {
			if _, err := parseVariants(name); err != nil {
				return nil, err
			}
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

func (l *Layers) check() error {
	if l.Iterations < 2 || l.Pool < 1 {
		return usagef("--iterations must be at least 2 (the first is cold) and --pool at least 1")
	}
	return nil
}

func (l *Layers) defaults() {
	for _, d := range []struct {
		p *int
		v int
	}{{&l.SF, 1}, {&l.Iterations, 10}, {&l.Pool, 10}} {
		if *d.p <= 0 {
			*d.p = d.v
		}
	}
	if len(l.Variants) == 0 {
		l.Variants = LayersVariants
	}
	l.Templates = templateIDs(l.Templates)
}

// Run runs the experiment.
func (l Layers) Run(ctx context.Context) (*Result, error) {
	l.defaults()
	return runSession(ctx, "layers", l.Common, l.run)
}

// layerRun is one variant's template: what the server said, and what
// PostgreSQL counted meanwhile.
type layerRun struct {
	variant, template string
	t                 layers.Template
	source            string
	pg                *pgDelta // nil: not PostgreSQL, or not counted
}

// pgDelta is pg_stat_statements' account over one run.
type pgDelta struct {
	calls int64
	exec  time.Duration
}

func (l Layers) run(ctx context.Context, s *session, dbs *databases) error {
	if dbs.kind == "sqlite" {
		for _, v := range l.Variants {
			if sv, _ := server.Lookup(v); sv.Process != nil {
				return usagef("%s runs on PostgreSQL only: --db postgres (a throwaway local cluster) or --db postgres://...", v)
			}
		}
	}
	s.config = append(s.config,
		[2]string{"scale factor", strconv.Itoa(l.SF)},
		[2]string{"variants", strings.Join(l.Variants, ", ")},
		[2]string{"templates", templateList(l.Templates)},
		[2]string{"load", fmt.Sprintf("sequential, one connection; per variant and template one query %d times, no warm-up pass (the first iteration is cold); every answer verified; --layers", l.Iterations)},
	)
	s.notes = append(s.notes, fmt.Sprintf("Seed 002's layer table, sf=%d on %s: each server's own account of every request (Server-Timing, or Apollo tracing for the Node servers) beside the round trip the load generator measured.", l.SF, dbs.version))
	s.formats = append(s.formats, "json", "csv")
	url, meta, err := dbs.dataset(ctx, l.SF, s.Seed)
	if err != nil {
		return err
	}
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return err
	}
	inst, err := s.instances(ctx, or, l.Templates, 1, s.Seed)
	if err != nil {
		return err
	}
	qf, err := s.writeQueries(fmt.Sprintf("sf%d-layers", l.SF), inst)
	if err != nil {
		return err
	}
	var pg *pgstat.Counter
	if isPostgres(url) {
		if loc, err := dbloc.Parse(url); err == nil {
			if pg, err = pgstat.Open(ctx, loc); err != nil {
				s.logf("pg_stat_statements not read: %v", err)
				pg = nil
			} else {
				defer pg.Close()
			}
		}
	}
	s.pinLoad()
	defer s.unpinLoad()
	var runs []layerRun
	files := map[string]*queryfile.File{"": qf}
	for _, v := range l.Variants {
		sv, _ := server.Lookup(v)
		f := files[sv.Dialect]
		if f == nil {
			if f, err = l.dialectQueries(s, sv.Dialect, qf.Entries); err != nil {
				return err
			}
			files[sv.Dialect] = f
		}
		r, err := l.variant(ctx, s, v, url, dbs.kind, f, pg)
		runs = append(runs, r...)
		if err != nil {
			return err
		}
	}
	s.sections = append(s.sections, l.section(runs, pg != nil))
	return writeFile(filepath.Join(s.Dir, "layers.csv"), func(w io.Writer) error { return layersCSV(w, runs) })
}

// dialectQueries writes the entries in dialect d (a server with a schema
// of its own, PostGraphile): the same instances, answers mapped back.
func (l Layers) dialectQueries(s *session, d string, entries []queryfile.Entry) (*queryfile.File, error) {
	dl, err := dialect.Lookup(d)
	if err != nil {
		return nil, err
	}
	out := make([]queryfile.Entry, len(entries))
	for i, e := range entries {
		if out[i], err = dl.Rewrite(e); err != nil {
			return nil, fmt.Errorf("dialect %s: %w", d, err)
		}
	}
	return s.writeEntries(fmt.Sprintf("sf%d-layers-%s", l.SF, d), out)
}

// variant runs every template against one server.
func (l Layers) variant(ctx context.Context, s *session, v, url, db string, qf *queryfile.File, pg *pgstat.Counter) ([]layerRun, error) {
	var args []string
	sv, _ := server.Lookup(v)
	own := sv.Process == nil
	if own || sv.Traces {
		args = append(args, "--trace")
	}
	if l.Profile && own {
		args = append(args, "--pprof", "127.0.0.1:0")
	}
	srv, err := s.tryServer(ctx, v, url, l.Pool, fmt.Sprintf("%s-sf%d", v, l.SF), args...)
	if srv == nil {
		return nil, err
	}
	defer s.stopServer(srv)
	prof := ""
	if l.Profile && own {
		if prof = pprofBase(srv.log.head()); prof == "" {
			s.logf("  %s: no pprof address in its log: no profiles", v)
		}
	}
	var out []layerRun
	for _, id := range l.Templates {
		name := templateName(id)
		r := layerRun{variant: v, template: name}
		var before pgDelta
		if pg != nil {
			before.calls, before.exec, _ = pg.Exec(ctx)
		}
		err := s.run(ctx, srv, runSpec{
			name: fmt.Sprintf("layers-%s-QT%02d", v, id), what: fmt.Sprintf("%s %s", v, name),
			queries: qf, entries: templateEntries(qf, id), mode: drive.Sequential, clients: 1, passes: l.Iterations,
			cold: true, layers: true, profile: prof,
			labels: labels(v, l.SF, l.Pool, 1, name, db),
			done: func(_ string, sum *runfile.Summary) {
				if sum.Layers == nil {
					return
				}
				r.source = sum.Layers.Source
				for _, t := range sum.Layers.Templates {
					if t.Template == name {
						r.t = t
					}
				}
			},
		})
		if pg != nil {
			calls, exec, perr := pg.Exec(ctx)
			if perr == nil {
				r.pg = &pgDelta{calls: calls - before.calls, exec: exec - before.exec}
			}
		}
		if r.t.N > 0 || r.source != "" {
			out = append(out, r)
		}
		switch {
		case err == errSkip:
			return out, nil
		case err != nil:
			return out, err
		}
	}
	return out, nil
}

// pprofLine is what serve --pprof logs once it listens.
var pprofLine = regexp.MustCompile(`profiles at (http://[^\s/]+)/debug/pprof/`)

// pprofBase is the pprof endpoint a server's log names, or "".
func pprofBase(log string) string {
	if m := pprofLine.FindStringSubmatch(log); m != nil {
		return m[1]
	}
	return ""
}

// iteration is one row of seed 002's table, in nanoseconds; db < 0: none.
// bare: the server reported nothing (PostGraphile): total and over are
// unknown, gql is round trip − db, the network included.
type iteration struct {
	rt, total, db, gql, over float64
	bare                     bool
}

// bareIteration is a row of a server that reported nothing of its time:
// its round trip, and the database's share per request from the
// database's side (pg_stat_statements).
func bareIteration(rt int64, pgdb float64) iteration {
	return iteration{rt: float64(rt), db: pgdb, gql: max(float64(rt)-pgdb, 0), bare: true}
}

func iterationOf(q layers.Request, pgdb float64) iteration {
	db := float64(q.DatabaseNS)
	if q.DatabaseNS < 0 {
		db = pgdb
	}
	it := iteration{rt: float64(q.RoundTripNS), total: float64(q.TotalNS), db: db}
	it.gql = it.total
	if db >= 0 {
		it.gql = max(it.total-db, 0)
	}
	it.over = max(it.rt-it.total, 0)
	return it
}

// requests is how many responses the run had, with figures or without.
func (r layerRun) requests() int64 { return r.t.N + r.t.Without }

// bare says the server reported nothing of its time (PostGraphile).
func (r layerRun) bare() bool { return r.t.N == 0 && len(r.t.WithoutRoundTrips) > 0 }

// pgPerRequest is the run's pg_stat_statements time per request, for a
// server that reports no database time itself; −1 without it.
func (r layerRun) pgPerRequest() float64 {
	if r.pg == nil || r.requests() == 0 || r.t.DatabaseN > 0 {
		return -1
	}
	return float64(r.pg.exec) / float64(r.requests())
}

// bareMark marks the GraphQL layer of a server that reported nothing:
// round trip − database, the network, HTTP and serialisation included.
const bareMark = " †"

func (it iteration) cells(label string) []string {
	db, pct := "–", "–"
	if it.db >= 0 {
		db = msText(it.db)
	}
	if it.bare {
		if it.rt > 0 {
			pct = strconv.FormatFloat(100*it.gql/it.rt, 'f', 2, 64) + bareMark
		}
		return []string{label, msText(it.rt), "–", db, msText(it.gql) + bareMark, pct, "–"}
	}
	if it.total > 0 {
		pct = strconv.FormatFloat(100*it.gql/it.total, 'f', 2, 64)
	}
	return []string{label, msText(it.rt), msText(it.total), db, msText(it.gql), pct, msText(it.over)}
}

func msText(ns float64) string { return strconv.FormatFloat(ns/1e6, 'f', 3, 64) }

// mean is the mean iteration of its, every field averaged.
func mean(its []iteration) iteration {
	var m iteration
	if len(its) == 0 {
		return m
	}
	for _, it := range its {
		m.rt += it.rt
		m.total += it.total
		m.db += it.db
		m.gql += it.gql
		m.over += it.over
	}
	n := float64(len(its))
	return iteration{m.rt / n, m.total / n, m.db / n, m.gql / n, m.over / n, its[0].bare}
}

// section is the experiment's part of the report: the means per variant
// and template, pg_stat_statements beside the servers, then seed 002's
// table for each.
func (l Layers) section(runs []layerRun, pg bool) report.Section {
	sec := report.Section{ID: "layer-table", Title: "Seed 002's layer table: every iteration",
		Paras: []string{
			"Per variant and template, the same query sent on one connection, one after the other, the first time (iteration 0) being the first the server saw that document (a parse and validation, and for compiled a compilation, that the later iterations find cached; and the connection's connect, which counts in its round trip). In ms: round trip = what the load generator measured, send start to last byte; server total = the server's own total (Server-Timing's total, Apollo tracing's duration); database = the wall time during which a SQL statement of the request ran; GraphQL layer = server total − database (seed 002's GT = TT − DT); network+HTTP+serialisation = round trip − server total. Avg is over every iteration, non-0 Avg without the cold iteration 0, as in seed 002.",
		}}
	if pg {
		sec.Paras = append(sec.Paras, "Database for a server that reports no database time of its own (the Node servers' Apollo tracing has none): pg_stat_statements' total_exec_time over the run ÷ the requests, marked *: the database's own time, without the network to it or the driver, the same for every iteration.")
	}
	if slices.ContainsFunc(runs, layerRun.bare) {
		sec.Paras = append(sec.Paras, "A server that reports nothing of its time (PostGraphile sends neither Server-Timing nor Apollo tracing) has no server total: its rows hold the round trip and the database's share measured from the database's side — pg_stat_statements' total_exec_time over the run (read before and after it) ÷ the requests, marked * — and the rest, round trip − database, marked †: the GraphQL layer together with the network, HTTP and serialisation, which nothing inside the server separates; its % is of the round trip. Beside the Go variants, whose database time is measured in the server around each statement (round trip to PostgreSQL, planning and driver included), the database share is a lower bound and the GraphQL layer an upper bound.")
	}
	sum := report.Table{Title: "Means without the cold iteration, per variant and template",
		Head: []string{"variant", "template", "source", "n", "round trip", "server total", "database", "GraphQL layer", "GraphQL %", "network+HTTP+serialisation", "dispatch", "phases cover"}}
	for _, r := range runs {
		its := r.iterations()
		if len(its) < 2 {
			continue
		}
		m := mean(its[1:])
		cov, disp := "–", "–"
		if r.t.ReadNS+r.t.WriteNS > 0 {
			cov = strconv.FormatFloat(100*r.t.Covered(), 'f', 1, 64) + " %"
			disp = msText(r.t.Mean(r.t.DispatchNS))
		}
		source := r.source
		if r.bare() {
			source = "none: round trip; database from pg_stat_statements"
		}
		row := append([]string{r.variant, r.template, source, strconv.FormatInt(r.requests(), 10)}, m.cells("")[1:]...)
		if r.pgPerRequest() >= 0 {
			row[6] += " *"
		}
		sum.Rows = append(sum.Rows, append(row, disp, cov))
	}
	sec.Tables = append(sec.Tables, sum)
	if pg {
		sec.Tables = append(sec.Tables, pgTable(runs))
	}
	for _, r := range runs {
		its := r.iterations()
		t := report.Table{Title: fmt.Sprintf("%s %s", r.variant, r.template),
			Head: []string{"iteration", "round trip", "server total", "database", "GraphQL layer", "GraphQL %", "network+HTTP+serialisation"}}
		switch {
		case len(its) == 0:
			t.Note = "The server's responses carried no timing: " + layers.NoneLine
		case r.bare():
			t.Note = "The server reports nothing of its time: round trip as measured; database from the database's side (pg_stat_statements over the run ÷ its requests, the same for every iteration); † round trip − database, the GraphQL layer with the network, HTTP and serialisation."
		}
		for i, it := range its {
			t.Rows = append(t.Rows, it.cells(strconv.Itoa(i)))
		}
		if len(its) > 0 {
			t.Rows = append(t.Rows, mean(its).cells("Avg"))
		}
		if len(its) > 1 {
			t.Rows = append(t.Rows, mean(its[1:]).cells("non-0 Avg"))
		}
		sec.Tables = append(sec.Tables, t)
	}
	return sec
}

func (r layerRun) iterations() []iteration {
	pgdb := r.pgPerRequest()
	if r.bare() {
		if pgdb < 0 {
			return nil // nothing to split the round trip with
		}
		out := make([]iteration, 0, len(r.t.WithoutRoundTrips))
		for _, rt := range r.t.WithoutRoundTrips {
			out = append(out, bareIteration(rt, pgdb))
		}
		return out
	}
	out := make([]iteration, 0, len(r.t.Requests))
	for _, q := range r.t.Requests {
		out = append(out, iterationOf(q, pgdb))
	}
	return out
}

// pgTable sets the servers' account of their statements beside
// pg_stat_statements', per variant over all its templates.
func pgTable(runs []layerRun) report.Table {
	t := report.Table{Title: "The servers' statement times against pg_stat_statements, per variant",
		Note: "Server: the statements' times as the server measured them around each call (db-sum: sent, executed, answered, read by the driver), added up over the runs; pg_stat_statements: total_exec_time over the same runs, the database's own executor time. Statements: as each counted them (the server's sql;count, pg_stat_statements' calls, transaction control left out). Server ÷ pg: how much longer a statement looks from the server than in the database.",
		Head: []string{"variant", "requests", "statements (server / pg)", "server ms", "pg_stat_statements ms", "server ÷ pg", "difference per statement µs"}}
	type acc struct {
		n, stmts, calls int64
		server, pg      time.Duration
		ok              bool
	}
	var order []string
	by := map[string]*acc{}
	for _, r := range runs {
		a := by[r.variant]
		if a == nil {
			a = &acc{}
			by[r.variant] = a
			order = append(order, r.variant)
		}
		a.n += r.requests()
		a.stmts += r.t.Statements
		a.server += time.Duration(r.t.DatabaseSumNS)
		if r.pg != nil {
			a.calls += r.pg.calls
			a.pg += r.pg.exec
			a.ok = true
		}
	}
	for _, v := range order {
		a := by[v]
		if !a.ok {
			continue
		}
		ratio, per := "–", "–"
		if a.pg > 0 && a.server > 0 {
			ratio = strconv.FormatFloat(float64(a.server)/float64(a.pg), 'f', 2, 64)
		}
		if a.calls > 0 && a.server > 0 {
			per = strconv.FormatFloat(float64(a.server-a.pg)/float64(a.calls)/1e3, 'f', 1, 64)
		}
		server := "–"
		if a.server > 0 {
			server = msText(float64(a.server))
		}
		t.Rows = append(t.Rows, []string{v, strconv.FormatInt(a.n, 10), fmt.Sprintf("%d / %d", a.stmts, a.calls),
			server, msText(float64(a.pg)), ratio, per})
	}
	return t
}

// layersCSV writes every iteration of every run, one row each.
func layersCSV(w io.Writer, runs []layerRun) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "template", "source", "iteration", "round_trip_ns", "server_total_ns", "database_ns", "graphql_ns", "graphql_pct", "overhead_ns", "database_from"})
	for _, r := range runs {
		from := "server"
		if r.pgPerRequest() >= 0 {
			from = "pg_stat_statements"
		}
		for i, it := range r.iterations() {
			db, pct, total, over := "", "", strconv.FormatFloat(it.total, 'f', 0, 64), strconv.FormatFloat(it.over, 'f', 0, 64)
			if it.db >= 0 {
				db = strconv.FormatFloat(it.db, 'f', 0, 64)
			} else {
				from = ""
			}
			switch {
			case it.bare: // no server total: the GraphQL layer holds the network, its % is of the round trip
				total, over = "", ""
				if it.rt > 0 {
					pct = strconv.FormatFloat(100*it.gql/it.rt, 'f', 3, 64)
				}
			case it.total > 0:
				pct = strconv.FormatFloat(100*it.gql/it.total, 'f', 3, 64)
			}
			cw.Write([]string{r.variant, r.template, r.source, strconv.Itoa(i), strconv.FormatFloat(it.rt, 'f', 0, 64),
				total, db, strconv.FormatFloat(it.gql, 'f', 0, 64), pct, over, from})
		}
	}
	cw.Flush()
	return cw.Error()
}
