package server

import (
	"context"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// fanOut is an executor shaped like a resolver-based one over DataLoaders:
// each operation holds a goroutine per list element (width of them), each
// waiting for its batch (release), and answers a large response.
type fanOut struct {
	width       int
	release     chan struct{}
	executing   atomic.Int64
	most        atomic.Int64
	executions  atomic.Int64
	answerBytes int
}

func (f *fanOut) Execute(ctx context.Context, r *Request) *Response {
	n := f.executing.Add(1)
	defer f.executing.Add(-1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
	f.executions.Add(1)
	var wg sync.WaitGroup
	for range f.width {
		wg.Go(func() { <-f.release })
	}
	wg.Wait()
	return &Response{Data: []byte(`{"s":"` + strings.Repeat("x", f.answerBytes) + `"}`)}
}

func stackBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestMaxExecutingBoundsMemory: with many more requests than execution
// slots, only MaxExecuting operations execute at once (by default 16 per
// processor), the others wait holding little — a few goroutines each, not
// their operation's hundred — and every request is answered. Before the
// bound, 600 requests of an operation holding 100 goroutines held 60,000.
func TestMaxExecutingBoundsMemory(t *testing.T) {
	for _, limit := range []int{0, 8} {
		synctest.Test(t, func(t *testing.T) {
			const requests = 600
			f := &fanOut{width: 100, release: make(chan struct{}), answerBytes: 44 << 10}
			h := Handler(f, HTTPOptions{MaxExecuting: limit})
			want := limit
			if want == 0 {
				want = DefaultMaxExecuting()
			}
			goroutines, stacks := runtime.NumGoroutine(), stackBytes()
			recs := make([]*httptest.ResponseRecorder, requests)
			var wg sync.WaitGroup
			for i := range recs {
				recs[i] = httptest.NewRecorder()
				wg.Go(func() { h.ServeHTTP(recs[i], post(`{"query":"{ list { id } }"}`)) })
			}
			synctest.Wait() // every request executing or waiting, every executor waiting for its batch
			perGoroutines := float64(runtime.NumGoroutine()-goroutines) / requests
			perStack := (int64(stackBytes()) - int64(stacks)) / requests
			t.Logf("limit %d: %d executing, %.1f goroutines and %d stack bytes per request", want, f.executing.Load(), perGoroutines, perStack)
			if got := f.executing.Load(); got != int64(want) {
				t.Errorf("%d operations executing at once, want %d", got, want)
			}
			if perGoroutines > 10 {
				t.Errorf("%.1f goroutines per request in flight, want at most 10", perGoroutines)
			}
			if perStack > 100<<10 {
				t.Errorf("%d stack bytes per request in flight, want at most 100 KiB", perStack)
			}
			close(f.release)
			wg.Wait()
			for i, rec := range recs {
				if rec.Code != 200 || rec.Body.Len() < 44<<10 {
					t.Fatalf("request %d: HTTP %d, %d bytes", i, rec.Code, rec.Body.Len())
				}
			}
			if f.most.Load() != int64(want) || f.executions.Load() != requests {
				t.Errorf("%d executions, at most %d at once; want %d, %d", f.executions.Load(), f.most.Load(), requests, want)
			}
		})
	}
}

// TestMaxExecutingQueueLeaves: a request waiting for a slot whose client
// goes away leaves the queue (503, never executed); -1 is no limit.
func TestMaxExecutingQueueLeaves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fanOut{width: 1, release: make(chan struct{})}
		h := Handler(f, HTTPOptions{MaxExecuting: 1})
		first := httptest.NewRecorder()
		go h.ServeHTTP(first, post(`{"query":"{ a }"}`))
		synctest.Wait()
		ctx, cancel := context.WithCancel(context.Background())
		waiting := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { h.ServeHTTP(waiting, post(`{"query":"{ a }"}`).WithContext(ctx)); close(done) }()
		synctest.Wait()
		cancel()
		<-done
		if waiting.Code != 503 || f.executions.Load() != 1 {
			t.Errorf("a waiting request whose client left: HTTP %d, %d executions; want 503, 1", waiting.Code, f.executions.Load())
		}
		close(f.release)
		synctest.Wait()
		if first.Code != 200 {
			t.Errorf("the executing request: HTTP %d", first.Code)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		f := &fanOut{width: 1, release: make(chan struct{})}
		h := Handler(f, HTTPOptions{MaxExecuting: -1})
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() { h.ServeHTTP(httptest.NewRecorder(), post(`{"query":"{ a }"}`)) })
		}
		synctest.Wait()
		if f.executing.Load() != 50 {
			t.Errorf("no limit: %d executing, want 50", f.executing.Load())
		}
		close(f.release)
		wg.Wait()
	})
}
