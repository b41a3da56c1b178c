package measure

import (
	"sync"
	"testing"
	"time"
)

// TestCollectWhileRecording: workers record without locks while a collector
// swaps their sets; nothing is lost or counted twice (run with -race).
func TestCollectWhileRecording(t *testing.T) {
	const workers, perWorker = 8, 20000
	c := NewCollector(Options{Templates: 3, Corrected: true, Samples: true})
	var wg sync.WaitGroup
	for w := range workers {
		r := c.NewRecorder()
		wg.Go(func() {
			for i := range perWorker {
				s := Sample{Template: int32(i % 3), Client: int32(w), Start: 10, FirstByte: 20, End: time.Duration(100 + i), Intended: 5}
				if i%10 == 0 {
					s.Outcome = ErrGraphQL
				}
				r.Record(&s)
				if i%1000 == 0 {
					r.Drop(0, 1)
				}
			}
		})
	}
	total := c.NewSnapshot()
	collectWhile(c, &wg, func(snap *Snapshot) {
		for i := range snap.T {
			total.T[i].add(&snap.T[i])
		}
		total.Samples = append(total.Samples, snap.Samples...)
	})
	got := total.Total()
	if want := int64(workers * perWorker); got.Count != want || got.OK+got.Errors != want || int64(len(total.Samples)) != want {
		t.Fatalf("count %d ok %d errors %d samples %d, want %d", got.Count, got.OK, got.Errors, len(total.Samples), want)
	}
	if got.Errors != workers*perWorker/10 || got.ErrorKinds[1] != got.Errors {
		t.Errorf("errors %d (graphql %d), want %d", got.Errors, got.ErrorKinds[1], workers*perWorker/10)
	}
	if got.Dropped != workers*perWorker/1000 {
		t.Errorf("dropped %d, want %d", got.Dropped, workers*perWorker/1000)
	}
	var n int64
	for i := range total.T {
		n += total.T[i].QET.TotalCount()
		if total.T[i].QET.TotalCount() != total.T[i].Latency.TotalCount() || total.T[i].QRT.TotalCount() != total.T[i].QET.TotalCount() {
			t.Errorf("template %d: histogram counts differ", i)
		}
	}
	if n != int64(workers*perWorker) {
		t.Errorf("histograms hold %d values, want %d", n, workers*perWorker)
	}
}

// TestRecordValues: what goes into which histogram, and clamping.
func TestRecordValues(t *testing.T) {
	c := NewCollector(Options{Templates: 1, Corrected: true})
	r := c.NewRecorder()
	r.Record(&Sample{Intended: 0, Start: 5 * time.Millisecond, FirstByte: 7 * time.Millisecond, End: 9 * time.Millisecond})
	r.Record(&Sample{Outcome: ErrTimeout, Start: 0, End: time.Minute})          // no response: counted, not in the histograms
	r.Record(&Sample{Intended: -2 * time.Hour, Start: 0, FirstByte: 1, End: 2}) // beyond the range: clamped
	s := c.NewSnapshot()
	c.Collect(s)
	st := s.T[0]
	if st.Count != 3 || st.Errors != 1 || st.ErrorKinds[3] != 1 || st.Clamped != 1 {
		t.Fatalf("counts %+v", st.Counts)
	}
	qrt, lat := st.QRT.Histogram(), st.Latency.Histogram()
	if st.QET.TotalCount() != 2 || lat.Max() < int64(time.Hour)*99/100 {
		t.Errorf("qet n=%d, latency max %d", st.QET.TotalCount(), lat.Max())
	}
	if v := st.QRT.ValueAtQuantile(100); !qrt.ValuesAreEquivalent(v, int64(2*time.Millisecond)) {
		t.Errorf("qrt max %d, want 2ms", v)
	}
	if v := st.Latency.ValueAtQuantile(50); !lat.ValuesAreEquivalent(v, int64(9*time.Millisecond)) {
		t.Errorf("latency p50 %d, want 9ms (from the intended time)", v)
	}
}

// TestRecordAllocates nothing once a template's histograms exist.
func TestRecordAllocatesNothing(t *testing.T) {
	c := NewCollector(Options{Templates: 2, Corrected: true})
	r := c.NewRecorder()
	s := Sample{Template: 1, Start: 1, FirstByte: 2, End: 3000}
	r.Record(&s)
	if n := testing.AllocsPerRun(1000, func() { r.Record(&s) }); n != 0 {
		t.Errorf("Record allocates %v times", n)
	}
	snap := c.NewSnapshot()
	c.Collect(snap)
	c.Collect(snap) // the spare set now has histograms too
	snap.Reset()
	r.Record(&s)
	if n := testing.AllocsPerRun(100, func() { r.Record(&s); c.Collect(snap); snap.Reset() }); n != 0 {
		t.Errorf("a steady-state Record+Collect allocates %v times", n)
	}
}

func BenchmarkRecord(b *testing.B) {
	c := NewCollector(Options{Templates: 1, Corrected: true})
	r := c.NewRecorder()
	s := Sample{Start: 1, FirstByte: 2, End: 123456}
	for b.Loop() {
		r.Record(&s)
	}
}

// BenchmarkRecordParallel: recorders on every P, sharing one shard or one
// shard per P (the default), recording back to back: the worst case for
// counters shared by a shard, where a real worker spends microseconds on a
// request between two records.
func BenchmarkRecordParallel(b *testing.B) {
	for _, shards := range []int{1, 0} {
		name := "shards=GOMAXPROCS"
		if shards == 1 {
			name = "shards=1"
		}
		b.Run(name, func(b *testing.B) {
			c := NewCollector(Options{Templates: 1, Corrected: true, Shards: shards})
			b.RunParallel(func(pb *testing.PB) {
				r := c.NewRecorder()
				s := Sample{Start: 1, FirstByte: 2, End: 123456}
				for pb.Next() {
					r.Record(&s)
				}
			})
		})
	}
}

// refCount is what a sample adds to a template's counters, counted plainly.
func refCount(c *Counts, s *Sample) {
	c.Count++
	switch {
	case s.Outcome == OK:
		c.OK++
		if s.Overrun {
			c.OverrunOK++
		}
	case s.Outcome == Wrong:
		c.Wrong++
	default:
		c.Errors++
		c.ErrorKinds[s.Outcome-ErrStatus]++
		if s.Overrun {
			c.OverrunErr++
		}
	}
	for _, f := range []struct {
		on bool
		n  *int64
	}{{s.Verified, &c.Verified}, {s.Late, &c.Late}, {s.DriverLate, &c.DriverLate}, {s.Overrun, &c.Overrun}} {
		if f.on {
			*f.n++
		}
	}
	c.SentBytes += s.SentBytes
	c.RecvBytes += s.RecvBytes
	c.Calls += int64(max(s.Calls, 1))
}

// TestRecordCountsEverySample: every combination of outcome, verification,
// lateness, overrun, calls and bytes, recorded by recorders on every P
// while a collector collects, adds up to exactly what counting each sample
// plainly gives (the common samples' counters taken at once included).
func TestRecordCountsEverySample(t *testing.T) {
	var all []Sample
	for o := OK; o < numOutcomes; o++ {
		for flags := range 1 << 5 {
			for _, calls := range []int32{0, 1, 3} {
				all = append(all, Sample{Outcome: o, Verified: flags&1 != 0, Late: flags&2 != 0, DriverLate: flags&4 != 0,
					Overrun: flags&8 != 0, Calls: calls, SentBytes: int64(flags&16) * 7, RecvBytes: int64(calls) * 11,
					Start: 1, FirstByte: 2, End: 3})
			}
		}
	}
	const workers, rounds = 4, 200
	var want Counts
	for range workers * rounds {
		for i := range all {
			refCount(&want, &all[i])
		}
	}
	c := NewCollector(Options{Templates: 1, Shards: 2})
	var wg sync.WaitGroup
	for range workers {
		r := c.NewRecorder()
		wg.Go(func() {
			for range rounds {
				for i := range all {
					r.Record(&all[i])
				}
			}
		})
	}
	total := c.NewSnapshot()
	collectWhile(c, &wg, func(snap *Snapshot) { total.T[0].add(&snap.T[0]) })
	if got := total.T[0].Counts; got != want {
		t.Errorf("counts\n%+v, want\n%+v", got, want)
	}
}

// collectWhile collects c into a snapshot, handed to add, again and again
// while the recorders of wg run, and once more after they are done.
func collectWhile(c *Collector, wg *sync.WaitGroup, add func(*Snapshot)) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	snap := c.NewSnapshot()
	for loop := true; loop; {
		select {
		case <-done:
			loop = false
		default:
		}
		snap.Reset()
		c.Collect(snap)
		add(snap)
	}
}
