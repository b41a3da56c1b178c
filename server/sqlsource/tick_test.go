package sqlsource

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// loadAll loads keys from as many goroutines at once, as gqlgen's resolvers of
// one level do, and returns the values.
func loadAll(t *testing.T, l *tickLoader[int, int], keys []int) []int {
	t.Helper()
	out := make([]int, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() {
			v, err := l.Load(context.Background(), k)
			if err != nil {
				t.Error(err)
			}
			out[i] = v
		})
	}
	wg.Wait()
	return out
}

func TestTickLoaderBatchesALevel(t *testing.T) {
	for _, cache := range []bool{false, true} {
		var batches [][]int
		var mu sync.Mutex
		l := newTickLoader(cache, func(_ context.Context, keys []int) ([]int, []error) {
			mu.Lock()
			batches = append(batches, append([]int(nil), keys...))
			mu.Unlock()
			vals := make([]int, len(keys))
			for i, k := range keys {
				vals[i] = k * 10
			}
			return vals, nil
		})
		keys := []int{1, 2, 3, 2, 4, 5, 1}
		got := loadAll(t, l, keys)
		for i, k := range keys {
			if got[i] != k*10 {
				t.Errorf("cache=%v: key %d got %d", cache, k, got[i])
			}
		}
		fetched := 0
		for _, b := range batches {
			fetched += len(b)
		}
		// Goroutines may straggle into a second batch on a busy machine; what
		// must hold is what is fetched: duplicates only without cache.
		want := 7
		if cache {
			want = 5
		}
		if fetched != want {
			t.Errorf("cache=%v: fetched %d keys in %v, want %d", cache, fetched, batches, want)
		}
		// A later level: with cache, known keys are never fetched again.
		batches = nil
		loadAll(t, l, []int{1, 6})
		fetched = 0
		for _, b := range batches {
			fetched += len(b)
		}
		if want := map[bool]int{false: 2, true: 1}[cache]; fetched != want {
			t.Errorf("cache=%v: second level fetched %v", cache, batches)
		}
	}
}

func TestTickLoaderErrors(t *testing.T) {
	boom := errors.New("boom")
	l := newTickLoader(false, func(_ context.Context, keys []int) ([]int, []error) { return nil, []error{boom} })
	if _, err := l.Load(context.Background(), 1); !errors.Is(err, boom) {
		t.Errorf("got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	block := newTickLoader(false, func(ctx context.Context, keys []int) ([]int, []error) { <-ctx.Done(); return nil, nil })
	if _, err := block.Load(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v", err)
	}
}
