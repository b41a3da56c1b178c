package runfile

import (
	"math/rand/v2"
	"testing"

	"github.com/gqlbench/gqlbench/measure"
)

// TestDistOfCounts: the one-pass summary of a counts array is DistOf of
// the histogram with those counts to the last bit — quantiles, extremes,
// mean and standard deviation — for histograms of one value, of a few,
// spread over every magnitude, heavy-tailed, with counts that put a
// quantile on an index's last count, and for none.
func TestDistOfCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(h func(v, n int64)){
		"empty": func(func(v, n int64)) {},
		"one":   func(h func(v, n int64)) { h(1234, 1) },
		"zero":  func(h func(v, n int64)) { h(0, 3); h(1, 1) },
		"two":   func(h func(v, n int64)) { h(50_000, 1); h(3_000_000, 1) },
		"ten at each of ten": func(h func(v, n int64)) {
			for v := int64(1); v <= 10; v++ {
				h(v*1_000_000, 10)
			}
		},
		"uniform": func(h func(v, n int64)) {
			for range 5000 {
				h(r.Int64N(10_000_000), 1)
			}
		},
		"every magnitude": func(h func(v, n int64)) {
			for range 20000 {
				h(r.Int64N(1<<r.IntN(40)), 1+r.Int64N(3))
			}
		},
		"heavy tail": func(h func(v, n int64)) {
			for range 20000 {
				h(int64(40_000/(1-r.Float64()*0.9999)), 1)
			}
		},
		"large counts": func(h func(v, n int64)) {
			for range 100 {
				h(r.Int64N(1_000_000_000), r.Int64N(1_000_000))
			}
		},
	}
	for name, shape := range shapes {
		for round := range 5 {
			h := measure.NewHist()
			shape(func(v, n int64) {
				if err := h.RecordValues(v, n); err != nil {
					t.Fatal(err)
				}
			})
			counts := h.Export().Counts
			got, want := distOfCounts(counts), DistOf(histOf(counts))
			if got != want {
				t.Fatalf("%s, round %d: distOfCounts\n%+v, DistOf\n%+v", name, round, got, want)
			}
		}
	}
	if d := distOfCounts(nil); d != (Dist{}) {
		t.Fatalf("no counts: %+v", d)
	}
}
