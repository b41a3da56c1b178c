package measure

import (
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Hist is a histogram of gqlbench's configuration as the recorder drains
// it: HdrHistogram's counts array (index i counts the values ValueAt(i) to
// ValueAt(i)+RangeAt(i)−1) and the span of indexes that may hold counts.
// An interval's histograms are read from it directly — encoded for the run
// file, added into the summary, a quantile found for the progress line —
// each in one pass over that span: hdrhistogram-go's Histogram works every
// index's values out anew in each of its methods, and its Merge walks all
// 33,792 indexes so (a few million instructions a histogram, an interval).
// Histogram converts it for the rest.
type Hist struct {
	counts []int64 // countsLen of them
	lo, hi int     // every count outside [lo, hi) is zero
	total  int64
}

func newHistCounts() *Hist { return &Hist{counts: make([]int64, countsLen), lo: countsLen} }

// HistOf returns a Hist of the counts of h (of gqlbench's configuration),
// empty for nil.
func HistOf(h *hdrhistogram.Histogram) *Hist {
	d := newHistCounts()
	if h != nil {
		for i, n := range h.Export().Counts {
			if n != 0 {
				d.add(i, n)
			}
		}
	}
	return d
}

// add counts n more at index i.
func (h *Hist) add(i int, n int64) {
	h.counts[i] += n
	h.total += n
	h.lo, h.hi = min(h.lo, i), max(h.hi, i+1)
}

// TotalCount returns the number of values counted.
func (h *Hist) TotalCount() int64 { return h.total }

// Counts returns the counts from index lo on: every count before lo and
// after those returned is zero. They are h's own: read, never write them.
func (h *Hist) Counts() (counts []int64, lo int) {
	if h.lo >= h.hi {
		return nil, 0
	}
	return h.counts[h.lo:h.hi], h.lo
}

// ValueAtQuantile returns hdrhistogram-go's ValueAtQuantile(q) of the same
// counts (q in [0, 100]): the highest value equivalent to the one at which
// the running count reaches q % of the total, rounded; 0 when that count
// is 0.
func (h *Hist) ValueAtQuantile(q float64) int64 {
	at := int64(math.Min(q, 100)/100*float64(h.total) + 0.5)
	if at <= 0 {
		return 0
	}
	var seen int64
	for i := h.lo; i < h.hi; i++ {
		if seen += h.counts[i]; seen >= at {
			return valueAt(i) + RangeAt(i) - 1
		}
	}
	return 0 // not reached: the counts add up to total ≥ at
}

// Histogram returns hdrhistogram-go's Histogram of a copy of the counts
// (it allocates two counts arrays, 540 KB: for SLO checks and tests, not
// for every interval).
func (h *Hist) Histogram() *hdrhistogram.Histogram {
	c := make([]int64, countsLen)
	copy(c[h.lo:], h.counts[h.lo:max(h.lo, h.hi)])
	return hdrhistogram.Import(&hdrhistogram.Snapshot{
		LowestTrackableValue:  HistLowest,
		HighestTrackableValue: HistHighest,
		SignificantFigures:    HistDigits,
		Counts:                c,
	})
}

// reset empties h, keeping its memory.
func (h *Hist) reset() {
	if h.lo < h.hi {
		clear(h.counts[h.lo:h.hi])
	}
	h.lo, h.hi, h.total = countsLen, 0, 0
}

// AddHist adds the counts of src (nil: none) into *dst, allocating *dst on
// first use.
func AddHist(dst **Hist, src *Hist) {
	if src == nil || src.total == 0 {
		return
	}
	if *dst == nil {
		*dst = newHistCounts()
	}
	d := *dst
	for j, n := range src.counts[src.lo:src.hi] {
		d.counts[src.lo+j] += n
	}
	d.total += src.total
	d.lo, d.hi = min(d.lo, src.lo), max(d.hi, src.hi)
}
