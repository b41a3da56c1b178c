package drive

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
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

// TestIntervalSummaryIsTheFiles: the summary a run adds up from its
// intervals' histograms in memory is the one the run file's encodings add
// up to when read back, to the last bit, per template and in total.
func TestIntervalSummaryIsTheFiles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(0)
		srv.latency = func(i int, _ time.Duration) time.Duration {
			return time.Duration(40e3 * math.Exp(float64(i*7919%1000)/1000*math.Log(3e6/40e3)))
		}
		r := runLoad(t, t.Context(), Config{Mode: Open, Transport: srv, Requests: requests(7, "QT1", "QT2"), Interval: 500 * time.Millisecond,
			Settings: OpenSettings{Repeat: Repeat{Duration: 3 * time.Second}, Arrivals: Arrivals{Connections: 8, Rate: 1000}}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		again, err := runfile.Summarize(r.file)
		if err != nil {
			t.Fatal(err)
		}
		if r.sum.Total.Count != 3000 || r.sum.Total.Latency == nil || len(r.sum.Templates) != 2 {
			t.Fatalf("summary %+v", r.sum.Total)
		}
		if !reflect.DeepEqual(again.Total, r.sum.Total) || !reflect.DeepEqual(again.Templates, r.sum.Templates) {
			t.Errorf("the run's summary differs from its file's:\n run  %+v\n file %+v", r.sum.Total, again.Total)
		}
	})
}

// TestIntervalHistsAllocate: one interval of 13,000 requests — recorded,
// drained, its three histograms encoded and summed up — allocates its
// line and the encodings' strings, nothing per histogram index, and
// decodes nothing.
func TestIntervalHistsAllocate(t *testing.T) {
	c := measure.NewCollector(measure.Options{Templates: 1, Corrected: true, Shards: 2})
	recs := []*measure.Recorder{c.NewRecorder(), c.NewRecorder()}
	snap := c.NewSnapshot()
	s := runfile.NewSummarizer()
	r := rand.New(rand.NewPCG(3, 4))
	i := 0
	n := testing.AllocsPerRun(20, func() {
		for _, rec := range recs {
			recordSpread(rec, r, 6500)
		}
		snap.Reset()
		c.Collect(snap)
		ti, err := templateInterval(&snap.T[0])
		if err != nil || ti.Latency == "" {
			t.Fatalf("%v, latency %q", err, ti.Latency)
		}
		i++
		if err := s.Add(&runfile.Interval{Run: 1, Index: i, Templates: map[string]*runfile.TemplateInterval{"Q": ti}}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%v allocations an interval", n)
	// the line, its map, three strings
	if n > 8 {
		t.Errorf("an interval allocates %v times, want at most 8", n)
	}
}

// TestRampStopsAtObjective: a ramp whose server slows down with the
// users stops at the interval whose QET breaks the objective, with the
// p99 of all its templates' histograms added up.
func TestRampStopsAtObjective(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(0)
		srv.latency = func(int, time.Duration) time.Duration {
			srv.mu.Lock()
			defer srv.mu.Unlock()
			return time.Duration(srv.inflight) * time.Millisecond
		}
		slo, err := measure.ParseSLO("p99<10ms")
		if err != nil {
			t.Fatal(err)
		}
		r := runLoad(t, t.Context(), Config{Mode: Ramp, Transport: srv, Requests: requests(3, "QT1", "QT2"), SLO: slo,
			Settings: RampSettings{Duration: 30 * time.Second, RampRate: 20}, Interval: 250 * time.Millisecond})
		if r.err != nil {
			t.Fatal(r.err)
		}
		rp := r.sum.Ramp
		t.Logf("ramp %+v", rp)
		if rp == nil || !strings.Contains(rp.Stop, "objective p99<10ms broken") || rp.MaxUsers < 8 || rp.MaxUsers > 20 {
			t.Fatalf("ramp %+v", rp)
		}
	})
}
