package measure

import (
	"runtime"
	"sync"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Stats are one template's counters and histograms. A histogram is nil
// until its first value: a worker only pays for the templates it sends.
type Stats struct {
	Counts
	QET     *hdrhistogram.Histogram // send start → last byte
	QRT     *hdrhistogram.Histogram // send start → first byte
	Latency *hdrhistogram.Histogram // intended send → last byte (open loop only)
}

func (s *Stats) add(o *Stats) {
	s.Counts.Add(&o.Counts)
	mergeInto(&s.QET, o.QET)
	mergeInto(&s.QRT, o.QRT)
	mergeInto(&s.Latency, o.Latency)
}

func (s *Stats) reset() {
	s.Counts = Counts{}
	reset(s.QET)
	reset(s.QRT)
	reset(s.Latency)
}

// Set is what a worker records into during one interval: Stats per template
// and, when asked for, every Sample.
type Set struct {
	T       []Stats
	Samples []Sample
}

func newSet(templates int) *Set { return &Set{T: make([]Stats, templates)} }

func (s *Set) reset() {
	for i := range s.T {
		s.T[i].reset()
	}
	s.Samples = s.Samples[:0]
}

// Recorder is one worker's recording handle. Record and Drop may be called
// only from the worker's goroutine; a Collector reads concurrently.
type Recorder struct {
	// phase is odd while the worker records: the collector, having swapped
	// active, waits until the record that may hold the old Set is over.
	phase     atomic.Uint64
	active    atomic.Pointer[Set]
	corrected bool
	samples   bool
}

// Options say what a Recorder records.
type Options struct {
	Templates int  // number of templates; Sample.Template indexes them
	Corrected bool // record the intended-start latency (open loop)
	Samples   bool // keep every Sample (per-request records)
}

// Record records one request.
func (r *Recorder) Record(s *Sample) {
	r.phase.Add(1)
	set := r.active.Load()
	st := &set.T[s.Template]
	st.count(s)
	if s.Outcome.HasResponse() {
		if st.QET == nil {
			st.QET, st.QRT = NewHist(), NewHist()
		}
		c := record(st.QET, int64(s.QET()))
		c = record(st.QRT, int64(s.QRT())) || c
		if r.corrected {
			if st.Latency == nil {
				st.Latency = NewHist()
			}
			c = record(st.Latency, int64(s.Latency())) || c
		}
		if c {
			st.Clamped++
		}
	}
	if r.samples {
		set.Samples = append(set.Samples, *s)
	}
	r.phase.Add(1)
}

// Drop counts n sends of template t that were not made.
func (r *Recorder) Drop(t int, n int64) {
	r.phase.Add(1)
	r.active.Load().T[t].Dropped += n
	r.phase.Add(1)
}

// swap installs fresh as the active Set and returns the previous one once
// no record into it is in progress.
func (r *Recorder) swap(fresh *Set) *Set {
	old := r.active.Swap(fresh)
	// Go's atomics are sequentially consistent: a record that loads active
	// after the Swap uses fresh; one that loaded it before has made phase
	// odd before this Load, and is over once phase moves on.
	if p := r.phase.Load(); p&1 == 1 {
		for r.phase.Load() == p {
			runtime.Gosched()
		}
	}
	return old
}

// Snapshot is what a Collector gathered over one interval: per template the
// merged Stats of every worker, and the Samples if recorded.
type Snapshot struct {
	T       []Stats
	Samples []Sample
}

// Reset empties the snapshot for reuse, keeping its memory.
func (s *Snapshot) Reset() {
	for i := range s.T {
		s.T[i].reset()
	}
	s.Samples = s.Samples[:0]
}

// Total returns the counters of all templates added up.
func (s *Snapshot) Total() Counts {
	var c Counts
	for i := range s.T {
		c.Add(&s.T[i].Counts)
	}
	return c
}

// Collector gathers the Recorders of a run. Workers may be added while it
// runs (a ramp adds users).
type Collector struct {
	opts  Options
	mu    sync.Mutex
	recs  []*Recorder
	spare *Set
}

// NewCollector returns a Collector for recorders of the given options.
func NewCollector(o Options) *Collector {
	return &Collector{opts: o, spare: newSet(o.Templates)}
}

// NewRecorder returns a new worker's Recorder, collected from now on.
func (c *Collector) NewRecorder() *Recorder {
	r := &Recorder{corrected: c.opts.Corrected, samples: c.opts.Samples}
	r.active.Store(newSet(c.opts.Templates))
	c.mu.Lock()
	c.recs = append(c.recs, r)
	c.mu.Unlock()
	return r
}

// NewSnapshot returns an empty Snapshot shaped for this Collector.
func (c *Collector) NewSnapshot() *Snapshot {
	return &Snapshot{T: make([]Stats, c.opts.Templates)}
}

// Collect moves everything recorded since the last Collect into snap (which
// it adds to: Reset it first for an interval of its own). Each worker's Set
// is swapped for an empty one, merged, emptied and reused: in a steady state
// a Collect allocates nothing.
func (c *Collector) Collect(snap *Snapshot) {
	c.mu.Lock()
	recs := c.recs
	c.mu.Unlock()
	for _, r := range recs {
		old := r.swap(c.spare)
		for i := range old.T {
			snap.T[i].add(&old.T[i])
		}
		snap.Samples = append(snap.Samples, old.Samples...)
		old.reset()
		c.spare = old
	}
}
