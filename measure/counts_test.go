package measure

import (
	"math/rand/v2"
	"testing"
)

// randomShape returns the values of a random shape: a few values to
// many, narrow to the whole range.
func randomShape(r *rand.Rand) []int64 {
	var vs []int64
	scale := float64(r.Int64N(1e9) + 1)
	for range r.IntN(5000) + 1 {
		vs = append(vs, min(int64(r.ExpFloat64()*scale), HistHighest))
	}
	return vs
}

// TestHistQuantilesAreHDRs: a Hist's ValueAtQuantile is hdrhistogram-go's
// for every shape and quantile, the range's ends and huge counts
// included.
func TestHistQuantilesAreHDRs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	shapes := [][]int64{{0}, {1}, {HistHighest}, {0, HistHighest}, {2047, 2048, 2049}, {1 << 40}}
	for range 100 {
		shapes = append(shapes, randomShape(r))
	}
	qs := []float64{-1, 0, 1e-9, 0.1, 1, 25, 50, 90, 99, 99.9, 99.999, 100, 150}
	for i, vs := range shapes {
		want := NewHist()
		for _, v := range vs {
			_ = want.RecordValue(v)
		}
		if i == 5 { // a huge count
			_ = want.RecordValues(12345, 1<<50)
		}
		got := HistOf(want)
		if got.TotalCount() != want.TotalCount() {
			t.Fatalf("shape %d: %d values, want %d", i, got.TotalCount(), want.TotalCount())
		}
		for _, q := range qs {
			if g, w := got.ValueAtQuantile(q), want.ValueAtQuantile(q); g != w {
				t.Fatalf("shape %d: p%v = %d, hdrhistogram-go's %d", i, q, g, w)
			}
		}
	}
	if v := HistOf(nil).ValueAtQuantile(99); v != 0 || NewHist().ValueAtQuantile(99) != 0 {
		t.Errorf("an empty Hist's p99 is %d, want 0 as hdrhistogram-go's", v)
	}
}

// TestHistResetAddCopy: a reset Hist holds only what is added after (its
// span too), AddHist adds exactly, and Histogram is a copy.
func TestHistResetAddCopy(t *testing.T) {
	a := HistOf(nil)
	a.add(countsIndex(5), 3)
	a.add(countsIndex(HistHighest), 1)
	a.reset()
	if counts, lo := a.Counts(); counts != nil || lo != 0 || a.TotalCount() != 0 {
		t.Fatalf("reset: %d counts from %d, %d values", len(counts), lo, a.TotalCount())
	}
	a.add(countsIndex(1000), 2)
	a.add(countsIndex(2e6), 1)
	if counts, lo := a.Counts(); lo != countsIndex(1000) || len(counts) != countsIndex(2e6)-lo+1 || a.TotalCount() != 3 {
		t.Fatalf("after reset: %d counts from %d, %d values", len(counts), lo, a.TotalCount())
	}
	b := HistOf(nil)
	b.add(countsIndex(7), 4)
	b.add(countsIndex(HistHighest), 5)
	var sum *Hist
	AddHist(&sum, nil)
	AddHist(&sum, HistOf(nil))
	if sum != nil {
		t.Fatal("adding nothing allocated a Hist")
	}
	AddHist(&sum, a)
	AddHist(&sum, b)
	want := a.Histogram()
	want.Merge(b.Histogram())
	if h := sum.Histogram(); !h.Equals(want) || sum.TotalCount() != 12 {
		t.Errorf("AddHist: %d values, want %d", sum.TotalCount(), want.TotalCount())
	}
	if counts, lo := sum.Counts(); lo != countsIndex(7) || len(counts) != countsIndex(HistHighest)+1-lo {
		t.Errorf("AddHist: counts from %d to %d", lo, lo+len(counts))
	}
	h := sum.Histogram()
	_ = h.RecordValues(3, 100)
	if sum.TotalCount() != 12 || sum.counts[countsIndex(3)] != 0 {
		t.Error("recording into Histogram's histogram changed the Hist")
	}
}
