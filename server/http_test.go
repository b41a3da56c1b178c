package server

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server/trace"
)

// fake is an Executor made of a function.
type fake func(ctx context.Context, r *Request) *Response

func (f fake) Execute(ctx context.Context, r *Request) *Response { return f(ctx, r) }

// echo answers with the request it got, as data.
var echo = fake(func(_ context.Context, r *Request) *Response {
	b, _ := json.Marshal(r)
	return &Response{Data: b}
})

// fixed always answers resp.
func fixed(resp *Response) fake {
	return func(context.Context, *Request) *Response { return resp }
}

// pinger is an executor with a Ping.
type pinger struct {
	fake
	err error
}

func (p pinger) Ping(context.Context) error { return p.err }

// gqlBody is a GraphQL response as the client sees it.
type gqlBody struct {
	Data       json.RawMessage `json:"data"`
	Errors     []struct{ Message string }
	Extensions map[string]json.RawMessage
}

// do serves one request with h and decodes the GraphQL response.
func do(t *testing.T, h http.Handler, r *http.Request) (*httptest.ResponseRecorder, gqlBody) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	var b gqlBody
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/") {
		if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
			t.Fatalf("response is not JSON: %v: %q", err, rec.Body.String())
		}
		if n := rec.Header().Get("Content-Length"); n != "" && n != itoa(rec.Body.Len()) {
			t.Errorf("Content-Length %s, body %d bytes", n, rec.Body.Len())
		}
	}
	return rec, b
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func post(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// TestHandler serves each of handlerCases and checks the status, the
// Content-Type, the data, the first error and a header of the response.
func TestHandler(t *testing.T) {
	for _, c := range handlerCases {
		t.Run(c.name, c.check)
	}
}

// handlerCase is one request to a Handler and what its response must be.
type handlerCase struct {
	name    string
	exec    Executor
	opts    HTTPOptions
	req     func() *http.Request
	status  int
	data    string // expected data, when not ""
	message string // a substring of the first error's message, when not ""
	header  [2]string
}

// longText is a string over the 100-byte limits of handlerCases.
var longText = strings.Repeat("x", 200)

// handlerCases are the requests TestHandler serves: the forms of a request,
// the ways it can be malformed, and what the executor can answer.
var handlerCases = []handlerCase{
	// A POST reaches the executor with query, variables and operation name.
	{"post", echo, HTTPOptions{}, func() *http.Request {
		return post(`{"query":"query Q($a: ID){x}","variables":{"a":"1"},"operationName":"Q"}`)
	}, 200, `{"query":"query Q($a: ID){x}","operationName":"Q","variables":{"a":"1"}}`, "", [2]string{}},
	// Content-Type parameters are fine.
	{"post with charset", echo, HTTPOptions{}, func() *http.Request {
		r := post(`{"query":"{x}"}`)
		r.Header.Set("Content-Type", "application/json; charset=utf-8")
		return r
	}, 200, `{"query":"{x}"}`, "", [2]string{}},
	// A GET carries the same in its query string, variables JSON-encoded.
	{"get", echo, HTTPOptions{}, func() *http.Request {
		q := url.Values{"query": {"{x}"}, "variables": {`{"n":5}`}, "operationName": {"Op"}}
		return httptest.NewRequest(http.MethodGet, "/graphql?"+q.Encode(), nil)
	}, 200, `{"query":"{x}","operationName":"Op","variables":{"n":5}}`, "", [2]string{}},
	// / is an alias of /graphql.
	{"root path", echo, HTTPOptions{}, func() *http.Request {
		r := post(`{"query":"{x}"}`)
		r.URL.Path = "/"
		return r
	}, 200, `{"query":"{x}"}`, "", [2]string{}},
	// Other paths are 404, still as GraphQL JSON.
	{"unknown path", echo, HTTPOptions{}, func() *http.Request {
		return httptest.NewRequest(http.MethodGet, "/other", nil)
	}, 404, "", "/graphql", [2]string{}},
	// Methods other than GET and POST: 405 with Allow.
	{"put", echo, HTTPOptions{}, func() *http.Request {
		return httptest.NewRequest(http.MethodPut, "/graphql", strings.NewReader(`{"query":"{x}"}`))
	}, 405, "", "PUT", [2]string{"Allow", "GET, POST"}},
	// A body over the limit, announced by Content-Length: 413.
	{"body too large", echo, HTTPOptions{MaxRequestBytes: 100}, func() *http.Request {
		return post(`{"query":"` + longText + `"}`)
	}, 413, "", "limit of 100 bytes", [2]string{}},
	// The same without Content-Length (chunked): found while reading.
	{"body too large, chunked", echo, HTTPOptions{MaxRequestBytes: 100}, func() *http.Request {
		r := post(`{"query":"` + longText + `"}`)
		r.ContentLength = -1
		return r
	}, 413, "", "limit of 100 bytes", [2]string{}},
	// A body that is not JSON: 400.
	{"malformed JSON", echo, HTTPOptions{}, func() *http.Request { return post(`{"query":`) }, 400, "", "malformed request body", [2]string{}},
	// A JSON array (batching) is refused by name.
	{"batch", echo, HTTPOptions{}, func() *http.Request { return post(`[{"query":"{x}"}]`) }, 400, "", "batched", [2]string{}},
	// variables must be an object.
	{"variables not an object", echo, HTTPOptions{}, func() *http.Request {
		return post(`{"query":"{x}","variables":[1]}`)
	}, 400, "", "malformed request body", [2]string{}},
	// Malformed GET variables: 400.
	{"get malformed variables", echo, HTTPOptions{}, func() *http.Request {
		return httptest.NewRequest(http.MethodGet, "/graphql?query=%7Bx%7D&variables=%7B", nil)
	}, 400, "", "variables", [2]string{}},
	// No query at all: 400.
	{"missing query", echo, HTTPOptions{}, func() *http.Request { return post(`{"variables":{}}`) }, 400, "", "missing query", [2]string{}},
	// A blank query: 400.
	{"empty query", echo, HTTPOptions{}, func() *http.Request { return post(`{"query":"  "}`) }, 400, "", "missing query", [2]string{}},
	// A GET without a query: 400.
	{"get without query", echo, HTTPOptions{}, func() *http.Request {
		return httptest.NewRequest(http.MethodGet, "/graphql", nil)
	}, 400, "", "missing query", [2]string{}},
	// A POST that is not JSON: 415.
	{"wrong content type", echo, HTTPOptions{}, func() *http.Request {
		r := post(`{"query":"{x}"}`)
		r.Header.Set("Content-Type", "text/plain")
		return r
	}, 415, "", "Content-Type", [2]string{}},
	// The executor's request error (syntax, validation, ...) to a client
	// of application/json: 200 and the errors (TestContentNegotiation
	// has the 400 of application/graphql-response+json).
	{"request error", fixed(&Response{Errors: gqlerror.List{{Message: "Syntax Error"}}, RequestError: true}),
		HTTPOptions{}, func() *http.Request { return post(`{"query":"{"}`) }, 200, "", "Syntax Error", [2]string{}},
	// Field errors beside data: 200.
	{"field error", fixed(&Response{Data: json.RawMessage(`{"x":null}`), Errors: gqlerror.List{{Message: "boom"}}}),
		HTTPOptions{}, func() *http.Request { return post(`{"query":"{x}"}`) }, 200, `{"x":null}`, "boom", [2]string{}},
	// Response.Status overrides everything.
	{"status override", fixed(&Response{Errors: gqlerror.List{{Message: "database down"}}, RequestError: true, Status: 503}),
		HTTPOptions{}, func() *http.Request { return post(`{"query":"{x}"}`) }, 503, "", "database down", [2]string{}},
	// A response without data or errors is still a GraphQL response.
	{"empty response", fixed(&Response{}), HTTPOptions{}, func() *http.Request { return post(`{"query":"{x}"}`) }, 200, "null", "", [2]string{}},
	// An executor that panics: 500 and the process lives on.
	{"panic", fake(func(context.Context, *Request) *Response { panic("kaboom") }),
		HTTPOptions{}, func() *http.Request { return post(`{"query":"{x}"}`) }, 500, "", "kaboom", [2]string{}},
	// An executor that returns nil: 500.
	{"nil response", fixed(nil), HTTPOptions{}, func() *http.Request { return post(`{"query":"{x}"}`) }, 500, "", "no response", [2]string{}},
	// A response over the limit: 500 naming the size and the limit.
	{"response too large", fixed(&Response{Data: json.RawMessage(`"` + longText + `"`)}), HTTPOptions{MaxResponseBytes: 100},
		func() *http.Request { return post(`{"query":"{x}"}`) }, 500, "", "at least 211 bytes, over the server's limit of 100 bytes", [2]string{}},
	// A limit smaller than the error message itself still gets the error.
	{"tiny response limit", fixed(&Response{Data: json.RawMessage(`1`)}), HTTPOptions{MaxResponseBytes: 5},
		func() *http.Request { return post(`{"query":"{x}"}`) }, 500, "", "limit of 5 bytes", [2]string{}},
	// A response exactly at the limit passes: {"data":1} is 10 bytes.
	{"response at the limit", fixed(&Response{Data: json.RawMessage(`1`)}), HTTPOptions{MaxResponseBytes: 10},
		func() *http.Request { return post(`{"query":"{x}"}`) }, 200, "1", "", [2]string{}},
	// The executor can see the limit in its context.
	{"limit in context", fake(func(ctx context.Context, _ *Request) *Response {
		return &Response{Data: json.RawMessage(itoa(int(ResponseLimit(ctx))))}
	}), HTTPOptions{MaxResponseBytes: 1234}, func() *http.Request { return post(`{"query":"{x}"}`) }, 200, "1234", "", [2]string{}},
}

// check serves the request of c and checks the response.
func (c handlerCase) check(t *testing.T) {
	rec, b := do(t, Handler(c.exec, c.opts), c.req())
	if rec.Code != c.status {
		t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if c.data != "" && string(b.Data) != c.data {
		t.Errorf("data %s, want %s", b.Data, c.data)
	}
	if c.status != 200 && len(b.Errors) == 0 {
		t.Errorf("status %d without errors: %s", rec.Code, rec.Body)
	}
	if c.message != "" && (len(b.Errors) == 0 || !strings.Contains(b.Errors[0].Message, c.message)) {
		t.Errorf("errors %+v, want a message containing %q", b.Errors, c.message)
	}
	if c.header[0] != "" && rec.Header().Get(c.header[0]) != c.header[1] {
		t.Errorf("%s: %q, want %q", c.header[0], rec.Header().Get(c.header[0]), c.header[1])
	}
	if b.Extensions != nil || rec.Header().Get("Server-Timing") != "" {
		t.Errorf("extensions or Server-Timing without trace: %s %v", rec.Body, rec.Header())
	}
}

// TestContentNegotiation: the response's media type follows Accept, and
// decides the status of a request error: 400 under
// application/graphql-response+json, 200 under application/json (the
// GraphQL-over-HTTP spec), never with data.
func TestContentNegotiation(t *testing.T) {
	const js, gq = "application/json; charset=utf-8", "application/graphql-response+json; charset=utf-8"
	for _, c := range []struct {
		accept, want string
	}{
		{"", js},                 // no Accept: the legacy type
		{"application/json", js}, // asked for
		{"*/*", js},              // anything: the legacy type
		{"application/graphql-response+json", gq},                         // asked for
		{"application/graphql-response+json, application/json;q=0.9", gq}, // preferred
		{"application/json, application/graphql-response+json", gq},       // equal: the modern one
		{"application/json, application/graphql-response+json;q=0.5", js}, // json preferred
		{"application/graphql-response+json;q=0", js},                     // refused
		{"APPLICATION/GRAPHQL-RESPONSE+JSON; charset=utf-8", gq},          // case and parameters
		{"text/html", js}, // nothing we make: the legacy type
	} {
		for _, failing := range []bool{false, true} { // errors are negotiated the same way
			exec := fixed(&Response{Data: json.RawMessage(`{}`)})
			if failing {
				exec = fixed(&Response{Errors: gqlerror.List{{Message: "x"}}, RequestError: true})
			}
			r := post(`{"query":"{x}"}`)
			r.Header.Set("Accept", c.accept)
			rec, b := do(t, Handler(exec, HTTPOptions{}), r)
			if got := rec.Header().Get("Content-Type"); got != c.want {
				t.Errorf("Accept %q (failing %v): Content-Type %q, want %q", c.accept, failing, got, c.want)
			}
			status := http.StatusOK
			if failing && c.want == gq {
				status = http.StatusBadRequest
			}
			if rec.Code != status {
				t.Errorf("Accept %q (failing %v): status %d, want %d", c.accept, failing, rec.Code, status)
			}
			if failing && (b.Data != nil || len(b.Errors) != 1) {
				t.Errorf("Accept %q: a request error answered %s, want its error and no data", c.accept, rec.Body)
			}
		}
	}
}

// TestTimeout: an executor that outlives the timeout gets 504, whether it
// honours its context or ignores it; virtual time, so 30 s pass at once.
func TestTimeout(t *testing.T) {
	for _, c := range []struct {
		name string
		exec func(release <-chan struct{}) Executor
	}{
		// Blocks until its context is done, then reports the error.
		{"honours ctx", func(<-chan struct{}) Executor {
			return fake(func(ctx context.Context, _ *Request) *Response {
				<-ctx.Done()
				return &Response{Errors: gqlerror.List{{Message: ctx.Err().Error()}}, Status: StatusFor(ctx.Err())}
			})
		}},
		// Ignores its context: the handler must not hang anyway.
		{"ignores ctx", func(release <-chan struct{}) Executor {
			return fake(func(context.Context, *Request) *Response {
				<-release
				return &Response{Data: json.RawMessage(`{}`)}
			})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				defer close(release)
				rec, b := do(t, Handler(c.exec(release), HTTPOptions{}), post(`{"query":"{x}"}`))
				if rec.Code != http.StatusGatewayTimeout || len(b.Errors) != 1 || b.Errors[0].Message != "request timed out after 30s" {
					t.Fatalf("%d %s, want 504 and a timeout error", rec.Code, rec.Body)
				}
			})
		})
	}
}

// TestTrace: the timing extension adds up, and counts what the executor
// recorded; virtual time makes the durations exact.
func TestTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared := &Response{Data: json.RawMessage(`{}`), Extensions: map[string]any{"mine": 1}}
		exec := fake(func(ctx context.Context, _ *Request) *Response {
			time.Sleep(2 * time.Millisecond)
			trace.Phases(ctx, 500*time.Microsecond, time.Millisecond)
			for range 3 { // one after the other
				time.Sleep(time.Millisecond)
				trace.Statement(ctx, time.Millisecond)
			}
			return shared
		})
		h := Handler(exec, HTTPOptions{Trace: true})
		for range 2 { // twice: the shared response is not modified
			rec, b := do(t, h, post(`{"query":"{x}"}`))
			var got struct {
				Total, DB, GraphQL, Statements int64
			}
			var tm map[string]int64
			if err := json.Unmarshal(b.Extensions["timing"], &tm); err != nil {
				t.Fatalf("timing: %v: %s", err, rec.Body)
			}
			got.Total, got.DB, got.GraphQL, got.Statements = tm["total_ns"], tm["database_ns"], tm["graphql_ns"], tm["sql_statements"]
			want := struct{ Total, DB, GraphQL, Statements int64 }{5e6, 3e6, 2e6, 3}
			if got != want || tm["database_sum_ns"] != 3e6 || tm["parse_ns"] != 5e5 || tm["validate_ns"] != 1e6 ||
				tm["execute_ns"] != 35e5 || len(tm) != 8 {
				t.Errorf("timing %v, want %+v", tm, want)
			}
			// The same split in the header, the phases adding up to the
			// total (virtual time: reading, writing and the hand-offs take none).
			const header = "read;dur=0.000, parse;dur=0.500, validate;dur=1.000, execute;dur=3.500, db;dur=3.000, db-sum;dur=3.000, sql;count=3, dispatch;dur=0.000, write;dur=0.000, total;dur=5.000"
			if st := rec.Header().Get("Server-Timing"); st != header {
				t.Errorf("Server-Timing %q, want %q", st, header)
			}
			if string(b.Extensions["mine"]) != "1" {
				t.Errorf("the executor's own extensions are lost: %s", rec.Body)
			}
		}
		if len(shared.Extensions) != 1 {
			t.Errorf("the executor's response was modified: %v", shared.Extensions)
		}
	})
}

// TestTraceConcurrent: statements that run at the same time (a naive
// server's resolvers of one list) count once in the database time, so the
// GraphQL layer keeps its share; their sum is reported beside it.
func TestTraceConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exec := fake(func(ctx context.Context, _ *Request) *Response {
			var wg sync.WaitGroup
			for i := range 3 { // 0–1 s, 0–2 s, 0–3 s
				wg.Go(func() {
					d := time.Duration(i+1) * time.Second
					time.Sleep(d)
					trace.Statement(ctx, d)
				})
			}
			wg.Wait()
			time.Sleep(time.Second) // the GraphQL layer: 3–4 s
			for range 2 {           // 4–5 s, twice at once
				wg.Go(func() {
					time.Sleep(time.Second)
					trace.Statement(ctx, time.Second)
				})
			}
			wg.Wait()
			time.Sleep(time.Second) // 5–6 s
			return &Response{Data: json.RawMessage(`{}`)}
		})
		_, b := do(t, Handler(exec, HTTPOptions{Trace: true}), post(`{"query":"{x}"}`))
		var tm map[string]int64
		json.Unmarshal(b.Extensions["timing"], &tm)
		want := map[string]int64{"total_ns": 6e9, "parse_ns": 0, "validate_ns": 0, "execute_ns": 6e9,
			"database_ns": 4e9, "database_sum_ns": 8e9, "graphql_ns": 2e9, "sql_statements": 5}
		if !maps.Equal(tm, want) {
			t.Errorf("timing %v, want %v", tm, want)
		}
	})
}

// TestTraceFloor: a statement that outlives Execute (it cannot, but the
// times come from the executor) floors the GraphQL layer's time at 0.
func TestTraceFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exec := fake(func(ctx context.Context, _ *Request) *Response {
			trace.Statement(ctx, time.Second)
			return &Response{Data: json.RawMessage(`{}`)}
		})
		_, b := do(t, Handler(exec, HTTPOptions{Trace: true}), post(`{"query":"{x}"}`))
		var tm map[string]int64
		json.Unmarshal(b.Extensions["timing"], &tm)
		if tm["graphql_ns"] != 0 || tm["database_ns"] != 1e9 || tm["sql_statements"] != 1 {
			t.Errorf("timing %v", tm)
		}
	})
}

func TestHealthz(t *testing.T) {
	for _, c := range []struct {
		name   string
		exec   Executor
		method string
		status int
		body   string
	}{
		// No Ping: healthy.
		{"no ping", echo, http.MethodGet, 200, "ok"},
		// A Ping that succeeds.
		{"ping ok", pinger{echo, nil}, http.MethodGet, 200, "ok"},
		// A Ping that fails: 503 with its error.
		{"ping fails", pinger{echo, errors.New("dial tcp 127.0.0.1:5432: connection refused")}, http.MethodGet, 503, "connection refused"},
		// Only GET and HEAD.
		{"post", echo, http.MethodPost, 405, "method"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			Handler(c.exec, HTTPOptions{Variant: "v"}).ServeHTTP(rec, httptest.NewRequest(c.method, "/healthz", nil))
			if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.body) {
				t.Errorf("%d %q, want %d %q", rec.Code, rec.Body, c.status, c.body)
			}
			if c.status == 200 && rec.Header().Get("Gqlbench-Variant") != "v" {
				t.Errorf("Gqlbench-Variant %q", rec.Header().Get("Gqlbench-Variant"))
			}
		})
	}
}

// FuzzHandler: whatever the request — a POST body, or a GET query string
// (get) — the handler answers valid GraphQL JSON with a status from its
// policy, and never panics. testdata/fuzz/FuzzHandler holds the seed corpus.
func FuzzHandler(f *testing.F) {
	for _, s := range []string{`{"query":"{x}"}`, `{"query":"{x}","variables":{"a":[1,{"b":null}]}}`, `[]`, `null`, `{"query":1}`, ``, `{"query":"{x}"} trailing`} {
		f.Add(false, s)
	}
	f.Add(true, "query=%7Bx%7D&variables=%7B%22a%22%3A1%7D")
	h := Handler(echo, HTTPOptions{MaxRequestBytes: 4096})
	f.Fuzz(func(t *testing.T, get bool, input string) {
		r := post(input)
		if get {
			r = httptest.NewRequest(http.MethodGet, "/graphql", nil)
			r.URL.RawQuery = input
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		switch rec.Code {
		case 200, 400, 413:
		default:
			t.Fatalf("status %d for get=%v %q", rec.Code, get, input)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON %q for get=%v %q", rec.Body, get, input)
		}
	})
}

// TestVariablesKeepIntegers: numbers in variables reach the executor as
// json.Number, so Int and ID variables coerce (as float64 they fail in gqlgen).
func TestVariablesKeepIntegers(t *testing.T) {
	var got any
	h := Handler(fake(func(ctx context.Context, r *Request) *Response {
		got = r.Variables["n"]
		return &Response{Data: json.RawMessage(`{}`)}
	}), HTTPOptions{})
	for _, req := range []*http.Request{
		httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{a}","variables":{"n":9007199254740993}}`)),
		httptest.NewRequest("GET", "/graphql?query=%7Ba%7D&variables=%7B%22n%22%3A9007199254740993%7D", nil),
	} {
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if n, ok := got.(json.Number); w.Code != 200 || !ok || n.String() != "9007199254740993" {
			t.Errorf("%s: status %d, variable %#v", req.Method, w.Code, got)
		}
	}
	w := httptest.NewRecorder()
	trailing := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{a}"} {"x":1}`))
	trailing.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(w, trailing)
	if w.Code != 400 {
		t.Errorf("trailing data: status %d", w.Code)
	}
}

// TestAppendMillis: milliseconds with three decimals, rounded to the µs.
func TestAppendMillis(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0.000", 499: "0.000", 500: "0.001", 1234567: "1.235", 12 * time.Second: "12000.000",
		-5: "0.000", 999999: "1.000", 45 * time.Microsecond: "0.045"} {
		if got := string(trace.AppendMillis(nil, d, 3)); got != want {
			t.Errorf("%d ns: %s, want %s", d, got, want)
		}
	}
}

// inlineFake is a NonBlocking executor (as null is): Handler calls it on
// the request's goroutine.
type inlineFake struct{ fake }

func (inlineFake) NonBlocking() {}

// TestTraceInline: an executor called inline gets the same header, its
// phases adding up to the total.
func TestTraceInline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exec := inlineFake{fake(func(ctx context.Context, _ *Request) *Response {
			trace.Phases(ctx, time.Millisecond, time.Millisecond)
			time.Sleep(3 * time.Millisecond)
			return &Response{Data: json.RawMessage(`{}`)}
		})}
		rec, _ := do(t, Handler(exec, HTTPOptions{Trace: true}), post(`{"query":"{x}"}`))
		const want = "read;dur=0.000, parse;dur=1.000, validate;dur=1.000, execute;dur=1.000, db;dur=0.000, db-sum;dur=0.000, sql;count=0, dispatch;dur=0.000, write;dur=0.000, total;dur=3.000"
		if got := rec.Header().Get("Server-Timing"); got != want {
			t.Errorf("Server-Timing %q, want %q", got, want)
		}
	})
}

// TestTraceRemote: calls to the remote fields' service are in the header
// and in extensions.timing, within the GraphQL layer.
func TestTraceRemote(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exec := fake(func(ctx context.Context, _ *Request) *Response {
			time.Sleep(time.Millisecond)
			trace.Statement(ctx, time.Millisecond)
			for range 2 {
				time.Sleep(2 * time.Millisecond)
				trace.Remote(ctx, 2*time.Millisecond)
			}
			return &Response{Data: json.RawMessage(`{}`)}
		})
		rec, b := do(t, Handler(exec, HTTPOptions{Trace: true}), post(`{"query":"{x}"}`))
		var tm map[string]int64
		json.Unmarshal(b.Extensions["timing"], &tm)
		if tm["remote_ns"] != 4e6 || tm["remote_calls"] != 2 || tm["graphql_ns"] != 4e6 || tm["total_ns"] != 5e6 {
			t.Errorf("timing %v", tm)
		}
		const want = "read;dur=0.000, parse;dur=0.000, validate;dur=0.000, execute;dur=5.000, db;dur=1.000, db-sum;dur=1.000, sql;count=1, remote;dur=4.000, remote-calls;count=2, dispatch;dur=0.000, write;dur=0.000, total;dur=5.000"
		if got := rec.Header().Get("Server-Timing"); got != want {
			t.Errorf("Server-Timing %q, want %q", got, want)
		}
	})
}

// TestTraceEvery: with TraceEvery, about one request in N gets the
// Server-Timing header and extensions.timing, the others neither.
func TestTraceEvery(t *testing.T) {
	exec := fake(func(ctx context.Context, _ *Request) *Response {
		return &Response{Data: json.RawMessage(`{}`)}
	})
	h := Handler(exec, HTTPOptions{Trace: true, TraceEvery: 3})
	traced := 0
	for i := range 900 {
		rec, b := do(t, h, post(`{"query":"{x}"}`))
		header, ext := rec.Header().Get("Server-Timing") != "", b.Extensions["timing"] != nil
		if header != ext {
			t.Fatalf("request %d: header %v, extensions.timing %v", i, header, ext)
		}
		if header {
			traced++
		}
	}
	if traced < 300-85 || traced > 300+85 { // 6 standard deviations (14)
		t.Errorf("%d of 900 traced, want about 300", traced)
	}
}
