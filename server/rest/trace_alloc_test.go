package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server"
)

// discard is a ResponseWriter that keeps nothing.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// TestTraceAllocs: --trace adds two allocations to a REST call (its trace
// with the Server-Timing header's bytes, and the context that carries it),
// whatever it writes.
func TestTraceAllocs(t *testing.T) {
	url, err := testDB()
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(traced bool) float64 {
		h, err := Open(context.Background(), server.Config{DB: url, Pool: 1}, server.HTTPOptions{Trace: traced})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		w := &discard{h: http.Header{}}
		r := httptest.NewRequest(http.MethodGet, "/rest/universities/3", nil)
		return testing.AllocsPerRun(200, func() {
			clear(w.h)
			h.ServeHTTP(w, r)
			if traced && !strings.Contains(w.h.Get("Server-Timing"), ", sql;count=1") {
				t.Fatalf("Server-Timing %q", w.h.Get("Server-Timing"))
			}
		})
	}
	off, on := allocs(false), allocs(true)
	if on-off > 2 {
		t.Errorf("--trace adds %.0f allocations per call (%.0f, %.0f without), want 2", on-off, on, off)
	}
}
