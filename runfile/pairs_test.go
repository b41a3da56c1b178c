package runfile

import (
	"math"
	"reflect"
	"testing"
)

// TestPairStats: the paired statistics from the sums, against values
// worked by hand: pairs (10,7), (12,8), (9,9) have differences 3, 4, 0,
// mean 7/3 and sample standard deviation √(13/3).
func TestPairStats(t *testing.T) {
	var p PairInterval
	for _, ab := range [][2]int64{{10, 7}, {12, 8}, {9, 9}} {
		d := ab[0] - ab[1]
		p.Add(&PairInterval{N: 1, ASum: ab[0], BSum: ab[1], DSum: d, DSq: float64(d * d)})
	}
	s := p.Stats()
	if s.N != 3 || s.AMean != 31.0/3 || s.BMean != 8 || math.Abs(s.DMean-7.0/3) > 1e-12 || math.Abs(s.DSD-math.Sqrt(13.0/3)) > 1e-12 {
		t.Errorf("stats %+v", s)
	}
	if z := (&PairInterval{}).Stats(); z.N != 0 || z.DSD != 0 {
		t.Errorf("no pairs: %+v", z)
	}
}

// TestPairsAndSeriesSummarizedAndMerged: the summary adds up the pairs of
// the measured intervals (the warm-up's left out) with their groups; a
// merge adds two generators' pairs and steps.
func TestPairsAndSeriesSummarizedAndMerged(t *testing.T) {
	iv := func(run int, warmup bool, n int64) *Interval {
		return &Interval{Type: TypeInterval, Run: run, Warmup: warmup, EndNS: 1e9, Templates: map[string]*TemplateInterval{},
			Pairs:  map[string]*PairInterval{"QT1": {N: n, ASum: 2 * n, BSum: n, DSum: n, DSq: float64(n), Groups: [][2]float64{{2, 1}}}},
			Series: &Series{EveryNS: 1e7, Completed: map[string][]int64{"rest": {n, 1}}, Procs: []ProcSeries{{PID: 7, CPU: []float64{50}, RSSKiB: []int64{9}}}}}
	}
	s := NewSummarizer()
	for _, x := range []*Interval{iv(1, true, 100), iv(2, false, 4), iv(2, false, 6)} {
		if err := s.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	p := s.Summary().Paired
	if p == nil || p.Total.N != 10 || p.Labels["QT1"].AMean != 2 || len(p.Total.Groups) != 2 || p.Total.DSD != 0 {
		t.Fatalf("paired %+v", p)
	}
	h := &Header{Type: TypeHeader, Format: Format, Hist: StandardHist}
	m, err := Merge([]*File{{Header: h, Intervals: []*Interval{iv(2, false, 4)}}, {Header: h, Intervals: []*Interval{iv(2, false, 6)}}})
	if err != nil {
		t.Fatal(err)
	}
	got := m.Intervals[0]
	if got.Pairs["QT1"].N != 10 || !reflect.DeepEqual(got.Series.Completed["rest"], []int64{10, 2}) || len(got.Series.Procs) != 2 {
		t.Errorf("merged pairs %+v, series %+v", got.Pairs["QT1"], got.Series)
	}
}
