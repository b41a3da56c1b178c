package drive

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// recordSpread records n timed samples of template 0 whose QET, QRT and
// latency are spread log-uniformly from 40 µs to 3 ms.
func recordSpread(rec *measure.Recorder, r *rand.Rand, n int) {
	spread := func() time.Duration {
		return time.Duration(40e3 * math.Exp(r.Float64()*math.Log(3e6/40e3)))
	}
	for range n {
		start, qet := spread()/10, spread()
		s := measure.Sample{Outcome: measure.OK, Verified: true, Status: 200,
			Start: start, FirstByte: start + qet/2, End: start + qet, SentBytes: 100, RecvBytes: 100}
		rec.Record(&s)
	}
}

// benchInterval times one interval's histograms of one template: the
// recorder drained into a snapshot, the three histograms encoded for the
// interval line and, with sum, added into a summary.
func benchInterval(b *testing.B, sum bool) {
	c := measure.NewCollector(measure.Options{Templates: 1, Corrected: true, Shards: 2})
	recs := []*measure.Recorder{c.NewRecorder(), c.NewRecorder()}
	snap := c.NewSnapshot()
	s := runfile.NewSummarizer()
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for _, rec := range recs {
			recordSpread(rec, r, 6500)
		}
		b.StartTimer()
		snap.Reset()
		c.Collect(snap)
		ti, err := templateInterval(&snap.T[0])
		if err != nil {
			b.Fatal(err)
		}
		if ti.QET == "" || ti.QRT == "" || ti.Latency == "" {
			b.Fatal("a histogram is missing")
		}
		if sum {
			iv := &runfile.Interval{Run: 1, Index: i, StartNS: int64(i) * 1e9, EndNS: int64(i+1) * 1e9,
				Templates: map[string]*runfile.TemplateInterval{"Q": ti}}
			if err := s.Add(iv); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkIntervalHists: one interval of 13,000 requests, drained and
// encoded.
func BenchmarkIntervalHists(b *testing.B) { benchInterval(b, false) }

// BenchmarkIntervalHistsSummary: the same, and added into a summary.
func BenchmarkIntervalHistsSummary(b *testing.B) { benchInterval(b, true) }
