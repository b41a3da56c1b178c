package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/measure/pgstat"
	"github.com/gqlbench/gqlbench/measure/profiles"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
)

// runSpec is one load run against a server.
type runSpec struct {
	name     string            // the run file's name in Dir/runs, without .jsonl
	what     string            // the progress line's subject, e.g. "naive QT5"
	queries  *queryfile.File   // the file the run names
	entries  []queryfile.Entry // the entries sent (a part of queries')
	mode     drive.Mode
	clients  int
	duration time.Duration
	runs     int // closed: the first a warm-up when more than one
	passes   int // sequential
	labels   map[string]string
	// api is what srv speaks: "" or drive.APIGraphQL, or drive.APIREST
	// (the entries' plans are carried out against srv.Base()).
	api string
	// paired is paired mode's second server, speaking the other API;
	// watched beside srv.
	paired *Server
	check  bool                                    // check the targets with drive's Preflight first
	done   func(path string, sum *runfile.Summary) // receives the run's summary, when it has one
	// sample is the fine series' step (drive.Config.SampleInterval; 0:
	// none), group the paired mode's pairs per group (0: drive's default).
	sample time.Duration
	group  int
	// http2 is the APIs spoken to over HTTP/2: "" none, "both", or
	// drive.APIREST or drive.APIGraphQL only.
	http2 string
	// think is the closed loop's and the ramp's think time (uniform in
	// [0, think]); rampRate, maxClients and slo are the ramp's (drive.Config).
	think      time.Duration
	rampRate   float64
	maxClients int
	slo        measure.SLO
	// rate and connections are the open loop's (drive.Config).
	rate        float64
	connections int
	// layers reads the server's own account of each response (load
	// --layers); cold leaves out the sequential warm-up pass, so the first
	// pass meets the server cold; profile is the server's pprof endpoint,
	// whose profiles are recorded over the measured passes (load
	// --profile), beside the run file.
	layers, cold bool
	profile      string
}

// setHTTP2 sets job's HTTP/2 as r says: in a paired run for the side
// named (both with "both"), in a run of one API when it is that API's.
func (r runSpec) setHTTP2(job *drive.Job) {
	api := r.api
	if api == "" {
		api = drive.APIGraphQL
	}
	switch {
	case r.http2 == "":
	case r.paired != nil:
		job.HTTP.HTTP2 = true
		if r.http2 != "both" {
			job.HTTP2Only = r.http2
		}
	case r.http2 == "both" || r.http2 == api:
		job.HTTP.HTTP2 = true
	}
}

// target is the URL a job sends api's requests to on srv: through the
// server's emulated link when it has one.
func (s *session) target(srv *Server, api string) string {
	u := targetOf(srv, api)
	s.mu.Lock()
	defer s.mu.Unlock()
	for host, via := range s.links {
		if rest, ok := strings.CutPrefix(u, "http://"+host); ok && (rest == "" || rest[0] == '/') {
			return "http://" + via + rest
		}
	}
	return u
}

// targetOf is the URL a job sends api's requests to on srv.
func targetOf(srv *Server, api string) string {
	if api == drive.APIREST {
		return srv.Base()
	}
	return srv.URL
}

// statements opens the statement counter of a PostgreSQL database, so
// every run there says how many SQL statements a request cost, whatever the
// server; nil for SQLite, or when the database cannot count (then said
// once: the runs go on without).
func (s *session) statements(ctx context.Context, db string) *pgstat.Counter {
	if !isPostgres(db) {
		return nil
	}
	loc, err := dbloc.Parse(db)
	if err != nil {
		return nil
	}
	c, err := pgstat.Open(ctx, loc)
	if err != nil {
		s.noStatementsOnce.Do(func() { s.logf("statements per request not counted: %v", err) })
		return nil
	}
	return c
}

// errSkip says that the server's remaining runs cannot happen: it died or
// stopped answering. The error is recorded already.
var errSkip = errors.New("the server failed")

// run runs one load against srv and writes its run file. A run that
// completes but fails a check (wrong answers, errors) is recorded and is no
// error. It returns errSkip when the server died or stopped answering (the
// run file keeps what was measured), the context's error when interrupted,
// and other errors when the run file cannot be written.
func (s *session) run(ctx context.Context, srv *Server, r runSpec) error {
	q := r.file()
	spec, err := drive.ModeByName(r.mode)
	if err != nil {
		return err
	}
	warmups := 1
	if r.cold {
		warmups = 0
	}
	cfg := drive.Config{Mode: r.mode, Seed: s.Seed, Cores: s.loadCores(), SampleInterval: r.sample, Layers: r.layers, SLO: r.slo,
		Settings: spec.Settings(drive.Params{Clients: r.clients, Duration: r.duration, Runs: r.runs, Passes: r.passes, WarmupPasses: warmups, Group: r.group,
			Think: r.think, RampRate: r.rampRate, MaxClients: r.maxClients, Rate: r.rate, Connections: r.connections})}
	if r.profile != "" {
		cfg.Profiler = &profiles.Recorder{Base: r.profile, Dir: filepath.Join(s.Dir, "runs"), Name: r.name}
	}
	if spec.Uses("duration") { // intervals no longer than a run
		cfg.Interval = min(time.Second, r.duration)
	}
	if r.sample > 0 { // the interval a multiple of the sample step, as drive requires
		cfg.Interval = max(r.sample, orDefault(cfg.Interval, time.Second).Truncate(r.sample))
	}
	path := filepath.Join(s.Dir, "runs", r.name+".jsonl")
	var f *os.File
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	target := s.target(srv, r.api)
	job := &drive.Job{Config: cfg, Target: target, API: r.api, Client: "gqlbench", Queries: q, Watch: s.watched(srv, r), Check: r.check,
		HTTP: wire.Options{Timeout: s.Timeout, UserAgent: "gqlbench/" + s.Version},
		Info: drive.HeaderInfo{Version: s.Version, Command: s.Command, Flags: r.flags(spec, cfg.Defaults()), Target: target,
			Timeout: s.Timeout, Client: "gqlbench", Checked: true, Labels: r.labels},
		Out: func() (io.Writer, error) {
			var err error
			f, err = outfile.Open(path, 0o644)
			return f, err
		},
	}
	if r.paired != nil {
		other := drive.APIREST
		if r.api == drive.APIREST {
			other = drive.APIGraphQL
		}
		job.PairedTarget = s.target(r.paired, other)
	}
	r.setHTTP2(job)
	job.WatchRuntime = runtimeURLs(srv, r.paired)
	if r.paired == nil { // paired: the two servers' statements would be mixed
		if c := s.statements(ctx, srv.Spec.DB); c != nil {
			defer c.Close()
			job.Config.Statements = c
		}
	}
	sum, err := job.Run(ctx)
	if f != nil {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("run file %s: %w", path, cerr)
		}
		f = nil
	}
	return s.outcome(ctx, srv, r, spec, path, sum, err)
}

// watched is what a run against srv samples each interval with their
// descendants: the servers this session started and, for a server on the
// local PostgreSQL, the database.
func (s *session) watched(srv *Server, r runSpec) []int {
	var watch []int
	if srv.PID > 0 { // not a server the user runs elsewhere (--target)
		watch = append(watch, srv.PID)
	}
	if r.paired != nil && r.paired.PID > 0 {
		watch = append(watch, r.paired.PID)
	}
	if s.postmaster > 0 && srv.PID > 0 && isPostgres(srv.Spec.DB) {
		// The database works for the server: its backends' CPU is part of
		// what a query costs (SQLite runs inside the server process).
		watch = append(watch, s.postmaster)
	}
	return watch
}

// runtimeURLs maps the servers of gqlbench's own Go variants among srvs
// to their runtime metrics endpoint (server.MetricsPath), scraped with
// every interval's sample; the peers and a --target have none.
func runtimeURLs(srvs ...*Server) map[int]string {
	m := map[int]string{}
	for _, srv := range srvs {
		if srv != nil && srv.PID > 0 && srv.GoRuntime() {
			m[srv.PID] = srv.Base() + server.MetricsPath
		}
	}
	return m
}

// outcome records a run's summary, when it has one, in the result and the
// progress, and turns the job's error into run's (see run).
func (s *session) outcome(ctx context.Context, srv *Server, r runSpec, spec *drive.ModeSpec, path string, sum *runfile.Summary, err error) error {
	if sum != nil {
		s.res.Runs = append(s.res.Runs, path)
		s.res.Wrong += sum.Total.Wrong
		s.res.Errors += sum.Total.Errors
		s.logf("  %-28s %s", r.what, line(spec, sum))
		if r.done != nil {
			r.done(path, sum)
		}
	}
	var check *drive.CheckError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case srv.Died() != nil:
		s.serverFailed(srv, fmt.Errorf("%s: %w (the run file %s keeps what was measured)", r.what, srv.Died(), path))
		return errSkip
	case errors.As(err, &check):
		s.checks = append(s.checks, fmt.Sprintf("%s: %s (%s)", r.what, check.Reason, path))
		return nil
	case errors.As(err, new(*drive.AbortError)):
		s.serverFailed(srv, fmt.Errorf("%s: %w (the run file %s keeps what was measured)", r.what, err, path))
		return errSkip
	}
	return fmt.Errorf("%s: %w", r.what, err)
}

// file is the run's queries file with the entries it sends.
func (r runSpec) file() *queryfile.File {
	return &queryfile.File{Path: r.queries.Path, Data: r.queries.Data, Entries: r.entries}
}

// flags are the run's parameters, for the header.
func (r runSpec) flags(spec *drive.ModeSpec, c drive.Config) map[string]string {
	f := spec.Flags(c)
	f["queries"], f["client"] = r.queries.Path, "gqlbench"
	for k, v := range r.labels {
		f["label."+k] = v
	}
	if c.SampleInterval > 0 {
		f["sample-interval"] = c.SampleInterval.String()
	}
	if r.http2 != "" {
		f["http2"] = r.http2
	}
	return f
}

// line is a run's one-line result for the progress.
func line(spec *drive.ModeSpec, sum *runfile.Summary) string {
	t := sum.Total
	status := ""
	if sum.Status != "ok" {
		status = "  [" + sum.Status + ": " + firstLine(sum.Reason) + "]"
	}
	rate := fmt.Sprintf("%8.1f q/s", sum.Throughput.Mean)
	if spec.PerQuery {
		rate = fmt.Sprintf("QET mean %7.2f ms", t.QET.Mean/1e6)
	}
	return fmt.Sprintf("%s  QET p50 %7.2f ms  p99 %7.2f ms  %d verified, %d wrong, %d errors%s",
		rate, float64(t.QET.P50)/1e6, float64(t.QET.P99)/1e6, t.Verified, t.Wrong, t.Errors, status)
}

// preflight checks srv with drive.Preflight over every template of q.
func (s *session) preflight(ctx context.Context, srv *Server, q *queryfile.File) error {
	return s.preflightEntries(ctx, srv, q.Entries)
}

// preflightEntries checks srv with entries, as preflight.
func (s *session) preflightEntries(ctx context.Context, srv *Server, entries []queryfile.Entry) error {
	reqs, err := wire.Requests(entries)
	if err != nil {
		return err
	}
	hopts := wire.Options{Timeout: s.Timeout, UserAgent: "gqlbench/" + s.Version}
	warnings, err := drive.Preflight(ctx, srv.URL, func(r []wire.Request) (wire.Transport, error) {
		return wire.NewHTTP(srv.URL, r, hopts)
	}, reqs)
	for _, w := range warnings {
		s.logf("  %s: warning: %s", srv.Spec.Variant, w)
	}
	if err != nil && srv.Died() != nil {
		return srv.Died()
	}
	return err
}
