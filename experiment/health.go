package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/task"
	"github.com/gqlbench/gqlbench/verify"
)

// The health suite's workload (seed 003: "simple queries to fetch or
// mutate a single object"), each entry a task with a GraphQL query and a
// REST plan that assembles to the same answer, checked by one hash.
const (
	// labelRead fetches one faculty member: faculty(nr) in GraphQL, GET
	// /rest/faculty/{id} in REST.
	labelRead = "one-read"
	// labelWrite creates one publication in the servers' reserved range
	// (task.SandboxAuthor's): createPublication, POST /rest/publications.
	labelWrite = "one-write"
)

const (
	oneReadQuery  = "query OneRead($facultyID: ID!) { faculty(nr: $facultyID) { id emailAddress telephone } }"
	oneWriteQuery = "mutation OneWrite($input: CreatePublicationInput!) { createPublication(input: $input) { title abstract } }"
)

// healthEntries makes n single-object reads (distinct faculty members,
// drawn with seed) and, with writes, n single-object creates, each with
// its expected answer from the oracle.
func healthEntries(ctx context.Context, meta *dataset.Meta, or *oracle, n int, seed uint64, writes bool) ([]queryfile.Entry, error) {
	ids := meta.IDs["facultyID"]
	if len(ids) == 0 {
		return nil, fmt.Errorf("the metadata lists no faculty")
	}
	answer := inmem.Answerer(or.data)
	ref := &queryfile.DatasetRef{SF: meta.Scale, Seed: meta.Seed, Version: meta.Version}
	var out []queryfile.Entry
	add := func(e queryfile.Entry, data json.RawMessage) error {
		h, err := verify.Hash(data)
		if err != nil {
			return fmt.Errorf("%s: the expected answer: %w", e.ID, err)
		}
		e.Expect, e.Dataset = h, ref
		if err := e.Plan.Check(e.Variables); err != nil {
			return fmt.Errorf("%s: %w", e.ID, err)
		}
		out = append(out, e)
		return nil
	}
	for k := range n {
		id := fmt.Sprint(ids[int((seed+uint64(k)*7919)%uint64(len(ids)))])
		vars := map[string]any{"facultyID": id}
		data, err := answer(ctx, oneReadQuery, vars)
		if err != nil {
			return nil, fmt.Errorf("the oracle: %w", err)
		}
		e := queryfile.Entry{ID: fmt.Sprintf("%s-%04d", labelRead, k+1), Label: labelRead, Query: oneReadQuery,
			Variables: json.RawMessage(fmt.Sprintf(`{"facultyID":%q}`, id)),
			Plan:      queryfile.Plan{{Method: "GET", Path: "/rest/faculty/{facultyID}", As: "faculty", Keep: []string{"id", "emailAddress", "telephone"}}}}
		if err := add(e, data); err != nil {
			return nil, err
		}
	}
	for k := range n * b2i(writes) {
		title := fmt.Sprintf("gqlbench health %04d", k+1)
		abstract := "a publication the health suite writes, in the reserved range"
		input := map[string]any{"input": map[string]any{"title": title, "abstract": abstract, "mainAuthor": task.SandboxAuthor}}
		vars, err := json.Marshal(input)
		if err != nil {
			return nil, err
		}
		e := queryfile.Entry{ID: fmt.Sprintf("%s-%04d", labelWrite, k+1), Label: labelWrite, Query: oneWriteQuery, Variables: vars,
			Plan: queryfile.Plan{{Method: "POST", Path: "/rest/publications", Body: []byte(`"{input}"`), Status: 201,
				As: "createPublication", Keep: []string{"title", "abstract"}}}}
		if err := add(e, fmt.Appendf(nil, `{"createPublication":{"title":%q,"abstract":%q}}`, title, abstract)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// byLabel are the entries of label.
func byLabel(entries []queryfile.Entry, label string) []queryfile.Entry {
	var out []queryfile.Entry
	for _, e := range entries {
		if e.Label == label {
			out = append(out, e)
		}
	}
	return out
}

// takesWrites says whether variant v answers the write mutations.
func takesWrites(v string) bool { return slices.Contains(writeVariants, v) }

// memPoint is one sample of a server's memory on a timeline: the process
// sampler's CPU and RSS, and the Go runtime's own metrics when it has them.
type memPoint struct {
	T        float64                `json:"t_s"`   // seconds since the timeline began
	Phase    string                 `json:"phase"` // warm-up, baseline, load, settle
	CPUPct   float64                `json:"cpu_pct"`
	RSSBytes int64                  `json:"rss_bytes"`
	Runtime  *measure.RuntimeSample `json:"runtime,omitempty"`
	Forced   bool                   `json:"forced_gc,omitempty"` // read after a forced GC (?gc=1)
}

// timeline samples a server every step, each point written as a JSON line
// to its file as it is taken (an interrupted soak keeps its points).
type timeline struct {
	srv   *Server
	proc  *measure.Proc
	every time.Duration
	start time.Time
	rt    *measure.Runtime // nil: not a Go server of gqlbench's

	smu   sync.Mutex // one sample at a time: the ticker's and a forced one share proc
	mu    sync.Mutex
	phase string
	pts   []memPoint
	f     io.WriteCloser
	enc   *json.Encoder

	stop chan struct{}
	done chan struct{}
}

// watchMemory starts sampling srv every step into path.
func watchMemory(srv *Server, every time.Duration, path string) (*timeline, error) {
	p, err := measure.NewProcTree(srv.PID)
	if err != nil {
		return nil, err
	}
	f, err := outfile.Open(path, 0o644)
	if err != nil {
		return nil, err
	}
	tl := &timeline{srv: srv, proc: p, every: every, start: time.Now(), phase: "start", f: f, enc: json.NewEncoder(f),
		stop: make(chan struct{}), done: make(chan struct{})}
	if srv.GoRuntime() {
		tl.rt = measure.NewRuntime(srv.Base() + server.MetricsPath)
	}
	go tl.loop()
	return tl, nil
}

func (tl *timeline) loop() {
	defer close(tl.done)
	t := time.NewTicker(tl.every)
	defer t.Stop()
	for {
		select {
		case <-tl.stop:
			return
		case <-t.C:
			tl.sample(false)
		}
	}
}

// sample takes a point now; forced reads the runtime after a GC.
func (tl *timeline) sample(forced bool) memPoint {
	tl.smu.Lock()
	defer tl.smu.Unlock()
	ps := tl.proc.Sample()
	pt := memPoint{T: time.Since(tl.start).Seconds(), CPUPct: ps.CPUPercent, RSSBytes: ps.RSSBytes, Forced: forced}
	if tl.rt != nil && !ps.Gone {
		rt := *tl.rt
		if forced {
			rt.URL += "?gc=1"
		}
		rs := rt.Sample(context.Background())
		pt.Runtime = &rs
	}
	tl.mu.Lock()
	defer tl.mu.Unlock()
	pt.Phase = tl.phase
	if ps.Gone {
		return pt
	}
	tl.pts = append(tl.pts, pt)
	tl.enc.Encode(pt)
	return pt
}

// setPhase names the points taken from now on.
func (tl *timeline) setPhase(p string) {
	tl.mu.Lock()
	tl.phase = p
	tl.mu.Unlock()
}

// end stops the sampling and closes the file; it returns the points.
func (tl *timeline) end() ([]memPoint, error) {
	close(tl.stop)
	<-tl.done
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return tl.pts, tl.f.Close()
}

// forceGC reads srv's runtime after a forced garbage collection, or
// returns ok false when it has no runtime metrics.
func forceGC(ctx context.Context, srv *Server) (measure.RuntimeSample, bool) {
	if !srv.GoRuntime() {
		return measure.RuntimeSample{}, false
	}
	rs := measure.NewRuntime(srv.Base() + server.MetricsPath + "?gc=1").Sample(ctx)
	return rs, rs.Error == ""
}

// metricsReachable checks that srv serves its runtime metrics, as the
// health experiments need of a Go server.
func metricsReachable(ctx context.Context, srv *Server) error {
	req, err := http.NewRequestWithContext(ctx, "GET", srv.Base()+server.MetricsPath, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return fmt.Errorf("%s: runtime metrics: %w", srv.Spec.Variant, err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: runtime metrics at %s: %s", srv.Spec.Variant, server.MetricsPath, resp.Status)
	}
	return nil
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// healthDataset prepares the dataset, the oracle and the health entries
// (n of each kind, writes when asked) written as a queries file named name.
func healthDataset(ctx context.Context, s *session, dbs *databases, sf, n int, writes bool, name string) (string, *queryfile.File, error) {
	url, meta, err := dbs.dataset(ctx, sf, s.Seed)
	if err != nil {
		return "", nil, err
	}
	or, err := s.newOracle(ctx, meta)
	if err != nil {
		return "", nil, err
	}
	entries, err := healthEntries(ctx, meta, or, n, s.Seed, writes)
	if err != nil {
		return "", nil, err
	}
	qf, err := s.writeEntries(name, entries)
	return url, qf, err
}

// peersNeedPostgres refuses the peers (servers of other stacks) on SQLite.
func peersNeedPostgres(variants []string, kind string) error {
	if kind != "sqlite" {
		return nil
	}
	for _, v := range variants {
		if sv, _ := server.Lookup(v); sv.Process != nil {
			return usagef("%s runs on PostgreSQL only: --db postgres (a throwaway local cluster) or --db postgres://...", v)
		}
	}
	return nil
}

// timelinePath is where a variant's memory timeline goes.
func timelinePath(s *session, name string) string { return filepath.Join(s.Dir, name+"-memory.jsonl") }

// runPerVariant runs a health experiment whose results come one per
// variant: run appends them as it goes, and the report's section is made of
// those gathered, also when the run stops early (an error, Ctrl-C).
func runPerVariant[R any](ctx context.Context, name string, c Common, run func(context.Context, *session, *databases, *[]R) error,
	section func([]R) report.Section) (*Result, error) {
	var results []R
	return runSession(ctx, name, c, func(ctx context.Context, s *session, dbs *databases) error {
		err := run(ctx, s, dbs, &results)
		if len(results) > 0 {
			s.sections = append(s.sections, section(results))
		}
		return err
	})
}

// healthStart is a health experiment's start: peers refused off
// PostgreSQL, its settings and notes recorded, the dataset and its queries
// file (n instances per template, the writes too when writes), and the load
// generator pinned (unpin is to be deferred).
func healthStart(ctx context.Context, s *session, dbs *databases, variants []string, config [][2]string, notes []string,
	sf, n int, writes bool) (url string, qf *queryfile.File, unpin func(), err error) {
	if err = peersNeedPostgres(variants, dbs.kind); err != nil {
		return
	}
	s.config = append(s.config, config...)
	s.notes = append(s.notes, notes...)
	if url, qf, err = healthDataset(ctx, s, dbs, sf, n, writes, fmt.Sprintf("sf%d-health", sf)); err != nil {
		return
	}
	s.pinLoad()
	return url, qf, s.unpinLoad, nil
}
