package measure

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// edgeValues are values at and around every power of two and the edges of
// the configuration's range, where an index formula goes wrong first.
func edgeValues() []int64 {
	vs := []int64{0, 1, 2, 999, 1000, 1001, 1023, 1024, 1025, 2000, 2047, 2048, 2049,
		HistHighest - 1, HistHighest}
	for k := 1; k < 42; k++ {
		p := int64(1) << k
		vs = append(vs, p-1, p, p+1, p+p/3)
	}
	return vs
}

// randomValues returns n values spread evenly over the orders of magnitude
// of [0, HistHighest].
func randomValues(r *rand.Rand, n int) []int64 {
	vs := make([]int64, n)
	for i := range vs {
		vs[i] = min(int64(math.Exp(r.Float64()*math.Log(float64(HistHighest)))), HistHighest)
		if r.IntN(100) == 0 {
			vs[i] = r.Int64N(2048) // bucket 0, unit resolution
		}
	}
	return vs
}

// TestCountsIndex: countsIndex and valueAt are hdrhistogram-go's own
// layout: the same counts array length, the same index for every value
// recorded (edges and random values, read back from Export), and valueAt
// is the lowest value of an index's equivalence range.
func TestCountsIndex(t *testing.T) {
	h := NewHist()
	if n := len(h.Export().Counts); n != countsLen || countsLen%chunkLen != 0 {
		t.Fatalf("hdrhistogram-go has %d counts, the layout %d", n, countsLen)
	}
	vs := append(edgeValues(), randomValues(rand.New(rand.NewPCG(1, 2)), 2000)...)
	for _, v := range vs {
		h.Reset()
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
		want := -1
		for i, n := range h.Export().Counts {
			if n != 0 {
				want = i
				break
			}
		}
		if got := countsIndex(v); got != want {
			t.Fatalf("countsIndex(%d) = %d, hdrhistogram-go counts it at %d", v, got, want)
		}
		lo := valueAt(countsIndex(v))
		if lo > v || !h.ValuesAreEquivalent(lo, v) || (lo > 0 && h.ValuesAreEquivalent(lo-1, v)) {
			t.Fatalf("valueAt(countsIndex(%d)) = %d, not the lowest equivalent value", v, lo)
		}
	}
	for i := range countsLen {
		if j := countsIndex(valueAt(i)); j != i {
			t.Fatalf("countsIndex(valueAt(%d)) = %d", i, j)
		}
		// index i counts RangeAt(i) values from ValueAt(i): the next index
		// starts after them, and the last of them is still i's
		hi := ValueAt(i) + RangeAt(i) - 1
		if countsIndex(hi) != i || i+1 < countsLen && ValueAt(i+1) != hi+1 {
			t.Fatalf("index %d: values %d to %d, the next index from %d", i, ValueAt(i), hi, ValueAt(i+1))
		}
	}
}

// TestHistMatchesHDR: a million values recorded into a hist and drained
// give exactly the histogram hdrhistogram-go records.
func TestHistMatchesHDR(t *testing.T) {
	var fp atomic.Int64
	var sh hist
	want := NewHist()
	for _, v := range append(edgeValues(), randomValues(rand.New(rand.NewPCG(3, 4)), 1_000_000)...) {
		sh.record(v, &fp)
		_ = want.RecordValue(v)
	}
	var got *Hist
	sh.drainInto(&got)
	assertSameHist(t, "hist", got, want)
	var again *Hist
	if sh.drainInto(&again); again != nil {
		t.Errorf("a drained hist still holds %d values", again.TotalCount())
	}
}

// values returns the number of values in h, which may be nil.
func values(h *Hist) int64 {
	if h == nil {
		return 0
	}
	return h.TotalCount()
}

// assertSameHist fails unless got and want are the same histogram, and
// got's own quantiles are hdrhistogram-go's.
func assertSameHist(t *testing.T, name string, got *Hist, want *hdrhistogram.Histogram) {
	t.Helper()
	if got == nil || want == nil {
		if (got == nil) != (want == nil) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
		return
	}
	h := got.Histogram()
	if !h.Equals(want) || got.TotalCount() != want.TotalCount() {
		t.Errorf("%s: the counts differ: %d values, want %d", name, got.TotalCount(), want.TotalCount())
	}
	if h.Min() != want.Min() || h.Max() != want.Max() || h.Mean() != want.Mean() {
		t.Errorf("%s: min %d max %d mean %v, want %d %d %v", name, h.Min(), h.Max(), h.Mean(), want.Min(), want.Max(), want.Mean())
	}
	for _, q := range []float64{0, 1, 25, 50, 90, 99, 99.9, 99.99, 100} {
		if g, w := got.ValueAtQuantile(q), want.ValueAtQuantile(q); g != w {
			t.Errorf("%s: p%v = %d, want %d", name, q, g, w)
		}
	}
}

// TestShardedMatchesHDR: many goroutines record through recorders sharing
// three shards while a collector collects without pause; every interval is
// whole (a record's counters and its histograms' values land in the same
// one), each goroutine's samples keep their order, and the intervals add up
// to exactly what plain hdrhistogram-go histograms recorded (counts, min,
// max, mean, quantiles). Run with -race.
func TestShardedMatchesHDR(t *testing.T) {
	const goroutines, perG, templates = 12, 20000, 3
	c := NewCollector(Options{Templates: templates, Corrected: true, Samples: true, Shards: 3})
	want := make([][3]*hdrhistogram.Histogram, goroutines*templates) // per goroutine × template: QET, QRT, latency
	var wg sync.WaitGroup
	for g := range goroutines {
		r := c.NewRecorder()
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(g), 5))
			vs := randomValues(rnd, 3*perG)
			for i := range perG {
				tm := (g + i) % templates
				w := &want[g*templates+tm]
				if w[0] == nil {
					w[0], w[1], w[2] = NewHist(), NewHist(), NewHist()
				}
				start := time.Duration(rnd.Int64N(int64(time.Second)))
				s := Sample{Template: int32(tm), Query: int32(i), Client: int32(g), Start: start,
					FirstByte: start + time.Duration(vs[3*i]), End: start + time.Duration(vs[3*i+1])}
				s.Intended = s.End - time.Duration(vs[3*i+2])
				switch i % 50 {
				case 0:
					s.Outcome = ErrTimeout // counted, no latency
				case 1:
					s.End = start + 2*time.Hour // clamped
					s.Intended = s.End + 1      // clamped
				}
				if s.Outcome.HasResponse() {
					for k, v := range []time.Duration{s.QET(), s.QRT(), s.Latency()} {
						cv, _ := clamp(int64(v))
						_ = w[k].RecordValue(cv)
					}
				}
				r.Record(&s)
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	total, snap := c.NewSnapshot(), c.NewSnapshot()
	var samples []Sample
	collect := func() {
		snap.Reset()
		c.Collect(snap)
		for tm := range snap.T {
			st := &snap.T[tm]
			n := st.Count - st.ErrorKinds[3] // timeouts have no latency
			if values(st.QET) != n || values(st.QRT) != n || values(st.Latency) != n {
				t.Fatalf("an interval is not whole: template %d counts %d responses, its histograms %d %d %d",
					tm, n, values(st.QET), values(st.QRT), values(st.Latency))
			}
			total.T[tm].add(st)
		}
		if int64(len(snap.Samples)) != snap.Total().Count {
			t.Fatalf("an interval holds %d samples and %d requests", len(snap.Samples), snap.Total().Count)
		}
		samples = append(samples, snap.Samples...)
	}
	collects := 0
	for loop := true; loop; collects++ {
		select {
		case <-done:
			loop = false
		default:
		}
		collect()
	}
	t.Logf("%d collects", collects)
	next := make([]int32, goroutines)
	for _, s := range samples {
		if s.Query != next[s.Client] {
			t.Fatalf("goroutine %d: sample %d where %d was next", s.Client, s.Query, next[s.Client])
		}
		next[s.Client]++
	}
	for tm := range templates {
		w := [3]*hdrhistogram.Histogram{NewHist(), NewHist(), NewHist()}
		for g := range goroutines {
			for k := range w {
				if h := want[g*templates+tm][k]; h != nil {
					w[k].Merge(h)
				}
			}
		}
		st := &total.T[tm]
		if n := int64(goroutines * perG / templates); st.Count != n || st.ErrorKinds[3] != n/50 || st.Clamped != n/50 {
			t.Errorf("template %d: %d requests, %d timeouts, %d clamped; want %d, %d, %d", tm, st.Count, st.ErrorKinds[3], st.Clamped, n, n/50, n/50)
		}
		assertSameHist(t, "qet", st.QET, w[0])
		assertSameHist(t, "qrt", st.QRT, w[1])
		assertSameHist(t, "latency", st.Latency, w[2])
	}
}

// TestFootprintIndependentOfRecorders: the memory a Collector allocates
// grows with its shards and the templates recorded, not with its
// recorders: 4 recorders and 4000 recording the same values allocate the
// same, one buffer per shard and a spare, each with the chunks touched.
func TestFootprintIndependentOfRecorders(t *testing.T) {
	const shards, templates = 4, 16
	values := []time.Duration{50 * time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond, 40 * time.Millisecond}
	footprint := func(recorders int) int64 {
		c := NewCollector(Options{Templates: templates, Corrected: true, Shards: shards})
		recs := make([]*Recorder, recorders)
		for i := range recs {
			recs[i] = c.NewRecorder()
		}
		snap := c.NewSnapshot()
		for range shards + 2 { // every buffer passes through every shard
			for i, r := range recs {
				for tm := range templates {
					v := values[(i+tm)%len(values)]
					r.Record(&Sample{Template: int32(tm), Start: 0, FirstByte: v, End: v})
				}
			}
			snap.Reset()
			c.Collect(snap)
		}
		return c.Bytes()
	}
	few, many := footprint(shards), footprint(1000*shards)
	// the values fall into 4 chunks, each in QET, QRT and the latency
	want := int64(shards+1) * templates * (tstatsBytes + 3*4*chunkBytes)
	if few != want || many != want {
		t.Errorf("%d recorders allocate %d bytes, %d recorders %d; want %d for both", shards, few, 1000*shards, many, want)
	}
	t.Logf("%d shards × %d templates: %d KB", shards, templates, want>>10)
}

// TestRecordersShareShards: recorders take the shards in turn, GOMAXPROCS
// of them by default.
func TestRecordersShareShards(t *testing.T) {
	c := NewCollector(Options{Templates: 1, Shards: 3})
	seen := map[*shard]int{}
	for range 9 {
		seen[c.NewRecorder().sh]++
	}
	if len(seen) != 3 {
		t.Fatalf("9 recorders in %d shards, want 3", len(seen))
	}
	for _, n := range seen {
		if n != 3 {
			t.Errorf("shards of %v recorders, want 3 each", seen)
		}
	}
	if n := len(NewCollector(Options{Templates: 1}).shards); n != runtime.GOMAXPROCS(0) {
		t.Errorf("%d shards by default, want GOMAXPROCS = %d", n, runtime.GOMAXPROCS(0))
	}
}

// TestSwapWaitsForRecords: a record that registered on the active buffer
// holds its swap until it ends; a recorder that read the active buffer
// before a swap and registers after it does not record into it.
func TestSwapWaitsForRecords(t *testing.T) {
	var sh shard
	a, fresh := newBuffer(1), newBuffer(1)
	sh.active.Store(a)
	if !sh.tryEnter(a) {
		t.Fatal("cannot enter the active buffer")
	}
	var ended atomic.Bool
	swapped := make(chan bool)
	go func() {
		old := sh.swap(fresh)
		swapped <- old == a && ended.Load()
	}()
	for range 100 {
		runtime.Gosched() // give the swap a chance to return too early
	}
	ended.Store(true)
	a.writers.Add(-1)
	if !<-swapped {
		t.Fatal("swap returned while a record was in progress")
	}
	if sh.tryEnter(a) {
		t.Fatal("a record entered a swapped-out buffer")
	}
	if a.writers.Load() != 0 {
		t.Fatal("a refused record stays registered")
	}
	if b := sh.enter(); b != fresh {
		t.Fatal("enter returned another buffer than the active one")
	}
}
