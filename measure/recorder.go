package measure

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Stats are one template's counters and histograms, as a Snapshot holds
// them. A histogram is nil until its first value.
type Stats struct {
	Counts
	QET     *Hist // send start → last byte
	QRT     *Hist // send start → first byte
	Latency *Hist // intended send → last byte (open loop only)
}

func (s *Stats) add(o *Stats) {
	s.Counts.Add(&o.Counts)
	AddHist(&s.QET, o.QET)
	AddHist(&s.QRT, o.QRT)
	AddHist(&s.Latency, o.Latency)
}

func (s *Stats) reset() {
	s.Counts = Counts{}
	for _, h := range []*Hist{s.QET, s.QRT, s.Latency} {
		if h != nil {
			h.reset()
		}
	}
}

// Recorder is one worker's recording handle: which shard it records into.
// Record and Drop may be called from any goroutine, concurrently with each
// other and with a Collector; per-request Samples keep the order of the
// Records of one goroutine.
type Recorder struct {
	c         *Collector
	sh        *shard
	corrected bool
	samples   bool
}

// Options say what a Collector's Recorders record.
type Options struct {
	Templates int  // number of templates; Sample.Template indexes them
	Corrected bool // record the intended-start latency (open loop)
	Samples   bool // keep every Sample (per-request records; appended under the shard's lock)
	// Shards is the number of shards the recorders share out; 0 means
	// GOMAXPROCS. More shards mean fewer recorders adding to the same
	// counters at the same time, and a set of histograms more.
	Shards int
}

// Record records one request.
func (r *Recorder) Record(s *Sample) {
	b := r.sh.enter()
	b.stats(s.Template, &r.c.footprint).record(s, r.corrected, &r.c.footprint)
	if r.samples {
		b.mu.Lock()
		b.samples = append(b.samples, *s)
		b.mu.Unlock()
	}
	b.writers.Add(-1)
}

// Drop counts n sends of template t that were not made.
func (r *Recorder) Drop(t int, n int64) {
	b := r.sh.enter()
	atomic.AddInt64(&b.stats(int32(t), &r.c.footprint).Dropped, n)
	b.writers.Add(-1)
}

// Snapshot is what a Collector gathered over one interval: per template the
// merged Stats of every shard, and the Samples if recorded.
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

// Collector gathers what the Recorders of a run record. Its memory grows
// with the shards and the templates recorded, not with the Recorders:
// recorders are shared out over a fixed number of shards (HdrHistogram's
// and wrk2's one histogram per thread, where a thread serves many
// connections), each shard recording into one buffer of per-template
// counters and histograms with atomic adds. Recorders may be added while it
// runs (a ramp adds users).
type Collector struct {
	opts      Options
	shards    []shard
	next      atomic.Uint64 // recorders made: the next one's shard
	footprint atomic.Int64  // bytes of tstats and counts allocated
	mu        sync.Mutex    // one Collect at a time
	spare     *buffer
}

// NewCollector returns a Collector for recorders of the given options.
func NewCollector(o Options) *Collector {
	if o.Shards <= 0 {
		o.Shards = runtime.GOMAXPROCS(0)
	}
	c := &Collector{opts: o, shards: make([]shard, o.Shards), spare: newBuffer(o.Templates)}
	for i := range c.shards {
		c.shards[i].active.Store(newBuffer(o.Templates))
	}
	return c
}

// NewRecorder returns a new worker's Recorder, collected from now on. The
// recorders take the shards in turn.
func (c *Collector) NewRecorder() *Recorder {
	n := c.next.Add(1) - 1
	return &Recorder{c: c, sh: &c.shards[n%uint64(len(c.shards))], corrected: c.opts.Corrected, samples: c.opts.Samples}
}

// Bytes returns the memory the recording state has taken so far: per
// buffer (one per shard and a spare) and template recorded, the counters
// and the histograms' chunks in use. It grows with the shards, the
// templates and the spread of the values, never with the recorders.
func (c *Collector) Bytes() int64 { return c.footprint.Load() }

// NewSnapshot returns an empty Snapshot shaped for this Collector.
func (c *Collector) NewSnapshot() *Snapshot {
	return &Snapshot{T: make([]Stats, c.opts.Templates)}
}

// Collect moves everything recorded since the last Collect into snap (which
// it adds to: Reset it first for an interval of its own). Each shard's
// buffer is swapped for an empty one, the spare, once the records in
// progress in it are over (a few atomic adds: never a request); it is
// drained into snap and becomes the spare for the next shard. So a run
// holds one buffer per shard and one more, and in a steady state a Collect
// allocates nothing.
func (c *Collector) Collect(snap *Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.shards {
		old := c.shards[i].swap(c.spare)
		old.drainInto(snap)
		c.spare = old
	}
}
