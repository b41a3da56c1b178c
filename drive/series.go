package drive

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// series records the fine samples of --sample-interval: answers completed
// per step, counted by the time of their last byte into a ring of buckets
// (so a late tick moves nothing into the wrong step), and the watched
// processes sampled by a goroutine every step.
type series struct {
	every time.Duration
	apis  []string
	ring  [][]atomic.Int64 // per side, per bucket (step k in ring[k % len])
	next  atomic.Int64     // the first step not collected yet
	procs []*measure.FineProc

	mu      sync.Mutex
	pending []procPoint // samples not yet in an interval
	stop    func()
}

// procPoint is one fine sample of every watched process.
type procPoint struct {
	at  time.Duration // from the phase's start
	cpu []float64
	rss []int64
}

func newSeries(cfg *Config, sides int) (*series, error) {
	s := &series{every: cfg.SampleInterval}
	for k := range sides {
		api := cfg.APIs[k]
		if api == "" {
			api = APIGraphQL
		}
		s.apis = append(s.apis, api)
	}
	n := 4*int(cfg.Interval/cfg.SampleInterval) + 16
	s.ring = make([][]atomic.Int64, sides)
	for k := range s.ring {
		s.ring[k] = make([]atomic.Int64, n)
	}
	for _, p := range cfg.Watch {
		f, err := measure.NewFineProc(p.PID, p.Tree)
		if err != nil {
			return nil, err
		}
		s.procs = append(s.procs, f)
	}
	return s, nil
}

// complete counts an answer of side that ended at end (from the phase's start).
func (s *series) complete(side int32, end time.Duration) {
	k := max(int64(end/s.every), s.next.Load()) // a late one counts in the first open step
	r := s.ring[side]
	r[k%int64(len(r))].Add(1)
}

// start begins a phase: the steps count from its base, the processes are
// sampled every step until the phase ends (stop).
func (s *series) start(base time.Time) {
	s.next.Store(0)
	for k := range s.ring {
		for i := range s.ring[k] {
			s.ring[k][i].Store(0)
		}
	}
	s.mu.Lock()
	s.pending = s.pending[:0]
	s.mu.Unlock()
	if len(s.procs) == 0 {
		s.stop = func() {}
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go s.sampleLoop(ctx, base, done)
	s.stop = func() { cancel(); <-done }
}

func (s *series) sampleLoop(ctx context.Context, base time.Time, done chan struct{}) {
	defer close(done)
	for _, p := range s.procs {
		p.Sample() // the first CPU time to count from
	}
	last := time.Now()
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			pt := procPoint{at: now.Sub(base), cpu: make([]float64, len(s.procs)), rss: make([]int64, len(s.procs))}
			wall := now.Sub(last).Nanoseconds()
			last = now
			for i, p := range s.procs {
				cpu, rss, _ := p.Sample()
				pt.cpu[i] = math.Round(1000*float64(cpu)/float64(max(wall, 1))) / 10 // %, one decimal
				pt.rss[i] = rss >> 10
			}
			s.mu.Lock()
			s.pending = append(s.pending, pt)
			s.mu.Unlock()
		}
	}
}

// collect returns the series of the interval [from, to).
func (s *series) collect(from, to time.Duration) *runfile.Series {
	out := &runfile.Series{EveryNS: int64(s.every), Completed: map[string][]int64{}}
	first, end := int64(from/s.every), int64((to+s.every-1)/s.every)
	first = max(first, s.next.Load())
	for k, api := range s.apis {
		r := s.ring[k]
		steps := make([]int64, 0, max(end-first, 0))
		for i := first; i < end; i++ {
			steps = append(steps, r[i%int64(len(r))].Swap(0))
		}
		out.Completed[api] = steps
	}
	s.next.Store(max(end, first))
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.procs) > 0 {
		out.Procs = make([]runfile.ProcSeries, len(s.procs))
		for i, p := range s.procs {
			out.Procs[i].PID = p.PID
		}
	}
	n := 0
	for _, pt := range s.pending {
		if pt.at >= to {
			break
		}
		for i := range s.procs {
			out.Procs[i].CPU = append(out.Procs[i].CPU, pt.cpu[i])
			out.Procs[i].RSSKiB = append(out.Procs[i].RSSKiB, pt.rss[i])
		}
		n++
	}
	s.pending = append(s.pending[:0], s.pending[n:]...)
	return out
}
