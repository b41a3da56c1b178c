package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/trace"
	"github.com/gqlbench/gqlbench/server/write"
)

// Handler serves the REST API over one benchmark database (see the package
// documentation). It implements http.Handler, server.Pinger and io.Closer
// (closing the database).
type Handler struct {
	db    *db.DB
	store *write.Store
	o     server.HTTPOptions
	plans sync.Map // shape key → *plan
	// writes, when not nil, is told of each create once committed
	// (server.Writes: the GraphQL subscriptions beside a REST control).
	writes *server.Writes
	sample trace.Sampler // the requests traced (TraceEvery)
}

// New returns the handler of the REST API over d, with o's limits (zero
// fields: their defaults).
func New(d *db.DB, o server.HTTPOptions) *Handler {
	h := &Handler{db: d, store: write.NewStore(d), o: o.WithDefaults()}
	h.sample.Every = h.o.TraceEvery
	return h
}

// Ping checks that the database answers.
func (h *Handler) Ping(ctx context.Context) error { return h.db.Ping(ctx) }

// Close closes the database.
func (h *Handler) Close() error { return h.db.Close() }

// reply is a response, made in full before anything is written.
type reply struct {
	status   int
	body     []byte
	location string // a created resource's URL
	allow    string // 405: the methods allowed
	problem  bool   // body is a problem document
}

func problemReply(p *problem) *reply {
	title := http.StatusText(p.status)
	b := []byte(`{"type":"about:blank","title":`)
	b = appendString(b, title)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(p.status), 10)
	b = append(b, `,"detail":`...)
	b = appendString(b, p.detail)
	return &reply{status: p.status, body: append(b, '}'), problem: true}
}

// ServeHTTP serves one request: it routes it, runs it under the timeout
// and writes the reply with Server-Timing when tracing.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var tr *traced
	if h.o.Trace && h.sample.Next() {
		tr = &traced{start: trace.Now()}
		ctx = trace.WithStats(ctx, &tr.stats)
	}
	if h.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.o.Timeout)
		defer cancel()
	}
	rep := h.route(ctx, r)
	hdr := w.Header()
	if tr != nil {
		tr.serverTiming(hdr)
	}
	if rep.allow != "" {
		hdr.Set("Allow", rep.allow)
	}
	if rep.location != "" {
		hdr.Set("Location", rep.location)
	}
	if rep.status == http.StatusNoContent {
		w.WriteHeader(rep.status)
		return
	}
	if rep.problem {
		hdr["Content-Type"] = problemType
	} else {
		hdr["Content-Type"] = jsonType
	}
	hdr["Content-Length"] = []string{strconv.Itoa(len(rep.body))}
	w.WriteHeader(rep.status)
	w.Write(rep.body)
}

var (
	jsonType    = []string{"application/json; charset=utf-8"}
	problemType = []string{"application/problem+json; charset=utf-8"}
)

// traced is what --trace adds to a request, in one allocation (with the
// context that carries its trace): its trace, when it arrived
// (trace.Now), and the Server-Timing header's value.
type traced struct {
	stats  trace.Stats
	start  time.Duration
	header [1]string
	// buf holds the header's value: the string in header points into it,
	// so it is never written again once the header is set.
	buf [128]byte
}

// serverTiming sets the Server-Timing header of a traced request in hdr:
// its total time, the wall time with a statement running (db), the
// statements' times added up (db-sum), the rest (app), in milliseconds
// with nanosecond precision, and the number of SQL statements
// (sql;count=N).
func (tr *traced) serverTiming(hdr http.Header) {
	total := trace.Now() - tr.start
	s := tr.stats.Totals()
	b := trace.AppendMillis(append(tr.buf[:0], "total;dur="...), total, 6)
	b = trace.AppendMillis(append(b, ", db;dur="...), s.DBTime, 6)
	b = trace.AppendMillis(append(b, ", db-sum;dur="...), s.DBTimeSum, 6)
	b = trace.AppendMillis(append(b, ", app;dur="...), total-s.DBTime, 6)
	b = trace.AppendUint(append(b, ", sql;count="...), s.Statements)
	// b is tr.buf's (or, past its size, a fresh array's) and nothing
	// writes to it again: the string may share its bytes.
	tr.header[0] = unsafe.String(unsafe.SliceData(b), len(b))
	hdr["Server-Timing"] = tr.header[:]
}

// route finds what r asks for and answers it.
func (h *Handler) route(ctx context.Context, r *http.Request) *reply {
	path := r.URL.Path
	if path == "/rest" || path == "/rest/" {
		if rep := allow(r, "GET, HEAD"); rep != nil {
			return rep
		}
		if r.URL.RawQuery != "" {
			return problemReply(badRequest("the index takes no parameters"))
		}
		return &reply{status: http.StatusOK, body: index()}
	}
	rest, ok := strings.CutPrefix(path, "/rest/")
	if !ok {
		return problemReply(notFound("no such path %q: the REST API is served under /rest/ (GET /rest/ lists it)", clip(path)))
	}
	segs := strings.Split(rest, "/")
	c := byName[segs[0]]
	if c == nil {
		return problemReply(notFound("no collection %q: the collections are %s", clip(segs[0]), collectionNames()))
	}
	switch len(segs) {
	case 1:
		return h.collection(ctx, r, c)
	case 2:
		return h.resource(ctx, r, c, segs[1])
	case 3:
		return h.related(ctx, r, c, segs[1], segs[2])
	}
	return problemReply(notFound("no such path %q: resources are /rest/COLLECTION/ID and their lists /rest/COLLECTION/ID/LIST", clip(path)))
}

// allow answers 405 unless r's method is one of methods (HEAD goes with GET).
func allow(r *http.Request, methods string) *reply {
	for m := range strings.SplitSeq(methods, ", ") {
		if r.Method == m {
			return nil
		}
	}
	rep := problemReply(&problem{http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed here: use %s", r.Method, methods)})
	rep.allow = methods
	return rep
}

// collection serves /rest/C: the list of every row (GET) or a create (POST).
func (h *Handler) collection(ctx context.Context, r *http.Request, c *collection) *reply {
	methods := "GET, HEAD"
	if c.write != nil {
		methods += ", POST"
	}
	if rep := allow(r, methods); rep != nil {
		return rep
	}
	if r.Method == http.MethodPost {
		return h.create(ctx, r, c)
	}
	return h.get(ctx, r, shape{kind: listing, c: c}, values{})
}

// resource serves /rest/C/{nr}: GET, and PATCH and DELETE when writable.
func (h *Handler) resource(ctx context.Context, r *http.Request, c *collection, seg string) *reply {
	methods := "GET, HEAD"
	if c.write != nil {
		methods += ", PATCH, DELETE"
	}
	if rep := allow(r, methods); rep != nil {
		return rep
	}
	nr, p := parseNr(seg)
	if p != nil {
		return problemReply(p)
	}
	switch r.Method {
	case http.MethodPatch:
		return h.update(ctx, r, c, nr)
	case http.MethodDelete:
		return h.remove(ctx, r, c, nr)
	}
	return h.get(ctx, r, shape{kind: one, c: c}, values{nr: nr})
}

// related serves /rest/C/{nr}/LIST.
func (h *Handler) related(ctx context.Context, r *http.Request, c *collection, seg, name string) *reply {
	rel := c.relation(name)
	if rel == nil && !(c == universities && name == connectionName) {
		return problemReply(notFound("%s has no list %q: its lists are %s", c.typ, clip(name), c.relationNames()))
	}
	if rep := allow(r, "GET, HEAD"); rep != nil {
		return rep
	}
	nr, p := parseNr(seg)
	if p != nil {
		return problemReply(p)
	}
	if rel == nil {
		return h.connection(ctx, r, nr)
	}
	return h.get(ctx, r, shape{kind: related, c: rel.target, parent: c, rel: rel}, values{nr: nr})
}

// get answers a GET of shape s (its fields and embeds still to be read
// from the query string) with values v.
func (h *Handler) get(ctx context.Context, r *http.Request, s shape, v values) *reply {
	q, p := parseQuery(r.URL.RawQuery, s.kind != one, true)
	if p != nil {
		return problemReply(p)
	}
	if s.embeds, p = embeds(s.c, q); p != nil {
		return problemReply(p)
	}
	var must []*field
	for _, e := range s.embeds {
		if e.ref != nil {
			must = append(must, e.ref)
		}
	}
	if s.fields, p = selectFields(s.c, "fields", q.fields, must); p != nil {
		return problemReply(p)
	}
	s.paged = q.limit != nil || q.offset != nil
	v.limit, v.offset = q.limit, q.offset
	body, err := h.run(ctx, h.plan(&s), v)
	if err != nil {
		return h.failure(ctx, err)
	}
	if body == nil {
		return problemReply(notFound("there is no %s with id %d", parentType(&s), v.nr))
	}
	return &reply{status: http.StatusOK, body: body}
}

// parentType is the type whose nr a request names.
func parentType(s *shape) string {
	if s.kind == related {
		return s.parent.typ
	}
	return s.c.typ
}

// plan returns the plan of s, built on its first use.
func (h *Handler) plan(s *shape) *plan {
	key := s.key()
	if p, ok := h.plans.Load(key); ok {
		return p.(*plan)
	}
	p, _ := h.plans.LoadOrStore(key, build(s))
	return p.(*plan)
}

// key identifies a shape: what its statement depends on.
func (s *shape) key() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(s.kind)) + "/" + s.c.name + "/")
	if s.rel != nil {
		b.WriteString(s.parent.name + "." + s.rel.name)
	}
	for _, f := range s.fields {
		b.WriteString("/" + f.name)
	}
	for _, e := range s.embeds {
		b.WriteString("|" + e.name)
		for _, f := range e.fields {
			b.WriteString("/" + f.name)
		}
	}
	if s.paged {
		b.WriteString("|paged")
	}
	return b.String()
}

// run runs plan p with v and returns the representation, or nil when the
// resource (or the parent of a list) does not exist.
func (h *Handler) run(ctx context.Context, p *plan, v values) ([]byte, error) {
	var args []any
	if p.s.kind != listing {
		args = append(args, v.nr)
	}
	if p.s.paged {
		args = append(args, h.limitArg(v.limit), offsetArg(v.offset))
	}
	if p.s.kind == related {
		args = append(args, v.nr)
	}
	list := p.s.kind != one
	e := &encoder{p: p, c: newCells(p.kinds), max: h.o.MaxResponseBytes}
	if list {
		e.buf = append(e.buf, '[')
	}
	found, open, objects, items := false, false, 0, 0
	var cur int64
	err := h.db.Select(ctx, p.sql, args, func(r db.Rows) error {
		if err := e.c.scan(r); err != nil {
			return err
		}
		found = true
		if e.c.null(p.main[0]) { // a parent without children
			return nil
		}
		if nr := *e.c.ints[p.main[0]]; !open || nr != cur {
			if open {
				e.close()
			}
			if objects > 0 {
				e.buf = append(e.buf, ',')
			}
			e.open()
			open, cur, objects, items = true, nr, objects+1, 0
		}
		if p.listIdx >= 0 && e.item(items == 0) {
			items++
		}
		return e.check()
	})
	if err != nil {
		return nil, err
	}
	if !found && p.s.kind != listing {
		return nil, nil
	}
	if open {
		e.close()
	}
	if list {
		e.buf = append(e.buf, ']')
	}
	return e.buf, e.check()
}

// limitArg is the LIMIT parameter: none is NULL in PostgreSQL, -1 in SQLite.
func (h *Handler) limitArg(limit *int64) any {
	switch {
	case limit != nil:
		return *limit
	case h.db.Loc.Kind() == dbloc.Postgres:
		return nil
	}
	return int64(-1)
}

func offsetArg(offset *int64) any {
	if offset == nil {
		return int64(0)
	}
	return *offset
}

// failure is the reply to a request that failed in the database or in
// the encoder.
func (h *Handler) failure(ctx context.Context, err error) *reply {
	var we *write.Error
	switch {
	case errors.As(err, &we):
		status := map[write.ErrorKind]int{write.Invalid: http.StatusBadRequest, write.NotFound: http.StatusNotFound,
			write.ReadOnly: http.StatusForbidden}[we.Kind]
		return problemReply(&problem{status, we.Msg})
	case errors.Is(err, errTooLarge):
		return problemReply(&problem{http.StatusInternalServerError, fmt.Sprintf(
			"response too large: over the server's limit of %d bytes (--max-response-bytes); ask for less data (limit, fields)", h.o.MaxResponseBytes)})
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return problemReply(&problem{http.StatusGatewayTimeout, fmt.Sprintf("request timed out after %v", h.o.Timeout)})
	}
	status := server.StatusFor(err)
	msg := "database error: " + err.Error()
	if status == http.StatusServiceUnavailable {
		msg = "the database is unreachable: " + err.Error()
	}
	return problemReply(&problem{status, msg})
}

func collectionNames() string {
	names := make([]string, len(collections))
	for i, c := range collections {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}
