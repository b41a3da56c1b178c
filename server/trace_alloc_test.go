package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server/trace"
)

// TestTraceAllocs: --trace adds two allocations to a request (its trace
// with the Server-Timing header's bytes, and the context that carries
// it), whatever it records — statements beyond the few the trace holds
// inline excepted — and whatever it writes (extensions.timing,
// Server-Timing): the garbage collector's share of the cost of emitting
// the timings is that of two small objects.
func TestTraceAllocs(t *testing.T) {
	exec := tracedFake()
	const body = `{"query":"{ university(nr: 1) { id } }"}`
	allocs := func(traced bool) float64 {
		h := Handler(exec, HTTPOptions{Trace: traced})
		w := &discard{h: http.Header{}}
		r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return testing.AllocsPerRun(200, func() {
			r.Body = readCloser{strings.NewReader(body)}
			clear(w.h)
			h.ServeHTTP(w, r)
			if w.h.Get("Content-Length") == "" {
				t.Fatal("no response")
			}
			if traced && !strings.Contains(w.h.Get("Server-Timing"), "sql;count=3, ") {
				t.Fatalf("Server-Timing %q", w.h.Get("Server-Timing"))
			}
		})
	}
	off, on := allocs(false), allocs(true)
	if on-off > 2 {
		t.Errorf("--trace adds %.0f allocations per request (%.0f, %.0f without), want 2", on-off, on, off)
	}
}

// discard is a ResponseWriter that keeps nothing, so a benchmark measures
// the handler rather than a recorder's buffers.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// readCloser is a request body that is not an allocation of its own.
type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

// tracedFake is an executor that records what a batching server's request
// does (its phases, three statements) and answers at once, over 100 bytes,
// so that Content-Length's formatting allocates with --trace or without
// (strconv has the numbers below 100 ready).
func tracedFake() fake {
	data := json.RawMessage(`{"university":{"id":"1","undergraduateDegreeObtainedBystudent":[{"id":"2"},{"id":"3"},{"id":"4"}]}}`)
	return func(ctx context.Context, _ *Request) *Response {
		trace.Phases(ctx, time.Microsecond, 2*time.Microsecond)
		for range 3 {
			trace.Statement(ctx, time.Microsecond)
		}
		return &Response{Data: data}
	}
}
