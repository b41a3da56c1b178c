package measure

import (
	"math/bits"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The configuration of every histogram gqlbench records: values in
// nanoseconds, from 1 ns to one hour, 3 significant digits. Histograms of the
// same configuration merge exactly, which is what lets intervals, runs and
// parallel load generators be added up.
const (
	HistLowest  = 1
	HistHighest = int64(time.Hour)
	HistDigits  = 3
)

// The layout of the counts array of gqlbench's configuration, HdrHistogram's
// (hdrhistogram-go's New, countsIndexFor): with 3 digits a bucket has 2048
// sub-buckets (unit resolution up to 2·10³), the upper half of each bucket
// after the first being new; 32 buckets reach one hour. Index i counts the
// values equivalent to valueAt(i). TestCountsIndex checks all of this
// against hdrhistogram-go itself.
const (
	subBucketHalfMag = 10                                // log2 of half a bucket's sub-buckets
	subBucketHalf    = 1 << subBucketHalfMag             // 1024
	subBucketMask    = 2*subBucketHalf - 1               // values below 2048 are bucket 0
	histBuckets      = 32                                // buckets needed to reach HistHighest
	countsLen        = (histBuckets + 1) * subBucketHalf // 33,792 counts, 270 KB
	// HistCountsLen is the length of the counts array of NewHist's
	// histograms (its Export's Counts), known without making one.
	HistCountsLen = countsLen
)

// countsIndex returns the index of v's count in HdrHistogram's counts
// array, for 0 ≤ v ≤ HistHighest.
func countsIndex(v int64) int {
	b := bits.Len64(uint64(v)|subBucketMask) - (subBucketHalfMag + 1) // the bucket
	return (b+1)<<subBucketHalfMag + int(v>>b) - subBucketHalf
}

// valueAt returns the lowest value counted at index i of the counts array.
func valueAt(i int) int64 {
	if i < subBucketHalf {
		return int64(i) // bucket 0's lower half
	}
	b := i>>subBucketHalfMag - 1
	return int64(i&(subBucketHalf-1)|subBucketHalf) << b
}

// ValueAt returns the lowest value counted at index i of a histogram's
// counts array (HdrHistogram's, gqlbench's configuration), and RangeAt
// how many values index i counts: i counts ValueAt(i) to
// ValueAt(i)+RangeAt(i)−1 — what HdrHistogram calls their lowest and
// highest equivalent values, RangeAt(i) the size of their range.
func ValueAt(i int) int64 { return valueAt(i) }

// RangeAt: see ValueAt.
func RangeAt(i int) int64 {
	if i < 2*subBucketHalf {
		return 1 // bucket 0: one value an index
	}
	return 1 << (i>>subBucketHalfMag - 1)
}

// NewHist returns an empty histogram of gqlbench's configuration.
func NewHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistLowest, HistHighest, HistDigits)
}

// clamp returns v clamped to [0, HistHighest], and whether it had to be.
func clamp(v int64) (int64, bool) {
	switch {
	case v < 0:
		return 0, true
	case v > HistHighest:
		return HistHighest, true
	}
	return v, false
}
