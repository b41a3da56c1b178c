package remoteapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server"
)

func newService(t *testing.T, o Options) (*Service, *Client) {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(server.API(s, server.HTTPOptions{Variant: "remote-api"}))
	t.Cleanup(ts.Close)
	c, err := NewClient(server.Remote{URL: ts.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return s, c
}

// TestValue: the answers are pure functions of (seed, field, nr), in range,
// and differ across seeds and fields.
func TestValue(t *testing.T) {
	diffSeed, diffField := 0, 0
	for nr := int64(0); nr < 1000; nr++ {
		for _, f := range Fields {
			v := Value(1, f, nr)
			if v != Value(1, f, nr) {
				t.Fatal("not deterministic")
			}
			lo, hi := int64(0), int64(499)
			switch f {
			case Ranking:
				lo, hi = 1, 1000
			case HIndex:
				hi = 59
			}
			if v < lo || v > hi {
				t.Errorf("%v of %d = %d, out of [%d, %d]", f, nr, v, lo, hi)
			}
			if v != Value(2, f, nr) {
				diffSeed++
			}
		}
		if Value(1, CitationCount, nr) != Value(1, HIndex, nr) {
			diffField++
		}
	}
	if diffSeed < 2500 || diffField < 900 {
		t.Errorf("values barely depend on the seed (%d of 3000 differ) or the field (%d of 1000)", diffSeed, diffField)
	}
}

// TestSingleAndBatch: one call per One, one per Many whatever its keys,
// counted per field, with the values of Value.
func TestSingleAndBatch(t *testing.T) {
	s, c := newService(t, Options{Seed: 7})
	ctx := context.Background()
	v, err := c.One(ctx, Ranking, 42)
	if err != nil || v != Value(7, Ranking, 42) {
		t.Fatalf("One = %d, %v; want %d", v, err, Value(7, Ranking, 42))
	}
	nrs := []int64{5, 3, 5, 100000000001}
	vs, err := c.Many(ctx, CitationCount, nrs)
	if err != nil {
		t.Fatal(err)
	}
	for i, nr := range nrs {
		if vs[i] != Value(7, CitationCount, nr) {
			t.Errorf("Many[%d] = %d, want %d", i, vs[i], Value(7, CitationCount, nr))
		}
	}
	st, err := c.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Single != 1 || st.Batch != 1 || st.Keys != 5 || st.Fields["ranking"].Single != 1 || st.Fields["citationCount"].Keys != 4 {
		t.Errorf("stats %+v", st)
	}
	if st2 := s.Stats(); st2.Sub(st).Calls() != 0 {
		t.Errorf("reading the stats is a call: %+v", st2.Sub(st))
	}
}

// TestFailure: a failing service is an error of the call, never a hang;
// it can start failing mid-run.
func TestFailure(t *testing.T) {
	s, c := newService(t, Options{Seed: 1})
	ctx := context.Background()
	if _, err := c.One(ctx, HIndex, 1); err != nil {
		t.Fatal(err)
	}
	s.SetFailureRate(1)
	if _, err := c.One(ctx, HIndex, 1); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("One on a failing service: %v", err)
	}
	if _, err := c.Many(ctx, HIndex, []int64{1, 2}); err == nil {
		t.Error("Many on a failing service: no error")
	}
	if st := s.Stats(); st.Failures != 2 {
		t.Errorf("failures %d, want 2", st.Failures)
	}
}

// TestTimeout: a call slower than the client's timeout ends with an error
// that says so.
func TestTimeout(t *testing.T) {
	s, err := New(Options{Latency: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	c, _ := NewClient(server.Remote{URL: ts.URL, Timeout: 50 * time.Millisecond})
	if _, err := c.One(context.Background(), HIndex, 1); err == nil || !strings.Contains(err.Error(), "did not answer within") {
		t.Errorf("One past the timeout: %v", err)
	}
}

// TestMalformed: an answer that is not the protocol's is a MalformedError.
func TestMalformed(t *testing.T) {
	for _, body := range []string{`not json`, `{"id":"2","value":1}`, `{"values":[]}`} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		c, _ := NewClient(server.Remote{URL: ts.URL, PerCall: true})
		_, err1 := c.One(context.Background(), Ranking, 1)
		_, err2 := c.Many(context.Background(), Ranking, []int64{1})
		var m *MalformedError
		if !errors.As(err1, &m) || !errors.As(err2, &m) {
			t.Errorf("answer %q: %v, %v", body, err1, err2)
		}
		ts.Close()
	}
}

// TestCheck: an unreachable service is a clear error at once.
func TestCheck(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	c, _ := NewClient(server.Remote{URL: url})
	if err := c.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Errorf("Check of a closed port: %v", err)
	}
	if _, err := NewClient(server.Remote{URL: "localhost:1"}); err == nil {
		t.Error("a URL without scheme is accepted")
	}
}

// TestLatencyDraws: a lognormal latency is seeded (the same draws for the
// same seed) and spread; a fixed one is fixed.
func TestLatencyDraws(t *testing.T) {
	a, _ := New(Options{Latency: time.Millisecond, P99: 10 * time.Millisecond, DrawSeed: 3})
	b, _ := New(Options{Latency: time.Millisecond, P99: 10 * time.Millisecond, DrawSeed: 3})
	above := 0
	for range 1000 {
		da, _ := a.draw()
		db, _ := b.draw()
		if da != db {
			t.Fatal("the same seed draws different latencies")
		}
		if da > time.Millisecond {
			above++
		}
	}
	if above < 400 || above > 600 {
		t.Errorf("%d of 1000 draws above the median", above)
	}
	f, _ := New(Options{Latency: time.Millisecond})
	if d, failed := f.draw(); d != time.Millisecond || failed {
		t.Errorf("fixed latency: %v %v", d, failed)
	}
	if _, err := New(Options{Latency: 2 * time.Millisecond, P99: time.Millisecond}); err == nil {
		t.Error("a p99 below the median is accepted")
	}
}
