package measure

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A histogram's counts are allocated a chunk at a time: chunk 0 is bucket
// 0's lower half (0–1023 ns), chunk k ≥ 1 bucket k−1's upper half, the
// values from 2^(k+9) to 2^(k+10) ns. A latency distribution spans a few
// powers of two (50 µs–100 ms is 11 chunks), so a histogram takes a third
// of HdrHistogram's 270 KB or less.
const (
	chunkLen   = subBucketHalf
	numChunks  = countsLen / chunkLen // 33
	chunkBytes = chunkLen * 8
)

// hist is a histogram of gqlbench's configuration that many goroutines
// record into at once: HdrHistogram's counts array, counted with atomic
// adds, each chunk allocated when a value first falls into it.
type hist struct {
	chunks [numChunks]atomic.Pointer[[chunkLen]int64]
}

// record counts v (in range: see clamp).
func (h *hist) record(v int64, fp *atomic.Int64) {
	i := countsIndex(v)
	k := i >> subBucketHalfMag
	c := h.chunks[k].Load()
	if c == nil {
		c = h.grow(k, fp)
	}
	atomic.AddInt64(&c[i&(chunkLen-1)], 1)
}

// grow allocates chunk k, unless another recorder did first.
func (h *hist) grow(k int, fp *atomic.Int64) *[chunkLen]int64 {
	c := new([chunkLen]int64)
	if h.chunks[k].CompareAndSwap(nil, c) {
		fp.Add(chunkBytes)
		return c
	}
	return h.chunks[k].Load()
}

// drainInto adds the counts to *dst, allocating it on first use, and
// zeroes them; the chunks stay for the next interval. Nobody may be
// recording into h.
func (h *hist) drainInto(dst **Hist) {
	for k := range h.chunks {
		c := h.chunks[k].Load()
		if c == nil {
			continue
		}
		first := -1
		for j, n := range c {
			if n != 0 {
				first = j
				break
			}
		}
		if first < 0 {
			continue
		}
		if *dst == nil {
			*dst = newHistCounts()
		}
		d, base := *dst, k*chunkLen
		// valueAt(i) has index i: exactly HdrHistogram's count at i
		out := (*[chunkLen]int64)(d.counts[base:])
		var total int64
		last := first
		for j := first; j < chunkLen; j++ {
			if n := c[j]; n != 0 {
				out[j] += n
				c[j] = 0
				total += n
				last = j
			}
		}
		d.total += total
		d.lo, d.hi = min(d.lo, base+first), max(d.hi, base+last+1)
	}
}

// tstats are one template's counters and histograms in a buffer.
type tstats struct {
	// plain counts the plain samples (see Sample.plain), by whether they
	// were verified: one atomic add for each such sample where Counts
	// would take four (Count, OK, Calls, Verified), the others added when
	// drained.
	plain             [2]int64
	Counts                 // added to atomically
	qet, qrt, latency hist // as in Stats
}

var tstatsBytes = int64(unsafe.Sizeof(tstats{}))

// record adds one sample.
func (st *tstats) record(s *Sample, corrected bool, fp *atomic.Int64) {
	if s.plain() {
		v := 0
		if s.Verified {
			v = 1
		}
		atomic.AddInt64(&st.plain[v], 1)
		st.countBytes(s)
	} else {
		st.countAtomic(s)
	}
	if !s.Timed() {
		return
	}
	qet, c1 := clamp(int64(s.QET()))
	qrt, c2 := clamp(int64(s.QRT()))
	st.qet.record(qet, fp)
	st.qrt.record(qrt, fp)
	clamped := c1 || c2
	if corrected {
		lat, c3 := clamp(int64(s.Latency()))
		st.latency.record(lat, fp)
		clamped = clamped || c3
	}
	if clamped {
		atomic.AddInt64(&st.Clamped, 1)
	}
}

// drainInto adds everything to s and empties st.
func (st *tstats) drainInto(s *Stats) {
	s.Counts.Add(&st.Counts)
	n, v := st.plain[0]+st.plain[1], st.plain[1]
	s.Count += n
	s.OK += n
	s.Calls += n
	s.Verified += v
	st.Counts, st.plain = Counts{}, [2]int64{}
	st.qet.drainInto(&s.QET)
	st.qrt.drainInto(&s.QRT)
	st.latency.drainInto(&s.Latency)
}

// buffer is what the recorders of one shard record into during one
// interval: per template, its tstats (allocated on the template's first
// record) and, when asked for, every Sample.
type buffer struct {
	// writers counts the records in progress; a recorder registers here
	// before it checks that the buffer is still its shard's (shard.enter).
	writers atomic.Int64
	t       []atomic.Pointer[tstats]
	mu      sync.Mutex // guards samples
	samples []Sample
}

func newBuffer(templates int) *buffer { return &buffer{t: make([]atomic.Pointer[tstats], templates)} }

// stats returns template t's tstats, allocating them on first use.
func (b *buffer) stats(t int32, fp *atomic.Int64) *tstats {
	p := &b.t[t]
	if st := p.Load(); st != nil {
		return st
	}
	st := new(tstats)
	if p.CompareAndSwap(nil, st) {
		fp.Add(tstatsBytes)
		return st
	}
	return p.Load()
}

// drainInto moves everything into snap, leaving b empty but with its
// memory. Nobody may be recording into b.
func (b *buffer) drainInto(snap *Snapshot) {
	for t := range b.t {
		if st := b.t[t].Load(); st != nil {
			st.drainInto(&snap.T[t])
		}
	}
	snap.Samples = append(snap.Samples, b.samples...)
	b.samples = b.samples[:0]
}

// shard is one active buffer that some of the recorders share.
type shard struct {
	active atomic.Pointer[buffer]
}

// enter registers a record on the shard's active buffer and returns it;
// the caller ends the record with b.writers.Add(-1).
func (sh *shard) enter() *buffer {
	for {
		if b := sh.active.Load(); sh.tryEnter(b) {
			return b
		}
	}
}

// tryEnter registers a record on b if b is still the active buffer.
func (sh *shard) tryEnter(b *buffer) bool {
	b.writers.Add(1)
	// Go's atomics are sequentially consistent: if active is still b, any
	// swap of b comes after the Add above and waits for this record.
	if sh.active.Load() == b {
		return true
	}
	b.writers.Add(-1) // swapped meanwhile: b is the collector's now
	return false
}

// swap installs fresh as the active buffer and returns the previous one
// once no record into it is in progress. A record waited for is a few
// atomic adds long: the wait never depends on a request.
func (sh *shard) swap(fresh *buffer) *buffer {
	old := sh.active.Swap(fresh)
	for old.writers.Load() != 0 {
		runtime.Gosched()
	}
	return old
}
