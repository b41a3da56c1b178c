package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/verify"
)

// ExitCode is exitcode.Check: the run completed and failed a check.
func (e *CheckError) ExitCode() int { return exitcode.Check }

// Job is one verified load run into one run file: what is sent, where, how,
// what is watched, and the header's account of it. The CLI's `load` and the
// experiments make every run through it.
type Job struct {
	Config Config // the mode and its parameters; Requests, Transport, Watch and Self are Run's
	Target string // the GraphQL endpoint, or the REST API's base URL (API "rest")
	// API is what Target speaks: "graphql" ("" too: every entry's query is
	// sent) or "rest" (every entry's plan is carried out: NewREST).
	API string
	// PairedTarget is paired mode's second target, speaking the other API
	// (the REST base URL when API is GraphQL, and the other way round).
	PairedTarget string
	Client       string       // "gqlbench" (its own HTTP/1.1, the default), wire.ClientPerConn or "net/http"
	HTTP         wire.Options // timeout, headers, response limit
	// HTTP2Only, with HTTP.HTTP2, is the one API spoken to over HTTP/2
	// (APIREST or APIGraphQL: paired mode's seed 001 setting, REST over
	// HTTP/2 and GraphQL not); "" is every target.
	HTTP2Only string
	Queries   *queryfile.File // the queries file; Entries are the ones sent
	Watch     []int           // processes sampled each interval with their descendants (the server, the database)
	// WatchRuntime maps a watched process to the URL of its Go runtime
	// metrics (server.MetricsPath), scraped with each of its samples.
	WatchRuntime map[int]string
	Check        bool // check the target with Preflight before the load
	// Verify says how answers are checked: "" by the queries file's expected
	// answers (every entry must carry one), "status" by status only (HTTP
	// 200, no GraphQL errors, data present). With Reference set, the
	// answers come from that server, fetched before the load.
	Verify    string
	Reference string        // a second server whose answers are the right ones
	Ignore    []verify.Path // members left out of every comparison
	Warn      func(string)  // receives Preflight's warnings and the notes on mutations; nil: dropped
	Info      HeaderInfo    // the header's account of the run (Watch is filled in)
	// Out opens the run file, after every check has passed, so a job that
	// cannot start leaves no empty file behind.
	Out func() (io.Writer, error)
	// Records, if set, opens the per-request records (CSV) likewise.
	Records func() (io.Writer, error)
}

// Run checks the job, then the target (when Check), writes the header and
// runs the load into Out. Its errors are Run's (see Run), plus an
// *exitcode.UsageError for a job set up wrongly and the Preflight's error;
// nothing is written before the job and the target have passed their checks.
func (j *Job) Run(ctx context.Context) (*runfile.Summary, error) {
	cfg, err := j.config()
	if err != nil {
		return nil, err
	}
	level, err := j.expectations(ctx, cfg.Requests)
	if err != nil {
		return nil, err
	}
	cfg.Ignore = j.Ignore
	cfg.Timeout, cfg.Check, cfg.Secrets = j.HTTP.Timeout, level, secretsOf(j.HTTP.Header)
	if err := j.transports(&cfg); err != nil {
		return nil, err
	}
	info := j.Info
	info.Watch = nil
	for _, pid := range j.Watch {
		p, err := measure.NewProcTree(pid)
		if err != nil {
			return nil, err
		}
		if u := j.WatchRuntime[pid]; u != "" {
			p.Runtime = measure.NewRuntime(u)
		}
		cfg.Watch = append(cfg.Watch, p)
		info.Watch = append(info.Watch, runfile.Watched{PID: pid, Name: p.Name})
	}
	if self, err := measure.NewProc(os.Getpid()); err == nil {
		cfg.Self = self
	}
	j.warnMutations(cfg.Requests)
	if j.Check {
		if err := j.preflight(ctx, cfg.Requests); err != nil {
			return nil, err
		}
	}
	cfg.calibrate(ctx)
	if err := cfg.Shard.await(ctx, cfg.Log, j.Warn); err != nil {
		return nil, err
	}
	out, err := j.Out()
	if err != nil {
		return nil, fmt.Errorf("cannot write the run file: %w", err)
	}
	if j.Records != nil {
		rec, err := j.Records()
		if err != nil {
			return nil, fmt.Errorf("cannot write the records: %w", err)
		}
		cfg.Records = measure.NewRecordWriter(rec)
	}
	w := runfile.NewWriter(out)
	if err := w.Write(j.header(cfg, info, level)); err != nil {
		return nil, fmt.Errorf("run file: %w", err)
	}
	return Run(ctx, cfg, w)
}

// transports makes the job's transport, and the partner's when its mode
// has one.
func (j *Job) transports(cfg *Config) error {
	var err error
	if cfg.Transport, err = j.transport()(cfg.Requests); err != nil {
		return &exitcode.UsageError{Err: err}
	}
	cfg.APIs[0] = j.api()
	if !j.partnered() {
		return nil
	}
	return j.partnerTransport(cfg)
}

// preflight checks the target, and the paired one, before the load.
func (j *Job) preflight(ctx context.Context, reqs []wire.Request) error {
	check := func(api, target string, tr func([]wire.Request) (wire.Transport, error)) error {
		var warnings []string
		var err error
		if api == APIREST {
			warnings, err = preflightREST(ctx, target, tr, reqs, PreflightOptions{Ignore: j.Ignore, Headers: len(j.HTTP.Header)})
		} else {
			warnings, err = j.preflightGraphQL(ctx, target, tr, reqs)
		}
		for _, w := range warnings {
			if j.Warn != nil {
				j.Warn(w)
			}
		}
		return err
	}
	if err := check(j.api(), j.Target, j.transport()); err != nil {
		return err
	}
	if j.partnered() {
		return check(j.pairedAPI(), j.PairedTarget, j.pairedTransport())
	}
	return nil
}

// preflightGraphQL is Preflight with the run's checker and headers; when
// it fails with --apq, the target is tried once more without persisted
// queries, so that a server that does not take them is said to be one.
func (j *Job) preflightGraphQL(ctx context.Context, target string, tr func([]wire.Request) (wire.Transport, error), reqs []wire.Request) ([]string, error) {
	o := PreflightOptions{Ignore: j.Ignore, Headers: len(j.HTTP.Header)}
	warnings, err := PreflightWith(ctx, target, tr, reqs, o)
	if err == nil || !j.HTTP.APQ || ctx.Err() != nil {
		return warnings, err
	}
	plain := *j
	plain.HTTP.APQ = false
	if _, perr := PreflightWith(ctx, target, plain.transportTo(APIGraphQL, target), reqs, o); perr != nil {
		return nil, err
	}
	got := err.Error()
	var ng *notGraphQLError
	if errors.As(err, &ng) {
		got = "{__typename} got " + ng.why
	}
	return nil, &exitcode.UsageError{Err: fmt.Errorf("the target %s answers GraphQL but not automatic persisted queries (--apq): the requests sent in full are answered, sent as their hash first they are not (%s); leave out --apq, or turn persisted queries on in the server", target, got)}
}

// warnMutations says, when the queries file holds mutations, what they do
// to the measurement, and that under GET they are sent by POST.
func (j *Job) warnMutations(reqs []wire.Request) {
	n := Mutations(reqs)
	if n == 0 || j.Warn == nil {
		return
	}
	if !j.benchmarkWrites(reqs) {
		j.Warn(fmt.Sprintf("%d of %d entries run mutations (%s): every run changes the API's state, and the answers after a write depend on it — reset the state before each run, or check status only or --ignore-path the ids and counters that change (docs/any-api.md, Writes)%s",
			n, len(reqs), strings.Join(MutationLabels(reqs), ", "), preflightWrites(j.Check)))
	}
	if strings.EqualFold(j.HTTP.Method, "GET") && j.API != APIREST {
		j.Warn(fmt.Sprintf("--method GET sends queries by GET and the %d mutations by POST (GraphQL over HTTP runs no mutation sent by GET); the run file says so (params.mutation_method)", n))
	}
}

// preflightWrites is the note that the preflight writes too.
func preflightWrites(check bool) string {
	if !check {
		return ""
	}
	return "; the preflight sends the first entry of each operation once before the run, mutations included"
}

// benchmarkWrites reports whether every mutation is one of the benchmark's
// own write tasks (gqlbench tasks --writes): an entry whose expected
// answer comes with its dataset, made to stay right run after run.
func (j *Job) benchmarkWrites(reqs []wire.Request) bool {
	if j.Queries == nil || len(j.Queries.Entries) != len(reqs) {
		return false
	}
	for i := range reqs {
		if reqs[i].Mutation && j.Queries.Entries[i].Dataset == nil {
			return false
		}
	}
	return true
}

// header is the run file's header.
func (j *Job) header(cfg Config, info HeaderInfo, level string) *runfile.Header {
	h := NewHeader(cfg, info, j.Queries)
	p := &h.Params
	p.Check, p.Reference = level, dbloc.Redact(j.Reference) // a URL's secrets stay on the wire
	p.Method, p.APQ = j.HTTP.Method, j.HTTP.APQ
	if p.Mutations = Mutations(cfg.Requests); p.Mutations > 0 && strings.EqualFold(p.Method, "GET") {
		p.MutationMethod = "POST"
	}
	if j.API == APIREST || j.partnered() || wire.HasGraphQLPlan(cfg.Requests) {
		p.Parallel = j.HTTP.ParallelCalls()
	}
	p.HTTP2, p.HTTP2API = j.HTTP.HTTP2, j.HTTP2Only
	if j.API == APIREST {
		p.API = APIREST
	}
	if j.partnered() {
		p.PairedTarget, p.PairedAPI = dbloc.Redact(j.PairedTarget), j.pairedAPI()
	}
	for _, path := range j.Ignore {
		p.Ignore = append(p.Ignore, strings.Join(path, "."))
	}
	return h
}

// config returns the job's Config with its requests, defaults and checks.
func (j *Job) config() (Config, error) {
	cfg, err := j.Config.Ready()
	if err != nil {
		return cfg, &exitcode.UsageError{Err: err}
	}
	if j.Queries == nil || len(j.Queries.Entries) == 0 {
		return cfg, errors.New("no queries to send")
	}
	reqs, err := wire.Requests(j.Queries.Entries)
	if err != nil {
		return cfg, err
	}
	paired := j.partnered()
	switch {
	case paired && j.PairedTarget == "":
		return cfg, &exitcode.UsageError{Err: errors.New("paired mode sends every task to two APIs: give the second one's URL with --paired-target")}
	case !paired && j.PairedTarget != "":
		return cfg, &exitcode.UsageError{Err: errors.New("--paired-target applies to --mode paired")}
	case j.API == APIREST && j.Client == "net/http":
		return cfg, &exitcode.UsageError{Err: errors.New("a REST target is driven by gqlbench's own HTTP/1.1 client, or by net/http over HTTP/2 (--http2): --client net/http does not apply")}
	case j.API != APIREST && !paired && j.HTTP.Parallel != 0 && !wire.HasGraphQLPlan(reqs):
		return cfg, &exitcode.UsageError{Err: errors.New("--parallel applies to a REST target (--api rest, or the REST side of --mode paired) and to tasks in GraphQL steps")}
	case j.HTTP.HTTP2 && j.Client == "net/http":
		return cfg, &exitcode.UsageError{Err: errors.New("--http2 uses net/http already: leave out --client net/http")}
	}
	switch j.HTTP2Only {
	case "":
	case APIREST, APIGraphQL:
		if !j.HTTP.HTTP2 {
			return cfg, &exitcode.UsageError{Err: fmt.Errorf("HTTP/2 for the %s side only needs HTTP/2 on", j.HTTP2Only)}
		}
		if j.api() != j.HTTP2Only && (!paired || j.pairedAPI() != j.HTTP2Only) {
			return cfg, &exitcode.UsageError{Err: fmt.Errorf("--http2 %s: no target of this run speaks %s", j.HTTP2Only, j.HTTP2Only)}
		}
	default:
		return cfg, &exitcode.UsageError{Err: fmt.Errorf("HTTP/2 for %q: want rest or graphql", j.HTTP2Only)}
	}
	if err := checkForms(reqs, j.API); err != nil {
		return cfg, err
	}
	if paired {
		if err := checkForms(reqs, j.pairedAPI()); err != nil {
			return cfg, err
		}
	}
	cfg.Requests = reqs
	return cfg, nil
}

// The APIs a target speaks.
const (
	APIGraphQL = "graphql"
	APIREST    = "rest"
)

// checkForms says which entry lacks the form the API needs: a query for
// GraphQL, a plan for REST.
func checkForms(reqs []wire.Request, api string) error {
	switch api {
	case "", APIGraphQL:
		for i := range reqs { // (not a copy of each: a Request is some 230 bytes)
			r := &reqs[i]
			if r.Query == "" && len(r.GraphQLPlan) == 0 {
				return &exitcode.UsageError{Err: fmt.Errorf("%s has no GraphQL query, only a REST plan: send it to a REST target (--api rest)", r.ID)}
			}
		}
	case APIREST:
		for i := range reqs {
			r := &reqs[i]
			switch {
			case len(r.Plan) == 0 && len(r.GraphQLPlan) > 0:
				return &exitcode.UsageError{Err: fmt.Errorf("%s has GraphQL steps but no REST plan: the REST side of the run needs a \"plan\" in the entry", r.ID)}
			case len(r.Plan) == 0:
				return &exitcode.UsageError{Err: fmt.Errorf("%s has no REST plan: a REST target (--api rest, or paired mode's REST side) needs tasks (gqlbench tasks)", r.ID)}
			}
		}
	default:
		return &exitcode.UsageError{Err: fmt.Errorf("unknown API %q: want graphql or rest", api)}
	}
	return nil
}

// transport returns the maker of the job's kind of transport.
func (j *Job) transport() func([]wire.Request) (wire.Transport, error) {
	return j.transportTo(j.api(), j.Target)
}

// pairedTransport returns the maker of paired mode's second transport.
func (j *Job) transportTo(api, target string) func([]wire.Request) (wire.Transport, error) {
	o := j.HTTP
	if j.HTTP2Only != "" && j.HTTP2Only != api {
		o.HTTP2 = false
	}
	if api == APIREST {
		return func(r []wire.Request) (wire.Transport, error) { return wire.NewREST(target, r, o) }
	}
	return func(r []wire.Request) (wire.Transport, error) { return wire.NewTransport(j.Client, target, r, o) }
}

// api is the --target's API; pairedAPI the other one.
func (j *Job) api() string {
	if j.API == APIREST {
		return APIREST
	}
	return APIGraphQL
}

// The ways answers are checked (runfile.Params.Check).
const (
	CheckExpect    = "expect"    // by the hashes in the queries file
	CheckGolden    = "golden"    // by the recorded answers in the queries file
	CheckReference = "reference" // by a reference server's answers
	CheckStatus    = "status"    // status only: the answers themselves not checked
)

// ErrUnchecked is the advice when nothing says what the right answers are.
const ErrUnchecked = `say how to check the answers: record them from a server you trust (gqlbench record --target URL --queries FILE -o golden.jsonl, then --queries golden.jsonl), compare with a reference server (--reference URL), or check the status only (--check status: HTTP 200, no GraphQL errors, data present)`

// expectations sets every request's expected answer as the job says and
// returns how answers are checked: an *exitcode.UsageError when nothing says
// what the right answers are, the reference's failure when it does not answer.
func (j *Job) expectations(ctx context.Context, reqs []wire.Request) (string, error) {
	switch {
	case j.Verify == CheckStatus && j.Reference != "":
		return "", &exitcode.UsageError{Err: errors.New("--check status and --reference exclude each other")}
	case j.Verify == CheckStatus:
		if len(j.Ignore) > 0 {
			return "", &exitcode.UsageError{Err: errors.New("--ignore-path has nothing to leave out with --check status")}
		}
		for i := range reqs {
			reqs[i].Expect, reqs[i].Answer = "", nil
		}
		return CheckStatus, nil
	case j.Verify != "":
		return "", &exitcode.UsageError{Err: fmt.Errorf("unknown --check %q: want status (or none, to check the answers)", j.Verify)}
	case j.Reference != "":
		rec := Golden{Target: j.Reference, Client: j.Client, HTTP: j.HTTP}
		ans, err := rec.fetch(ctx, j.Reference, reqs)
		if err != nil {
			return "", fmt.Errorf("the reference: %w", err)
		}
		for i := range reqs {
			reqs[i].Answer = ans[i].Data
		}
		return CheckReference, j.hashes(reqs)
	}
	missing, golden := 0, true
	for i := range reqs {
		r := &reqs[i]
		if r.Expect == "" && r.Answer == nil {
			missing++
		}
		golden = golden && r.Answer != nil
	}
	if missing > 0 {
		return "", &exitcode.UsageError{Err: fmt.Errorf("%d of %d queries carry no expected answer: %s", missing, len(reqs), ErrUnchecked)}
	}
	if err := j.hashes(reqs); err != nil {
		return "", err
	}
	if golden {
		return CheckGolden, nil
	}
	return CheckExpect, nil
}

// hashes sets each request's expected hash from its answer, under its
// options and the ignored paths; a request with only a hash cannot have
// paths ignored.
func (j *Job) hashes(reqs []wire.Request) error {
	for i := range reqs {
		r := &reqs[i]
		if r.Answer == nil {
			if len(j.Ignore) > 0 {
				return &exitcode.UsageError{Err: fmt.Errorf("--ignore-path needs the right answers, not only their hashes: %s has none (record them with gqlbench record, or use --reference)", r.ID)}
			}
			continue
		}
		h, err := verify.HashWith(r.Answer, verify.Options{Unordered: r.Unordered, Ignore: j.Ignore})
		if err != nil {
			return fmt.Errorf("%s: the expected answer: %w", r.ID, err)
		}
		r.Expect = h
	}
	return nil
}
