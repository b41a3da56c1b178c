package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/gqlbench/gqlbench/server/trace"
)

// Defaults of HTTPOptions.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 64 << 20 // 64 MiB
	DefaultMaxRequestBytes  = 1 << 20  // 1 MiB
)

// HTTPOptions configures Handler. A zero field means its default; a negative
// limit or timeout means none.
type HTTPOptions struct {
	// MaxResponseBytes limits the encoded response (default 64 MiB). A larger
	// one is answered with a clear error instead of exhausting memory or the
	// client (seed 002 hit a 4 GB limit).
	MaxResponseBytes int64
	// Timeout bounds each request's execution (default 30 s): past it the
	// client gets 504 and the executor's context is cancelled.
	Timeout time.Duration
	// Trace adds the per-request breakdown extensions.timing to every
	// executed request's response (see Handler).
	Trace bool
	// TraceEvery, with Trace, traces one request in TraceEvery (by order
	// of arrival; ≤ 1: every one): the others get no breakdown and cost a
	// counter's increment, so that a throughput run pays a fraction of
	// tracing's cost and still gets the split's means from a sample.
	TraceEvery int
	// MaxRequestBytes limits a POST body (default 1 MiB).
	MaxRequestBytes int64
	// Variant is the name of the variant served, sent by /healthz in the
	// Gqlbench-Variant header so a driver can check what it is measuring.
	Variant string
	// Log receives executor panics with their stack; nil: they are only
	// reported to the client.
	Log io.Writer
	// MaxExecuting bounds the GraphQL operations executing at once
	// (default DefaultMaxExecuting); the others wait for a slot in arrival
	// order, their request read, before they execute. A resolver-based
	// executor holds a goroutine per list element and per resolved field
	// until its operation ends — about 3 MB for a 44 KB answer of 100
	// objects — so without a bound its memory grows with the clients, not
	// with the cores that do the work: a thousand users of such a query
	// took 3 GB. A waiting request holds what a REST request does (its
	// connection's goroutine and buffers, the decoded request). Executors
	// that never wait (NonBlocking) are not limited. Negative: no limit.
	MaxExecuting int
}

// DefaultMaxExecuting is HTTPOptions.MaxExecuting's default: 16 operations
// per processor the Go runtime may use (GOMAXPROCS), enough to keep each
// busy while others wait for the database, a DataLoader's batch or a
// remote call. More executing at once adds no throughput on work that
// needs the processor, only memory and, for each request, the time it
// shares the processor with all the others.
func DefaultMaxExecuting() int { return 16 * runtime.GOMAXPROCS(0) }

// WithDefaults is o with every zero field set to its default.
func (o HTTPOptions) WithDefaults() HTTPOptions { return o.withDefaults() }

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.MaxResponseBytes == 0 {
		o.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRequestBytes == 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.MaxExecuting == 0 {
		o.MaxExecuting = DefaultMaxExecuting()
	}
	return o
}

// Pinger is implemented by executors that can tell whether their database
// is reachable; /healthz calls it.
type Pinger interface {
	Ping(ctx context.Context) error
}

// NonBlocking is implemented by executors whose Execute returns at once and
// never waits (null). Handler calls them on the request's own goroutine,
// without the timeout machinery that the others need.
type NonBlocking interface {
	NonBlocking()
}

// Handler serves e over GraphQL-over-HTTP:
//
//	/graphql (and /)  POST application/json {"query", "variables", "operationName"},
//	                  or GET ?query=&variables=&operationName= (variables as JSON)
//	/healthz          200 "ok", or 503 and the error when e is a Pinger that fails
//
// Every error is a GraphQL response {"errors":[{"message": ...}]}, with this
// HTTP status, as the GraphQL-over-HTTP spec has it:
//
//	200  executed: data, possibly with field errors; and under application/json,
//	     a Response.RequestError: errors, no data
//	400  malformed request (body not a JSON object, variables not an object,
//	     missing or empty query); and under application/graphql-response+json,
//	     a Response.RequestError (syntax, validation, variable coercion, depth
//	     limit: the request was well formed, its document cannot run)
//	404  a path other than the above
//	405  a method other than GET and POST (with Allow)
//	413  a body over MaxRequestBytes
//	415  a POST whose Content-Type is not application/json
//	500  the executor failed or panicked, or the response exceeds
//	     MaxResponseBytes: the request was valid and executed, the server could
//	     not deliver the answer under its own configured limit (not 413, which
//	     is about the request's content; retrying elsewhere, with a higher
//	     limit, may succeed)
//	503  the database is unreachable (a variant sets Response.Status with StatusFor)
//	504  execution exceeded Timeout (waiting for an execution slot, see
//	     MaxExecuting, is not counted)
//
// A non-zero Response.Status overrides the status chosen by the rules above.
// The response is application/graphql-response+json when the Accept header
// prefers it, else application/json. The two differ only in the status of a
// request error: a client of application/json cannot tell a 4xx of the
// server's from an intermediary's, so it learns of the error from the body
// (gqlbench load counts it as an error under either type: it checks errors
// and data as well as the status). Data is written as the executor built it,
// never re-encoded; Handler never modifies a Response, so an executor may
// return a shared one.
//
// With Trace, the request's context carries trace.Stats and the response
// gets extensions.timing = {"total_ns": the time Execute took,
// "parse_ns", "validate_ns": the engine's phases as the executor recorded
// them (trace.Phases; 0 when it records none, or parsing a cached
// document), "execute_ns": the rest of Execute, "database_ns": the wall
// time during which at least one of its SQL statements ran
// (trace.Statement; concurrent statements count once),
// "database_sum_ns": the statements' times added up, "graphql_ns":
// total_ns − database_ns, "sql_statements": their number}: seed 002's
// per-request breakdown. It also gets a Server-Timing header (W3C Server
// Timing; durations in milliseconds with microsecond precision) with the
// same split of the whole request's time in the server:
//
//	read;dur=     reading and decoding the request body (or query string)
//	parse;dur=    parsing the document
//	validate;dur= validating it and coercing the variables
//	execute;dur=  the rest of Execute
//	db;dur=       of which the database (database_ns); db-sum;dur= and
//	              sql;count= are database_sum_ns and sql_statements
//	remote;dur=   of which the calls to the remote custom fields' service
//	              (trace.Remote; remote-calls;count=: their number), when
//	              there were some; part of the GraphQL layer
//	dispatch;dur= the rest between reading and writing: the timeout's
//	              set-up, waiting for an execution slot (MaxExecuting),
//	              handing the request to the executor's goroutine and the
//	              answer back
//	write;dur=    adding up the statements' times, encoding the
//	              response, up to its header
//	total;dur=    from the request's arrival in the handler to the header:
//	              the phases above, and what lies between their clock
//	              readings
//
// The body is written after the header, so its copy to the socket is not
// in total: a client counts it in round trip − total, with the network.
func Handler(e Executor, o HTTPOptions) http.Handler {
	_, nb := e.(NonBlocking)
	h := &handler{e: e, o: o.withDefaults(), inline: nb}
	h.sample.Every = h.o.TraceEvery
	if !nb && h.o.MaxExecuting > 0 {
		h.slots = make(chan struct{}, h.o.MaxExecuting)
	}
	return h
}

type handler struct {
	e      Executor
	o      HTTPOptions
	inline bool
	// slots holds a token per executing operation (MaxExecuting); nil: no
	// limit.
	slots chan struct{}
	// sample picks the requests traced (TraceEvery).
	sample trace.Sampler
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/graphql", "/":
		if IsStream(r) {
			h.stream(w, r)
			return
		}
		var tr *traced
		if h.o.Trace && h.sample.Next() {
			tr = &traced{arrived: trace.Now()}
		}
		req, fail := h.read(w, r)
		if fail != nil {
			h.write(w, r, fail, nil)
			return
		}
		if tr != nil {
			tr.read = trace.Now()
		}
		resp, tr := h.execute(r.Context(), req, tr)
		h.write(w, r, resp, tr)
	case "/healthz":
		h.healthz(w, r)
	default:
		h.write(w, r, ErrorResponse(http.StatusNotFound,
			fmt.Sprintf("no such path %q: GraphQL is served at /graphql", r.URL.Path)), nil)
	}
}

// bodies recycles request body buffers; small ones only, so that one huge
// request does not pin its memory.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBody = 64 << 10

// read decodes the GraphQL request of r, or returns the error response.
func (h *handler) read(w http.ResponseWriter, r *http.Request) (*Request, *Response) {
	req := new(Request)
	switch r.Method {
	case http.MethodPost:
		if !isJSON(r.Header.Get("Content-Type")) {
			return nil, ErrorResponse(http.StatusUnsupportedMediaType,
				fmt.Sprintf("unsupported Content-Type %q: POST a JSON body with Content-Type: application/json", r.Header.Get("Content-Type")))
		}
		if fail := h.decodeBody(w, r, req); fail != nil {
			return nil, fail
		}
	case http.MethodGet:
		q := r.URL.Query()
		req.Query, req.OperationName = q.Get("query"), q.Get("operationName")
		req.ReadOnly = true
		if v := q.Get("variables"); v != "" {
			if err := unmarshalNumbers([]byte(v), &req.Variables); err != nil {
				return nil, ErrorResponse(http.StatusBadRequest, "malformed variables parameter: want a JSON object: "+err.Error())
			}
		}
	default:
		w.Header().Set("Allow", "GET, POST")
		return nil, ErrorResponse(http.StatusMethodNotAllowed,
			fmt.Sprintf("method %s not allowed: use POST (or GET)", r.Method))
	}
	if strings.TrimSpace(req.Query) == "" {
		return nil, ErrorResponse(http.StatusBadRequest, `missing query: send {"query": "...", "variables": {...}}`)
	}
	return req, nil
}

func (h *handler) decodeBody(w http.ResponseWriter, r *http.Request, req *Request) *Response {
	limit := h.o.MaxRequestBytes
	if limit > 0 && r.ContentLength > limit {
		return tooLargeRequest(r.ContentLength, limit)
	}
	buf := bodies.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBody {
			buf.Reset()
			bodies.Put(buf)
		}
	}()
	if r.ContentLength > 0 && limit > 0 { // at most limit: checked above
		buf.Grow(int(r.ContentLength))
	}
	body := r.Body
	if limit > 0 {
		body = http.MaxBytesReader(w, r.Body, limit)
	}
	if _, err := buf.ReadFrom(body); err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			return tooLargeRequest(-1, limit)
		}
		return ErrorResponse(http.StatusBadRequest, "cannot read the request body: "+err.Error())
	}
	if err := unmarshalNumbers(buf.Bytes(), req); err != nil {
		msg := "malformed request body: want a JSON object {\"query\", \"variables\", \"operationName\"}: " + err.Error()
		if b := bytes.TrimSpace(buf.Bytes()); len(b) > 0 && b[0] == '[' {
			msg = "batched requests (a JSON array) are not supported: send one JSON object {\"query\", \"variables\", \"operationName\"}"
		}
		return ErrorResponse(http.StatusBadRequest, msg)
	}
	return nil
}

// unmarshalNumbers decodes JSON keeping numbers as json.Number: as float64
// they would lose integers above 2^53 and fail Int and ID coercion in the
// executors (gqlgen's own transport decodes the same way). Trailing data is an
// error, as with json.Unmarshal.
func unmarshalNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

func tooLargeRequest(size, limit int64) *Response {
	if size < 0 {
		return ErrorResponse(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("request body too large: over the limit of %d bytes", limit))
	}
	return ErrorResponse(http.StatusRequestEntityTooLarge,
		fmt.Sprintf("request body too large: %d bytes, over the limit of %d bytes", size, limit))
}

// isJSON says whether a Content-Type is application/json, parameters aside.
func isJSON(ct string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.EqualFold(strings.TrimSpace(ct), "application/json")
}

// traced is what --trace adds to a request, in one allocation (with the
// context that carries its trace, see trace.WithStats): the request's
// trace, the clock readings (trace.Now) that split its time in the
// handler, and the Server-Timing header's value.
type traced struct {
	stats trace.Stats
	// arrived: the request reached the handler; read: it was read and
	// decoded; executed: Execute's answer was back in the handler, the
	// response's encoding starts (one reading for both).
	arrived, read, executed time.Duration
	elapsed                 time.Duration // Execute's time
	header                  [1]string     // the Server-Timing header's values
	// buf holds the header's value: the string in header points into it,
	// so it is never written again once the header is set.
	buf [192]byte
}

// timing is extensions.timing (see Handler), and what the Server-Timing
// header adds: how long reading the request took, and the time between
// reading it and encoding the answer that Execute did not take: the
// timeout's set-up, the hand-off to the executor's goroutine and back.
type timing struct {
	TotalNS       int64 `json:"total_ns"`
	ParseNS       int64 `json:"parse_ns"`
	ValidateNS    int64 `json:"validate_ns"`
	ExecuteNS     int64 `json:"execute_ns"`
	DatabaseNS    int64 `json:"database_ns"`     // wall time with a statement running
	DatabaseSumNS int64 `json:"database_sum_ns"` // the statements' times added up
	GraphQLNS     int64 `json:"graphql_ns"`
	SQLStatements int64 `json:"sql_statements"`
	// RemoteNS and RemoteCalls are the calls to the remote service of the
	// remote custom fields (trace.Remote): the wall time with one running,
	// part of the GraphQL layer as in seed 002, and their number; written
	// only when there were some.
	RemoteNS    int64 `json:"remote_ns,omitempty"`
	RemoteCalls int64 `json:"remote_calls,omitempty"`

	read, dispatch time.Duration
}

// timing is tr's extensions.timing, its request having been executed.
func (tr *traced) timing() timing {
	s := tr.stats.Totals()
	total := tr.elapsed
	return timing{
		TotalNS:       int64(total),
		ParseNS:       int64(s.Parse),
		ValidateNS:    int64(s.Validate),
		ExecuteNS:     int64(max(total-s.Parse-s.Validate, 0)),
		DatabaseNS:    int64(s.DBTime),
		DatabaseSumNS: int64(s.DBTimeSum),
		GraphQLNS:     int64(max(total-s.DBTime, 0)), // 0 only if a statement outlived Execute
		SQLStatements: s.Statements,
		RemoteNS:      int64(s.RemoteTime),
		RemoteCalls:   s.RemoteCalls,
		read:          tr.read - tr.arrived,
		dispatch:      max(tr.executed-tr.read-total, 0),
	}
}

// appendJSON appends t's JSON object to b: it is on every traced
// response's path, so without reflection, its integers formatted by
// trace.AppendUint.
func (t *timing) appendJSON(b []byte) []byte {
	b = trace.AppendUint(append(b, `{"total_ns":`...), t.TotalNS)
	b = trace.AppendUint(append(b, `,"parse_ns":`...), t.ParseNS)
	b = trace.AppendUint(append(b, `,"validate_ns":`...), t.ValidateNS)
	b = trace.AppendUint(append(b, `,"execute_ns":`...), t.ExecuteNS)
	b = trace.AppendUint(append(b, `,"database_ns":`...), t.DatabaseNS)
	b = trace.AppendUint(append(b, `,"database_sum_ns":`...), t.DatabaseSumNS)
	b = trace.AppendUint(append(b, `,"graphql_ns":`...), t.GraphQLNS)
	b = trace.AppendUint(append(b, `,"sql_statements":`...), t.SQLStatements)
	if t.RemoteCalls != 0 {
		b = trace.AppendUint(append(b, `,"remote_ns":`...), t.RemoteNS)
		b = trace.AppendUint(append(b, `,"remote_calls":`...), t.RemoteCalls)
	}
	return append(b, '}')
}

// serverTiming sets the Server-Timing header (see Handler) in hdr, t being
// tr's timing, the response having been encoded: the header's value is
// written in tr.buf, which it keeps (the header is written after the
// handler returns).
func (tr *traced) serverTiming(hdr http.Header, t *timing) {
	now := trace.Now()
	b := tr.buf[:0]
	b = trace.AppendMillis(append(b, "read;dur="...), t.read, 3)
	b = trace.AppendMillis(append(b, ", parse;dur="...), time.Duration(t.ParseNS), 3)
	b = trace.AppendMillis(append(b, ", validate;dur="...), time.Duration(t.ValidateNS), 3)
	b = trace.AppendMillis(append(b, ", execute;dur="...), time.Duration(t.ExecuteNS), 3)
	b = trace.AppendMillis(append(b, ", db;dur="...), time.Duration(t.DatabaseNS), 3)
	b = trace.AppendMillis(append(b, ", db-sum;dur="...), time.Duration(t.DatabaseSumNS), 3)
	b = trace.AppendUint(append(b, ", sql;count="...), t.SQLStatements)
	if t.RemoteCalls > 0 {
		b = trace.AppendMillis(append(b, ", remote;dur="...), time.Duration(t.RemoteNS), 3)
		b = trace.AppendUint(append(b, ", remote-calls;count="...), t.RemoteCalls)
	}
	b = trace.AppendMillis(append(b, ", dispatch;dur="...), t.dispatch, 3)
	b = trace.AppendMillis(append(b, ", write;dur="...), now-tr.executed, 3)
	b = trace.AppendMillis(append(b, ", total;dur="...), now-tr.arrived, 3)
	// b is tr.buf's (or, past its size, a fresh array's) and nothing
	// writes to it again: the string may share its bytes, as
	// strings.Builder's does.
	tr.header[0] = unsafe.String(unsafe.SliceData(b), len(b))
	hdr["Server-Timing"] = tr.header[:]
}

type limitKey struct{}

// ResponseLimit is the response size limit of the request with context ctx
// (0: none). An executor that builds a large answer can compare its size so
// far with it and give up early with ResponseTooLarge, before the memory is
// spent; Handler checks the final size anyway.
func ResponseLimit(ctx context.Context) int64 {
	n, _ := ctx.Value(limitKey{}).(int64)
	return n
}

type result struct {
	resp    *Response
	elapsed time.Duration
}

// execute runs the request under the timeout and returns the response and,
// when tr is not nil (Trace), tr with the request's trace and Execute's
// time; nil for an answer that Execute did not give (timed out,
// cancelled).
func (h *handler) execute(parent context.Context, req *Request, tr *traced) (*Response, *traced) {
	ctx := parent
	if tr != nil {
		ctx = trace.WithStats(ctx, &tr.stats)
	}
	if h.o.MaxResponseBytes > 0 {
		ctx = context.WithValue(ctx, limitKey{}, h.o.MaxResponseBytes)
	}
	if h.inline {
		start := time.Now()
		resp := h.call(ctx, req)
		return resp, tr.executedIn(time.Since(start))
	}
	if h.slots != nil {
		// The wait for a slot is no part of the execution Timeout bounds:
		// an overloaded server answers late, as a REST server does, rather
		// than turning its queue into errors. A client that goes away
		// leaves the queue.
		select {
		case h.slots <- struct{}{}:
		case <-parent.Done():
			return ErrorResponse(http.StatusServiceUnavailable, "request cancelled: "+context.Cause(parent).Error()), nil
		}
	}
	cancel := context.CancelFunc(func() {})
	if h.o.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, h.o.Timeout)
	}
	defer cancel()
	// Execute runs on its own goroutine so that an executor that does not
	// honour ctx cannot hang the request: only this goroutine writes the
	// response, once, and a late result goes into the buffered channel.
	// The slot is given back when Execute returns, late or not: what it
	// holds is held until then.
	done := make(chan result, 1)
	go func() {
		if h.slots != nil {
			defer func() { <-h.slots }()
		}
		start := time.Now()
		resp := h.call(ctx, req)
		done <- result{resp, time.Since(start)}
	}()
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		if parent.Err() != nil { // the client went away; nobody reads this
			return ErrorResponse(http.StatusServiceUnavailable, "request cancelled: "+context.Cause(parent).Error()), nil
		}
		select {
		case res = <-done: // finished just in time after all
		default:
			return h.timedOut(), nil
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && len(res.resp.Errors) > 0 {
		return h.timedOut(), nil // it gave up because of the deadline
	}
	return res.resp, tr.executedIn(res.elapsed)
}

// executedIn records that Execute took d and returns tr (nil: nil).
func (tr *traced) executedIn(d time.Duration) *traced {
	if tr != nil {
		tr.elapsed = d
	}
	return tr
}

func (h *handler) timedOut() *Response {
	return ErrorResponse(http.StatusGatewayTimeout, fmt.Sprintf("request timed out after %v", h.o.Timeout))
}

// call runs Execute, turning a panic or a nil response into a 500.
func (h *handler) call(ctx context.Context, req *Request) (resp *Response) {
	defer func() {
		if p := recover(); p != nil {
			if h.o.Log != nil {
				fmt.Fprintf(h.o.Log, "server: executor panic: %v\n%s", p, debug.Stack())
			}
			resp = ErrorResponse(http.StatusInternalServerError, fmt.Sprintf("internal server error: the executor panicked: %v", p))
		}
	}()
	resp = h.e.Execute(ctx, req)
	if resp == nil {
		resp = ErrorResponse(http.StatusInternalServerError, "internal server error: the executor returned no response")
	}
	return resp
}

func (h *handler) healthz(w http.ResponseWriter, r *http.Request) {
	healthz(w, r, h.e, h.o)
}

// healthz answers /healthz for a variant: 200 "ok", or 503 when x is a
// Pinger whose Ping fails; the Gqlbench-Variant header names the variant.
func healthz(w http.ResponseWriter, r *http.Request, x any, o HTTPOptions) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: use GET", http.StatusMethodNotAllowed)
		return
	}
	if o.Variant != "" {
		w.Header().Set("Gqlbench-Variant", o.Variant)
	}
	if p, ok := x.(Pinger); ok {
		ctx := r.Context()
		if o.Timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, o.Timeout)
			defer cancel()
		}
		if err := p.Ping(ctx); err != nil {
			http.Error(w, "unhealthy: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok")
}

// Streamer is implemented by executors that serve subscriptions (the
// resolver-based variants): Handler hands them every request for a stream
// (IsStream) on /graphql, without its request timeout, since a stream lives
// as long as its client keeps it.
type Streamer interface {
	ServeStream(w http.ResponseWriter, r *http.Request)
}

// IsStream says whether r asks for a subscription stream: a websocket
// upgrade (graphql-transport-ws), or a POST that accepts
// text/event-stream (GraphQL over Server-Sent Events).
func IsStream(r *http.Request) bool {
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return true
	}
	return r.Method == http.MethodPost && strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// stream serves a stream request, or says that the variant has none.
func (h *handler) stream(w http.ResponseWriter, r *http.Request) {
	if st, ok := h.e.(Streamer); ok {
		st.ServeStream(w, r)
		return
	}
	h.write(w, r, ErrorResponse(http.StatusNotImplemented,
		"this server serves no subscriptions (no websocket, no text/event-stream): the resolver-based variants do (naive, memo, batch, batch-memo)"), nil)
}
