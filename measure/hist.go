package measure

import (
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

// NewHist returns an empty histogram of gqlbench's configuration.
func NewHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistLowest, HistHighest, HistDigits)
}

// record records v, clamped to [0, HistHighest]; it reports whether v had to
// be clamped.
func record(h *hdrhistogram.Histogram, v int64) (clamped bool) {
	switch {
	case v < 0:
		v, clamped = 0, true
	case v > HistHighest:
		v, clamped = HistHighest, true
	}
	_ = h.RecordValue(v) // in range by construction
	return clamped
}

// mergeInto adds src into *dst, allocating *dst on first use.
func mergeInto(dst **hdrhistogram.Histogram, src *hdrhistogram.Histogram) {
	if src == nil || src.TotalCount() == 0 {
		return
	}
	if *dst == nil {
		*dst = NewHist()
	}
	(*dst).Merge(src)
}

// reset empties h if it holds anything.
func reset(h *hdrhistogram.Histogram) {
	if h != nil && h.TotalCount() != 0 {
		h.Reset()
	}
}
