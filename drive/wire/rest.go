package wire

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Plans is a transport that carries out plans (queryfile.Plan: REST calls,
// or GraphQL calls for NewGraphQLPlans): one task is the calls of its plan,
// each after the call it depends on, calls that do not depend on each other at the same time on up to Parallel
// connections of the client (HTTP/1.1, gqlbench's own client) or as
// streams of one HTTP/2 connection (HTTP2: h2c for http://, through Go's
// net/http). A Conn's Do answers with one response: from the first call's
// first byte sent to the last call's last byte received, the bytes of
// every call summed, their number in Calls, their Server-Timing values
// joined in ServerTiming (a reader sums each metric over the calls), and as body
// {"data": the assembled answer}, checked as a GraphQL answer is.
type Plans struct {
	prefix   string // the base URL's path, without a trailing /
	h1       *HTTP  // HTTP/1.1: the host, timeout and headers
	h2url    string // HTTP/2: scheme://host
	h2tls    *tls.Config
	o        Options
	ua       string
	plans    [][]*planNode
	parallel int
}

// DefaultParallel is how many calls of one task a REST client makes at a
// time when not told: a browser's HTTP/1.1 connections per host.
const DefaultParallel = 6

// DefaultParallelHTTP2 is the same over HTTP/2, whose calls are streams of
// one connection: the fewest concurrent streams a server should allow
// (RFC 9113 recommends no less than 100), so multiplexing is not held to
// HTTP/1.1's six.
const DefaultParallelHTTP2 = 100

// ParallelCalls is how many calls of one plan go at a time under o.
func (o Options) ParallelCalls() int {
	switch {
	case o.Parallel > 0:
		return o.Parallel
	case o.HTTP2:
		return DefaultParallelHTTP2
	}
	return DefaultParallel
}

// NewREST returns a REST transport to the base URL base (http://HOST:PORT
// or with a path prefix) for reqs, every one of which must have a plan.
func NewREST(base string, reqs []Request, o Options) (*Plans, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("REST target %q: want http://HOST[:PORT][/PREFIX] or https://...", base)
	}
	if o.Method != "" && o.Method != "POST" || o.APQ {
		return nil, errors.New("--method and --apq are GraphQL's: a REST plan says each call's method")
	}
	r, err := newPlans(u, strings.TrimSuffix(u.EscapedPath(), "/"), o)
	if err != nil {
		return nil, err
	}
	r.plans = make([][]*planNode, len(reqs))
	for i := range reqs {
		if len(reqs[i].Plan) == 0 {
			return nil, fmt.Errorf("%s has no REST plan", reqs[i].ID)
		}
		if r.plans[i], err = compilePlan(reqs[i].Plan, reqs[i].Variables); err != nil {
			return nil, fmt.Errorf("%s: %w", reqs[i].ID, err)
		}
	}
	return r, nil
}

// NewGraphQLPlans returns a transport to the GraphQL endpoint target for reqs
// some of which are several GraphQL requests (Request.GraphQLPlan): each task
// carried out as a plan whose calls are POSTs to target, each after the
// answer it needs, with a REST plan's client (Parallel connections or
// HTTP/2 streams). A request with one query is a plan of one call whose
// data is the answer.
func NewGraphQLPlans(target string, reqs []Request, o Options) (*Plans, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("target %q: want http://HOST[:PORT]/PATH or https://...", target)
	}
	if o.Method != "" && o.Method != "POST" || o.APQ {
		return nil, errors.New("tasks in GraphQL steps are sent by POST: --method GET and --apq do not apply")
	}
	r, err := newPlans(u, u.RequestURI(), o)
	if err != nil {
		return nil, err
	}
	r.plans = make([][]*planNode, len(reqs))
	for i := range reqs {
		q := &reqs[i]
		if len(q.GraphQLPlan) == 0 {
			r.plans[i] = []*planNode{oneQuery(q)}
			continue
		}
		if r.plans[i], err = compilePlan(q.GraphQLPlan, q.Variables); err != nil {
			return nil, fmt.Errorf("%s: %w", q.ID, err)
		}
	}
	return r, nil
}

// HasGraphQLPlan says whether a request is a GraphQL plan (several GraphQL calls).
func HasGraphQLPlan(reqs []Request) bool {
	for i := range reqs {
		if len(reqs[i].GraphQLPlan) > 0 {
			return true
		}
	}
	return false
}

// newPlans returns a plan transport to u's host, its calls' paths after
// prefix.
func newPlans(u *url.URL, prefix string, o Options) (*Plans, error) {
	r := &Plans{prefix: prefix, o: o, parallel: o.ParallelCalls(), ua: o.UserAgent}
	if r.ua == "" {
		r.ua = "gqlbench"
	}
	var err error
	if o.HTTP2 {
		r.h2url, r.h2tls = u.Scheme+"://"+u.Host, o.TLS
	} else if r.h1, err = NewHTTP(u.Scheme+"://"+u.Host+"/", nil, o); err != nil {
		return nil, err
	}
	return r, nil
}

// NewConn returns a client: Parallel HTTP/1.1 connections, each made on
// its first call, or one HTTP/2 connection.
func (r *Plans) NewConn() Conn {
	c := &restConn{t: r}
	if r.h2url != "" {
		c.h2 = newH2Client(r)
		c.sem = make(chan struct{}, r.parallel)
		return c
	}
	c.slots = make(chan struct{}, r.parallel)
	for range r.parallel {
		h := &restH1{c: r.h1.NewConn().(*h1conn)}
		c.all = append(c.all, h)
	}
	// the first connection on top: a client reuses its most recent one
	c.free = slices.Clone(c.all)
	slices.Reverse(c.free)
	return c
}

// newH2Client is a net/http client that speaks HTTP/2 only: h2c with prior
// knowledge for http://, ALPN for https://.
func newH2Client(r *Plans) *http.Client {
	var p http.Protocols
	if strings.HasPrefix(r.h2url, "https:") {
		p.SetHTTP2(true)
	} else {
		p.SetUnencryptedHTTP2(true)
	}
	tr := &http.Transport{Protocols: &p, DisableCompression: true, TLSClientConfig: r.h2tls, MaxIdleConnsPerHost: 1}
	return &http.Client{Transport: tr, Timeout: r.o.Timeout}
}

// restConn is one REST client.
type restConn struct {
	t     *Plans
	all   []*restH1
	slots chan struct{} // HTTP/1.1 connections in use
	mu    sync.Mutex
	free  []*restH1 // HTTP/1.1 connections not in use, the most recently used last
	h2    *http.Client
	sem   chan struct{} // HTTP/2 calls in flight
	buf   []byte        // the assembled answer
	// timing holds the task's calls' Server-Timing values joined by ", "
	// (the task's Response.ServerTiming, valid until the next Do).
	timing []byte
}

// restH1 is one HTTP/1.1 connection of a REST client and its request buffer.
type restH1 struct {
	c    *h1conn
	wire []byte
}

// Connect makes the client's first connection ahead of its first task.
func (c *restConn) Connect() error {
	if c.h2 != nil {
		return nil
	}
	return c.all[0].c.Connect()
}

// Close closes every connection: calls in flight fail.
func (c *restConn) Close() error {
	if c.h2 != nil {
		c.h2.CloseIdleConnections()
		return nil
	}
	for _, h := range c.all {
		h.c.Close()
	}
	return nil
}

// callRun is one call of a task: the call, and when its answer is in, the
// answer and the calls that depend on each of its objects.
type callRun struct {
	node  *planNode
	path  string
	body  []byte
	skip  bool // a field the call needs is null: not made, its "as" is null
	value any
	kids  [][]*callRun // per object of value (objects), the calls that need it
}

// taskRun is one Do: the calls in flight and what they measured.
type taskRun struct {
	c      *restConn
	wg     sync.WaitGroup
	failed atomic.Bool // no more calls are started
	mu     sync.Mutex
	err    error  // a transport failure
	bad    []byte // a wrong status or an answer that does not assemble: the body to check
	status int
	start  time.Time
	first  time.Time
	end    time.Time
	sent   int64
	recv   int64
	calls  int
	conns  int // connections made inside the calls' time
	// timing is the calls' Server-Timing values, joined by ", " in the
	// order their answers came: a reader adds up each metric's repeats
	// (measure/layers), the task's phases summed over its calls.
	timing []byte
	// The calls ready to be made, and the goroutines making them: at most
	// the client's Parallel, each taking the next call when its own is
	// done, so a task of 200 calls holds 6 goroutines, not 200.
	qmu     sync.Mutex
	queue   []*callRun
	workers int
}

// Do carries out task i's plan into res.
func (c *restConn) Do(i int, res *Response) error {
	t := &taskRun{c: c, timing: c.timing[:0]}
	roots := make([]*callRun, len(c.t.plans[i]))
	for k, n := range c.t.plans[i] {
		roots[k] = &callRun{node: n}
		roots[k].path, roots[k].body, _, _ = n.fill(nil) // a root's path has no fields: compile checked it
	}
	t.workers = 1 // this goroutine
	t.launch(roots)
	t.work()
	t.wg.Wait()
	c.timing = t.timing
	*res = Response{Start: t.start, FirstByte: t.first, End: t.end, SentBytes: t.sent, RecvBytes: t.recv, Calls: t.calls, Connects: t.conns,
		ServerTiming: t.timing}
	switch {
	case t.err != nil:
		return t.err
	case t.bad != nil:
		res.Status, res.Body = t.status, t.bad
		return nil
	}
	data := map[string]any{}
	for _, r := range roots {
		if err := r.assembleInto(data); err != nil {
			res.Status, res.Body = 200, planError(err.Error())
			return nil
		}
	}
	out, err := appendJSON(append(c.buf[:0], `{"data":`...), data)
	if err != nil {
		return err
	}
	c.buf = append(out, '}')
	res.Status, res.Body = 200, c.buf
	return nil
}

// launch queues calls that do not depend on each other and starts
// goroutines for them, up to the client's Parallel at work; the one that
// calls it goes on taking calls from the queue.
func (t *taskRun) launch(calls []*callRun) {
	t.qmu.Lock()
	defer t.qmu.Unlock()
	for _, cr := range calls {
		if !cr.skip {
			t.queue = append(t.queue, cr)
		}
	}
	for extra := len(t.queue) - 1; extra > 0 && t.workers < t.c.t.parallel; extra-- {
		t.workers++
		t.wg.Add(1)
		go func() { defer t.wg.Done(); t.work() }()
	}
}

// work makes the queued calls, one after the other, until none is left.
func (t *taskRun) work() {
	for {
		t.qmu.Lock()
		if len(t.queue) == 0 {
			t.workers--
			t.qmu.Unlock()
			return
		}
		cr := t.queue[0]
		t.queue[0] = nil
		t.queue = t.queue[1:]
		t.qmu.Unlock()
		t.run(cr)
	}
}

// run makes one call and then the calls that depend on its answer.
func (t *taskRun) run(cr *callRun) {
	if t.failed.Load() {
		return
	}
	var res Response
	value, err := t.c.roundTrip(cr.node, cr.path, cr.body, &res)
	t.account(&res)
	if err != nil {
		t.fail(err, 0, nil)
		return
	}
	if res.Status != cr.node.status {
		t.fail(nil, res.Status, statusError(cr, &res))
		return
	}
	switch v := value.(type) {
	case badJSON:
		t.fail(nil, 200, planError(fmt.Sprintf("%s: the answer is not JSON: %s", cr.name(), Snippet(res.Body))))
		return
	case graphQLFailure: // checked as the task's answer: its errors are the task's
		t.fail(nil, res.Status, res.Body)
		return
	case partMissing:
		t.fail(nil, 200, planError(fmt.Sprintf("%s: no member %q in the answer", cr.node.label, string(v))))
		return
	}
	cr.value = value
	if len(cr.node.then) == 0 {
		return
	}
	objs, err := objects(value)
	if err != nil {
		t.fail(nil, 200, planError(fmt.Sprintf("%s: %v", cr.name(), err)))
		return
	}
	cr.kids = make([][]*callRun, len(objs))
	var next []*callRun
	for k, obj := range objs {
		for _, n := range cr.node.then {
			kid := &callRun{node: n}
			if kid.path, kid.body, kid.skip, err = n.fill(obj); err != nil {
				t.fail(nil, 200, planError(fmt.Sprintf("after %s: %v", cr.name(), err)))
				return
			}
			cr.kids[k] = append(cr.kids[k], kid)
			next = append(next, kid)
		}
	}
	t.launch(next)
}

// account adds one call's times and bytes to the task's.
func (t *taskRun) account(res *Response) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	t.conns += res.Connects
	t.sent += res.SentBytes
	t.recv += res.RecvBytes
	if t.start.IsZero() || res.Start.Before(t.start) {
		t.start = res.Start
	}
	if !res.FirstByte.IsZero() && (t.first.IsZero() || res.FirstByte.Before(t.first)) {
		t.first = res.FirstByte
	}
	if res.End.After(t.end) {
		t.end = res.End
	}
	if len(res.ServerTiming) > 0 {
		if len(t.timing) > 0 {
			t.timing = append(t.timing, ", "...)
		}
		t.timing = append(t.timing, res.ServerTiming...)
	}
}

// fail records the task's first failure and stops it: no call starts after.
func (t *taskRun) fail(err error, status int, body []byte) {
	t.failed.Store(true)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil && t.bad == nil {
		t.err, t.status, t.bad = err, status, body
	}
}

// planError is the body of a task whose answers do not assemble: a JSON
// object without data, so that it is a bad response, with the reason.
func planError(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"plan_error": msg})
	return b
}

// statusError is the body of a call answered with a status other than the
// plan's: the call, the status and what the server said.
func statusError(cr *callRun, res *Response) []byte {
	b, _ := json.Marshal(map[string]any{"plan_error": fmt.Sprintf("%s: HTTP %d, want %d", cr.name(), res.Status, cr.node.status),
		"body": Snippet(res.Body)})
	return b
}

// name is the call as made, for messages: "GET /rest/faculty/7", or a
// GraphQL call's document.
func (cr *callRun) name() string {
	if cr.node.graphql() {
		return cr.node.label
	}
	return cr.node.method + " " + cr.path
}

// assembleInto puts the call's assembled answer at its place in obj.
func (cr *callRun) assembleInto(obj map[string]any) error {
	n := cr.node
	switch {
	case n.merge: // a request of one query: its data is the answer
		data, ok := cr.value.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: the data is not an object", n.label)
		}
		maps.Copy(obj, data)
		return nil
	case n.as == nil: // no part of the task's answer
		return nil
	case cr.skip:
		obj[n.as[0]] = nil
		return nil
	}
	v, err := cr.assemble()
	if err != nil {
		return fmt.Errorf("%s: %w", cr.name(), err)
	}
	attach(obj, n.as, v)
	return nil
}

// assemble returns the call's answer with what it keeps and what the calls
// that depend on it put in.
func (cr *callRun) assemble() (any, error) {
	if len(cr.node.then) == 0 {
		switch v := cr.value.(type) {
		case projected:
			return v, nil
		case projectionError:
			return nil, v.error
		}
		return project(cr.value, cr.node.keep)
	}
	k := 0
	one := func(o map[string]any) (any, error) {
		p, err := project(o, cr.node.keep)
		if err != nil {
			return nil, err
		}
		out := p.(map[string]any)
		for _, kid := range cr.kids[k] {
			if err := kid.assembleInto(out); err != nil {
				return nil, err
			}
		}
		k++
		return out, nil
	}
	switch v := cr.value.(type) {
	case map[string]any:
		return one(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			if o, ok := e.(map[string]any); ok {
				var err error
				if out[i], err = one(o); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	return cr.value, nil // null: nothing depended on it
}

// roundTrip makes one call on a free connection and decodes its answer.
func (c *restConn) roundTrip(n *planNode, path string, body []byte, res *Response) (any, error) {
	path = c.t.prefix + path
	if c.h2 != nil {
		c.sem <- struct{}{}
		defer func() { <-c.sem }()
		return c.h2call(n, path, body, res)
	}
	// A connection not in use, the most recently used first (LIFO, as a
	// browser reuses its idle connections): a chain of calls one after the
	// other keeps one connection, only calls at the same time open more.
	c.slots <- struct{}{}
	c.mu.Lock()
	h := c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.free = append(c.free, h)
		c.mu.Unlock()
		<-c.slots
	}()
	var split int
	h.wire, split = c.t.wire(h.wire[:0], n.method, path, body)
	h.c.once = n.method != "GET"
	err := h.c.do(h.wire, split, res)
	if err != nil {
		return nil, err
	}
	// The body is the connection's buffer, the next call's once released.
	return n.answer(res)
}

// answer returns a call's answer: decoded (numbers kept as written), or
// kept raw when nothing is selected of it and nothing depends on it. An
// empty body (204) is null. A body that is not JSON, or whose status is
// not the plan's, is kept (copied) for the failure's message.
func (n *planNode) answer(res *Response) (any, error) {
	b := res.Body
	switch {
	case res.Status != n.status:
		res.Body = bytes.Clone(b)
		return nil, nil
	case n.graphql():
		return n.data(res)
	case len(bytes.TrimSpace(b)) == 0:
		return nil, nil
	case n.keep == nil && len(n.then) == 0 && n.from == nil:
		if !json.Valid(b) {
			res.Body = bytes.Clone(b)
			return badJSON{}, nil
		}
		return json.RawMessage(bytes.Clone(b)), nil
	}
	if len(n.then) == 0 && n.from == nil {
		// Nothing depends on it: projected as it is scanned.
		p, err := keepAnswer(b, n.keep)
		var se syntaxError
		switch {
		case errors.As(err, &se):
			res.Body = bytes.Clone(b)
			return badJSON{}, nil
		case err != nil:
			return projectionError{err}, nil
		}
		return p, nil
	}
	b = bytes.Clone(b) // the decoded answer's raw values are slices of it
	v, err := decodeShape(b, n.shape)
	if err != nil {
		res.Body = b
		return badJSON{}, nil
	}
	return n.part(v), nil
}

// data returns a GraphQL call's answer: its data (the part From names), or
// an answer with errors (or without data), kept whole for the check to
// classify.
func (n *planNode) data(res *Response) (any, error) {
	var a struct {
		Data   any             `json:"data"`
		Errors json.RawMessage `json:"errors"`
	}
	dec := json.NewDecoder(bytes.NewReader(res.Body))
	dec.UseNumber()
	err := dec.Decode(&a)
	e := bytes.TrimSpace(a.Errors)
	if err != nil || len(e) > 0 && string(e) != "null" && string(e) != "[]" || a.Data == nil {
		res.Body = bytes.Clone(res.Body)
		return graphQLFailure{}, nil
	}
	return n.part(a.Data), nil
}

// part returns the part of an answer From names (a missing member's part
// is missing: partMissing).
func (n *planNode) part(v any) any {
	for _, m := range n.from {
		o, ok := v.(map[string]any)
		if !ok {
			return partMissing(strings.Join(n.from, "."))
		}
		if v, ok = o[m]; !ok {
			return partMissing(strings.Join(n.from, "."))
		}
	}
	return v
}

// projectionError is the answer of a call projected as it was scanned
// that lacks what the plan keeps: the error assembling it reports.
type projectionError struct{ error }

// graphQLFailure is the answer of a GraphQL call with errors or without
// data: the task's answer is that call's.
type graphQLFailure struct{}

// partMissing is the answer of a call whose answer has no member From
// names.
type partMissing string

// wire appends one HTTP/1.1 request, and says where per-request header
// values go.
func (r *Plans) wire(w []byte, method, path string, body []byte) ([]byte, int) {
	w = append(append(append(w, method...), ' '), path...)
	w = append(append(append(w, " HTTP/1.1\r\nHost: "...), r.h1.host...), "\r\nUser-Agent: "...)
	w = append(append(w, r.ua...), "\r\nAccept: application/json\r\n"...)
	for _, hd := range r.h1.form.static {
		w = append(append(append(append(w, hd.name...), ": "...), hd.value...), "\r\n"...)
	}
	split := len(w)
	if body != nil {
		w = append(w, "Content-Type: application/json\r\nContent-Length: "...)
		w = strconv.AppendInt(w, int64(len(body)), 10)
		w = append(w, "\r\n"...)
	}
	return append(append(w, "\r\n"...), body...), split
}

// h2call makes one call over HTTP/2 (bodies counted as bytes: the frames
// and compressed headers are not visible through net/http).
func (c *restConn) h2call(n *planNode, path string, body []byte, res *Response) (any, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(n.method, c.t.h2url+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.t.ua)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range c.t.o.Header {
		if name, value, ok := strings.Cut(h, ":"); ok {
			req.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
	}
	res.Start = time.Now()
	resp, err := c.h2.Do(req)
	if err != nil {
		res.End = time.Now()
		return nil, err
	}
	defer resp.Body.Close()
	res.FirstByte = time.Now()
	limit := c.t.o.maxResponse()
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	res.End = time.Now()
	res.Status, res.Body, res.SentBytes, res.RecvBytes = resp.StatusCode, b, int64(len(body)), int64(len(b))
	if st := resp.Header.Values("Server-Timing"); len(st) > 0 {
		res.ServerTiming = []byte(strings.Join(st, ", "))
	}
	switch {
	case err != nil:
		return nil, err
	case len(b) > limit:
		return nil, overLimit(limit)
	}
	return n.answer(res)
}

// badJSON is the value of an answer that is not JSON.
type badJSON struct{}
