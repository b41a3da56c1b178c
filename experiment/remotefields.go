package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/server/remoteapi"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// RemoteFields is seed 002's study of remote "custom" fields (Dgraph's
// @custom): fields a GraphQL server answers by calling another HTTP
// service, resolved one call per object (SINGLE) or one call per field
// with every key (BATCH), with one shared keep-alive HTTP client or a new
// client per call. For each remote latency a remote service (`serve
// remote-api --latency`) runs; for each variant, mode and client kind a
// server calls it; each remote-field template (1 or 2 remote fields) at
// each fan-out (objects per request) runs closed loop, every answer
// verified. A probe request before each point counts the remote calls and
// keys one request makes, in the service.
type RemoteFields struct {
	Common
	SF        int
	Variants  []string        // default batch, compiled
	Modes     []string        // single, batch (compiled always batches: it runs once)
	Kinds     []string        // HTTP clients: shared, per-call (SINGLE only)
	Templates []string        // RF1 (one remote field), RF2 (two)
	Latencies []time.Duration // of the remote service: 0, 1ms, 10ms
	FanOuts   []int           // objects per request: 10, 100, 1000
	// PerCallMax is the largest fan-out a per-call client runs at: each
	// object opens a connection, thousands per request past it.
	PerCallMax int
	Clients    int           // closed-loop clients (default 4)
	Duration   time.Duration // each run (default 2s)
	Runs       int           // per point, the first a warm-up (default 2)
}

func init() {
	Register(Experiment{
		Name:     "remote-fields",
		Summary:  "seed 002: remote custom fields resolved one call per object (SINGLE) vs batched (BATCH), shared vs per-call HTTP client",
		Synopsis: remoteFieldsSynopsis,
		Dir:      "gqlbench-remote-fields",
		Quick: [][2]string{{"sf", "1"}, {"fan-outs", "10,100,1000"}, {"per-call-max", "10"}, {"clients", "2"},
			{"duration", "400ms"}, {"runs", "2"}},
		Flags: remoteFieldsFlags,
	})
}

const remoteFieldsSynopsis = `experiment remote-fields [--db sqlite|postgres|URL] [--sf 1] [--variants batch,compiled] [--modes single,batch] [--latencies 0,1ms,10ms] [--fan-outs 10,100,1000] [flags]

Seed 002's @custom fields. A remote service (gqlbench serve remote-api) per
remote latency; per variant, resolution mode (single: one remote call per
object; batch: one call per field with every key) and HTTP client (shared
keep-alive, or a new client per call as Dgraph had), a server that calls it;
the remote-field templates RF1 (one remote field) and RF2 (two, at two
depths) at each fan-out (objects per request), closed loop, every answer
verified against the oracle. The report gives throughput, latency and the
remote calls and keys per request (counted by the service), and the
BATCH/SINGLE and shared/per-call ratios. docs/remote-fields.md reads a run.`

// remoteFieldsFlags registers the flags of RemoteFields.
func remoteFieldsFlags(fs *flag.FlagSet) Setup {
	var r RemoteFields
	sf := Scale(1)
	fs.Var(&sf, "sf", "scale factor of the dataset (the fan-out needs as many graduate students: sf=1 has 1874)")
	variants := fs.String("variants", "batch,compiled", "comma-separated GraphQL server variants")
	modes := fs.String("modes", "single,batch", "comma-separated resolution modes: single, batch")
	kinds := fs.String("remote-clients", "shared,per-call", "comma-separated HTTP clients to the remote service: shared, per-call (per-call runs in single mode only)")
	templates := fs.String("templates", "RF1,RF2", "comma-separated remote-field templates (RF1: one remote field, RF2: two, RF3: under nested lists)")
	latencies := fs.String("latencies", "0,1ms,10ms", "comma-separated answer times of the remote service")
	fanOuts := fs.String("fan-outs", "10,100,1000", "comma-separated objects per request ($n of the templates)")
	fs.IntVar(&r.PerCallMax, "per-call-max", 100, "the largest fan-out the per-call client runs at")
	fs.IntVar(&r.Clients, "clients", 4, "closed-loop clients")
	fs.DurationVar(&r.Duration, "duration", 2*time.Second, "each run")
	fs.IntVar(&r.Runs, "runs", 2, "runs per point, the first a warm-up")
	return newSetup(&r, func() error {
		r.SF = int(sf)
		return r.parse(*variants, *modes, *kinds, *templates, *latencies, *fanOuts)
	})
}

// parse sets the list settings from their flags.
func (r *RemoteFields) parse(variants, modes, kinds, templates, latencies, fanOuts string) error {
	var err error
	if r.Variants, err = parseVariants(variants); err != nil {
		return err
	}
	for _, v := range r.Variants {
		if sv, _ := server.Lookup(v); sv.Open == nil || v == "null" || v == "inmem" {
			return usagef("--variants: %s does not answer remote fields from a service (want naive, memo, batch, batch-memo or compiled)", v)
		}
	}
	if r.Modes, err = parseWords("modes", modes, server.RemoteSingle, server.RemoteBatch); err != nil {
		return err
	}
	if r.Kinds, err = parseWords("remote-clients", kinds, "shared", "per-call"); err != nil {
		return err
	}
	if r.Templates, err = parseWords("templates", strings.ToUpper(templates), remoteTemplateNames()...); err != nil {
		return err
	}
	for _, l := range strings.Split(latencies, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(l))
		if strings.TrimSpace(l) == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return usagef("--latencies: want comma-separated durations (0, 1ms, ...), got %q", latencies)
		}
		r.Latencies = append(r.Latencies, d)
	}
	r.FanOuts, err = parseInts("fan-outs", fanOuts)
	return err
}

// parseWords parses the comma-separated words of flag --name, each one of
// allowed.
func parseWords(name, s string, allowed ...string) ([]string, error) {
	var out []string
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		if !slices.Contains(allowed, w) {
			return nil, usagef("--%s: %q is not one of %s", name, w, strings.Join(allowed, ", "))
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out, nil
}

func remoteTemplateNames() []string {
	var out []string
	for _, t := range workload.RemoteTemplates() {
		out = append(out, t.Name)
	}
	return out
}

// check returns an *exitcode.UsageError for a setting out of range.
func (r *RemoteFields) check() error {
	switch {
	case r.Duration <= 0:
		return usagef("--duration must be positive")
	case r.Runs < 1 || r.Clients < 1:
		return usagef("--runs and --clients must be at least 1")
	case r.PerCallMax < 0:
		return usagef("--per-call-max must not be negative")
	}
	return nil
}

func (r *RemoteFields) defaults() {
	if r.SF <= 0 {
		r.SF = 1
	}
	if len(r.Variants) == 0 {
		r.Variants = []string{"batch", "compiled"}
	}
	if len(r.Modes) == 0 {
		r.Modes = []string{server.RemoteSingle, server.RemoteBatch}
	}
	if len(r.Kinds) == 0 {
		r.Kinds = []string{"shared", "per-call"}
	}
	if len(r.Templates) == 0 {
		r.Templates = []string{"RF1", "RF2"}
	}
	if len(r.Latencies) == 0 {
		r.Latencies = []time.Duration{0, time.Millisecond, 10 * time.Millisecond}
	}
	if len(r.FanOuts) == 0 {
		r.FanOuts = []int{10, 100, 1000}
	}
	if r.Clients <= 0 {
		r.Clients = 4
	}
	if r.Duration <= 0 {
		r.Duration = 2 * time.Second
	}
	if r.Runs <= 0 {
		r.Runs = 2
	}
}

// Run runs the experiment. Beside report.html and report.md it writes
// report.json, the report with the experiment's tables as data.
func (r RemoteFields) Run(ctx context.Context) (*Result, error) {
	r.defaults()
	var sess *session
	res, err := runSession(ctx, "remote-fields", r.Common, func(ctx context.Context, s *session, dbs *databases) error {
		sess = s
		return r.run(ctx, s, dbs)
	})
	if sess != nil && res != nil && res.HTML != "" {
		if jerr := sess.writeJSONReport(); jerr != nil && err == nil {
			err = fmt.Errorf("report: %w", jerr)
		}
	}
	return res, err
}

// writeJSONReport writes Dir/report.json over the session's run files, as
// writeReport writes the HTML and Markdown ones.
func (s *session) writeJSONReport() error {
	runs, err := report.ReadRuns(s.res.Runs...)
	if err != nil {
		return err
	}
	rep, err := report.Build(runs, report.Options{Title: "gqlbench " + s.name, Config: s.config, Notes: s.notes, Sections: s.sections})
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(s.Dir, "report.json"), func(w io.Writer) error { return rep.Write(w, "json") })
}

// remotePoint is one measured point of the grid.
type remotePoint struct {
	variant, mode, kind, template string
	fields                        int
	latency                       time.Duration
	fanOut                        int
	calls, keys                   int64 // remote calls and keys of one request, counted by the service
	sum                           *runfile.Summary
}

func (r RemoteFields) run(ctx context.Context, s *session, dbs *databases) error {
	s.config = append(s.config, r.config()...)
	s.notes = append(s.notes, fmt.Sprintf("Seed 002's remote custom fields: %s; modes %s; HTTP clients %s; %s at fan-outs %s; remote latencies %s; sf=%d on %s.",
		strings.Join(r.Variants, ", "), strings.Join(r.Modes, ", "), strings.Join(r.Kinds, ", "), strings.Join(r.Templates, ", "),
		intList(r.FanOuts), durationList(r.Latencies), r.SF, dbs.version),
		"The remote service runs beside the server under test, on its CPU when pinned: its answer time is the latency set, plus the CPU it takes to answer.")
	url, meta, err := dbs.dataset(ctx, r.SF, s.Seed)
	if err != nil {
		return err
	}
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return err
	}
	qf, err := r.queries(ctx, s, or)
	if err != nil {
		return err
	}
	s.pinLoad()
	defer s.unpinLoad()
	var points []remotePoint
	defer func() { s.sections = append(s.sections, remoteSections(points)...) }()
	for _, lat := range r.Latencies {
		remote, err := s.tryServerArgs(ctx, "remote-api", url, 1, "remote-api-"+durationTag(lat),
			[]string{"--latency", lat.String(), "--latency-seed", strconv.FormatUint(s.Seed, 10)})
		if remote == nil {
			if err != nil {
				return err
			}
			continue
		}
		err = r.latency(ctx, s, remote, lat, url, dbs.kind, qf, &points)
		s.stopServer(remote)
		if err != nil {
			return err
		}
	}
	return nil
}

// queries writes every template at every fan-out, with the oracle's
// answers.
func (r RemoteFields) queries(ctx context.Context, s *session, or *oracle) (*queryfile.File, error) {
	answer := inmem.Answerer(or.data)
	var entries []queryfile.Entry
	for _, name := range r.Templates {
		t, err := workload.RemoteTemplateByName(name)
		if err != nil {
			return nil, err
		}
		for _, n := range r.FanOuts {
			e := t.Entry(n)
			data, err := answer(ctx, t.Query, map[string]any{"n": n})
			if err != nil {
				return nil, err
			}
			if e.Expect, err = verify.Hash(data); err != nil {
				return nil, err
			}
			entries = append(entries, e)
		}
	}
	return s.writeEntries(fmt.Sprintf("sf%d-remote-fields", r.SF), entries)
}

// latency runs every variant, mode and client kind against one remote
// service.
func (r RemoteFields) latency(ctx context.Context, s *session, remote *Server, lat time.Duration, url, db string, qf *queryfile.File, points *[]remotePoint) error {
	stats, err := remoteapi.NewClient(server.Remote{URL: remote.Base()})
	if err != nil {
		return err
	}
	defer stats.Close()
	for _, v := range r.Variants {
		for _, mode := range r.Modes {
			if v == "compiled" && mode != r.Modes[len(r.Modes)-1] {
				continue // compiled batches whatever the mode: it runs once
			}
			if v == "compiled" {
				mode = server.RemoteBatch
			}
			for _, kind := range r.Kinds {
				if kind == "per-call" && mode != server.RemoteSingle {
					continue
				}
				tag := fmt.Sprintf("%s-%s-%s-%s", v, mode, kind, durationTag(lat))
				args := []string{"--remote-url", remote.Base(), "--remote-mode", mode, "--remote-client", kind}
				srv, err := s.tryServerArgs(ctx, v, url, 10, tag, args)
				if srv == nil {
					if err != nil {
						return err
					}
					continue
				}
				err = r.points(ctx, s, srv, stats, remotePoint{variant: v, mode: mode, kind: kind, latency: lat}, db, qf, points)
				s.stopServer(srv)
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// points runs every template and fan-out against srv.
func (r RemoteFields) points(ctx context.Context, s *session, srv *Server, stats *remoteapi.Client, p remotePoint, db string, qf *queryfile.File, points *[]remotePoint) error {
	for _, e := range qf.Entries {
		t, _ := workload.RemoteTemplateByName(e.Label)
		var vars struct{ N int }
		json.Unmarshal(e.Variables, &vars)
		if p.kind == "per-call" && vars.N > r.PerCallMax {
			continue
		}
		pt := p
		pt.template, pt.fields, pt.fanOut = t.Name, len(t.Fields), vars.N
		what := fmt.Sprintf("%s %s %s %s n=%d %v", p.variant, p.mode, p.kind, t.Name, vars.N, p.latency)
		var err error
		var took time.Duration
		if pt.calls, pt.keys, took, err = probe(ctx, srv, stats, e); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.serverFailed(srv, fmt.Errorf("%s: %w", what, err))
			return nil
		}
		// The latency is part of the workload: the same template and fan-out
		// against a slower service is another point, not another run.
		lbl := labels(p.variant+"/"+p.mode+"/"+p.kind, r.SF, 10, r.Clients, e.ID+"-"+durationTag(p.latency), db)
		lbl["remote_latency"], lbl["remote_mode"], lbl["remote_client"] = p.latency.String(), p.mode, p.kind
		err = s.run(ctx, srv, runSpec{
			name:    fmt.Sprintf("%s-%s-%s-%s-n%04d-%s", p.variant, p.mode, p.kind, t.Name, vars.N, durationTag(p.latency)),
			what:    what,
			queries: qf, entries: []queryfile.Entry{e}, mode: drive.Closed, clients: r.Clients, duration: r.runLength(took), runs: r.Runs,
			labels: lbl,
			done:   func(_ string, sum *runfile.Summary) { pt.sum = sum },
		})
		if pt.sum != nil {
			*points = append(*points, pt)
		}
		switch {
		case err == errSkip:
			return nil
		case err != nil:
			return err
		}
	}
	return nil
}

// runLength is a run's duration for a point whose probe took took: at
// least Duration, and long enough for several requests (up to 5×Duration),
// so that a slow point measures more than one or two answers.
func (r RemoteFields) runLength(took time.Duration) time.Duration {
	return min(max(r.Duration, 4*took), 5*r.Duration)
}

// probe sends e to srv once, checks the answer against the oracle's, and
// returns the remote calls and keys it made, counted by the service, and
// how long it took.
func probe(ctx context.Context, srv *Server, stats *remoteapi.Client, e queryfile.Entry) (calls, keys int64, took time.Duration, err error) {
	before, err := stats.Stats(ctx)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("the remote service's counts: %w", err)
	}
	start := time.Now()
	body, _ := json.Marshal(map[string]any{"query": e.Query, "variables": e.Variables})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, bytes.NewReader(body))
	if err != nil {
		return 0, 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, 0, 0, err
	}
	took = time.Since(start)
	var ans struct {
		Data   json.RawMessage `json:"data"`
		Errors []any           `json:"errors"`
	}
	if err := json.Unmarshal(b, &ans); err != nil || resp.StatusCode != 200 || len(ans.Errors) > 0 {
		return 0, 0, 0, fmt.Errorf("the probe of %s: %s %.300s", e.ID, resp.Status, b)
	}
	if h, _ := verify.Hash(ans.Data); h != e.Expect {
		return 0, 0, 0, fmt.Errorf("the probe of %s: not the oracle's answer: %.300s", e.ID, ans.Data)
	}
	after, err := stats.Stats(ctx)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("the remote service's counts: %w", err)
	}
	d := after.Sub(before)
	return d.Calls(), d.Keys, took, nil
}

// tryServerArgs is tryServer with further serve flags.
func (s *session) tryServerArgs(ctx context.Context, variant, db string, pool int, tag string, args []string) (*Server, error) {
	spec := ServerSpec{Exe: s.Exe, Variant: variant, DB: db, Pool: pool, Args: args, CPU: s.serverCPU,
		LogPath: filepath.Join(s.Dir, "logs", tag+".log")}
	t := time.Now()
	srv, err := StartServer(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.fail(fmt.Errorf("starting %s: %w", variant, err))
		return nil, nil
	}
	s.mu.Lock()
	s.servers[srv] = true
	s.mu.Unlock()
	s.logf("server %s %s: pid %d at %s (ready in %.1fs)", variant, strings.Join(args, " "), srv.PID, srv.URL, time.Since(t).Seconds())
	return srv, nil
}

func (r RemoteFields) config() [][2]string {
	return [][2]string{
		{"scale factor", strconv.Itoa(r.SF)},
		{"variants", strings.Join(r.Variants, ", ")},
		{"resolution modes", strings.Join(r.Modes, ", ") + " (compiled always batches)"},
		{"HTTP clients", strings.Join(r.Kinds, ", ") + fmt.Sprintf(" (per-call in single mode, fan-outs up to %d)", r.PerCallMax)},
		{"templates", strings.Join(r.Templates, ", ")},
		{"remote latencies", durationList(r.Latencies)},
		{"fan-outs", intList(r.FanOuts)},
		{"load", fmt.Sprintf("closed loop, %d clients; per point %d runs of %v (longer for a point whose probe request takes more than a quarter of that: 4 probes' time, at most %v), the first a warm-up", r.Clients, r.Runs, r.Duration, 5*r.Duration)},
	}
}

// durationList is "0s, 1ms, 10ms".
func durationList(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}

// durationTag is a duration for file names: "0s", "1ms", "10ms".
func durationTag(d time.Duration) string { return strings.ReplaceAll(d.String(), ".", "_") }

// remoteSections are the experiment's tables: every point, and the ratios
// seed 002 reads (BATCH over SINGLE, shared over per-call client).
func remoteSections(points []remotePoint) []report.Section {
	if len(points) == 0 {
		return nil
	}
	all := report.Table{Title: "Every point",
		Note: "Throughput of verified answers; latency per request (QET) over the measured runs; remote calls and keys of one request, counted by the remote service.",
		Head: []string{"variant", "mode", "client", "template", "remote fields", "remote latency", "fan-out", "q/s", "p50 ms", "p99 ms", "remote calls/request", "remote keys/request", "verified", "wrong", "errors"}}
	for _, p := range points {
		t := p.sum.Total
		all.Rows = append(all.Rows, []string{p.variant, p.mode, p.kind, p.template, strconv.Itoa(p.fields), p.latency.String(), strconv.Itoa(p.fanOut),
			fmt.Sprintf("%.1f", p.sum.Throughput.Mean), fmt.Sprintf("%.2f", float64(t.QET.P50)/1e6), fmt.Sprintf("%.2f", float64(t.QET.P99)/1e6),
			strconv.FormatInt(p.calls, 10), strconv.FormatInt(p.keys, 10),
			strconv.FormatInt(t.Verified, 10), strconv.FormatInt(t.Wrong, 10), strconv.FormatInt(t.Errors, 10)})
	}
	find := func(variant, mode, kind, template string, lat time.Duration, n int) *remotePoint {
		for i := range points {
			p := &points[i]
			if p.variant == variant && p.mode == mode && p.kind == kind && p.template == template && p.latency == lat && p.fanOut == n {
				return p
			}
		}
		return nil
	}
	ratio := func(a, b *remotePoint) string {
		if a == nil || b == nil || a.sum.Throughput.Mean == 0 || b.sum.Throughput.Mean == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f×", a.sum.Throughput.Mean/b.sum.Throughput.Mean)
	}
	// p50 is the latency ratio a/b of two points: it exists where a run
	// too short for a slow point's answers to complete has no throughput.
	p50 := func(a, b *remotePoint) string {
		if a == nil || b == nil || b.sum.Total.QET.P50 == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f×", float64(a.sum.Total.QET.P50)/float64(b.sum.Total.QET.P50))
	}
	ratios := report.Table{Title: "BATCH over SINGLE, and the shared client over a client per call",
		Note: "Ratios from the same run: throughput BATCH/SINGLE and median latency SINGLE/BATCH with the shared client; throughput shared/per-call in SINGLE mode (– where a point did not run, or no answer completed within a run).",
		Head: []string{"variant", "template", "remote latency", "fan-out", "SINGLE q/s", "BATCH q/s", "BATCH/SINGLE", "p50 SINGLE/BATCH", "per-call q/s", "shared/per-call"}}
	for _, p := range points {
		if p.mode != server.RemoteSingle || p.kind != "shared" {
			continue
		}
		b := find(p.variant, server.RemoteBatch, "shared", p.template, p.latency, p.fanOut)
		pc := find(p.variant, server.RemoteSingle, "per-call", p.template, p.latency, p.fanOut)
		q := func(x *remotePoint) string {
			if x == nil {
				return "–"
			}
			return fmt.Sprintf("%.1f", x.sum.Throughput.Mean)
		}
		ratios.Rows = append(ratios.Rows, []string{p.variant, p.template, p.latency.String(), strconv.Itoa(p.fanOut),
			q(&p), q(b), ratio(b, &p), p50(&p, b), q(pc), ratio(&p, pc)})
	}
	sec := report.Section{ID: "remote-fields", Title: "Remote custom fields (seed 002)",
		Paras:  []string{"SINGLE calls the remote service once per object, as Dgraph's @custom fields in mode SINGLE; BATCH once per remote field with every key of the request, as mode BATCH (compiled always batches). Seed 002 found BATCH about 15 % faster than SINGLE with two custom fields, and a new HTTP client per call its largest cost."},
		Tables: []report.Table{ratios, all}}
	return []report.Section{sec}
}
